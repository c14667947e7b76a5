// DDR device configuration: the plain structure that mirrors a DDR preset YAML, its loader
// (preset file plus overrides from the SoC YAML) and its validation.
//
// Timings are in memory clock cycles (tCK), as JEDEC speed-bin tables and DRAMSys/Ramulator
// presets give them; tCK itself is in picoseconds. The keys are declared in key tables
// (ddr_config.cpp: type, range, default, documentation), from which docs/ddr.md's key tables
// are generated (write_ddr_key_docs, `socsim config --keys ddr`).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "models/common/config.h"
#include "models/ddr/controller/ddr_controller_config.h"

namespace socsim {

/// Limits of the controller model (a channel's banks are tracked in one 64-bit mask).
constexpr uint32_t kMaxDdrChannels = 16;
constexpr uint32_t kMaxDdrBanksPerChannel = 64;

/// Which timing model serves the requests.
enum class DdrModelKind {
  kJedec,  ///< channels, bank groups, banks, row buffers, JEDEC timing constraints, refresh
  kIdeal,  ///< fixed latency, unlimited bandwidth (what-if studies)
};

/// Organisation of the device as the memory controller sees it.
struct DdrGeometry {
  uint32_t channels = 1;             ///< independent channels, each with its own data bus
  uint32_t ranks = 1;                ///< ranks per channel (they share the channel's buses)
  uint32_t channel_width_bits = 64;  ///< data bus width of one channel
  uint32_t burst_length = 8;         ///< BL: transfers per burst
  uint32_t data_rate = 2;            ///< transfers per tCK (2: DDR; 8: LPDDR5 counted in CK)
  uint32_t bank_groups = 1;          ///< bank groups per rank (1 when the device has none)
  uint32_t banks_per_group = 8;      ///< banks in each bank group
  uint32_t rows = 65536;             ///< rows per bank
  uint32_t row_bytes = 2048;         ///< row buffer (page) size across the channel, in bytes
  uint32_t banks_per_refpb = 1;      ///< banks one REFpb refreshes: b, b + banks/n, ... (LPDDR5: 2)

  uint32_t burst_bytes() const { return channel_width_bits / 8 * burst_length; }
  /// tCK a burst holds the data bus.
  uint32_t burst_cycles() const { return burst_length / data_rate; }
  uint32_t banks_per_rank() const { return bank_groups * banks_per_group; }
  uint32_t banks_per_channel() const { return ranks * banks_per_rank(); }
  uint64_t capacity_bytes() const {
    return uint64_t{channels} * banks_per_channel() * rows * row_bytes;
  }
};

/// JEDEC timing parameters, all in tCK. Names follow the JEDEC tables (tRCD -> t_rcd).
struct DdrTimingParams {
  uint32_t cl = 0;        ///< CL: read command to first data
  uint32_t cwl = 0;       ///< CWL: write command to first data
  uint32_t t_rcd = 0;     ///< activate to read/write
  uint32_t t_rp = 0;      ///< precharge of one bank
  uint32_t t_rp_all = 0;  ///< precharge of all banks (before refresh); tRPab on LPDDR4
  uint32_t t_ras = 0;     ///< activate to precharge, same bank
  uint32_t t_rc = 0;      ///< activate to activate, same bank
  uint32_t t_ccd_s = 0;   ///< column command to column command, different bank group
  uint32_t t_ccd_l = 0;   ///< column command to column command, same bank group
  uint32_t t_rrd_s = 0;   ///< activate to activate, different bank group
  uint32_t t_rrd_l = 0;   ///< activate to activate, same bank group
  uint32_t t_faw = 0;     ///< window holding at most four activates
  uint32_t t_wr = 0;      ///< end of write data to precharge
  uint32_t t_rtp = 0;     ///< read to precharge
  uint32_t t_wtr_s = 0;   ///< end of write data to read, different bank group
  uint32_t t_wtr_l = 0;   ///< end of write data to read, same bank group
  uint32_t t_rfc = 0;     ///< all-bank refresh cycle time (the rank is blocked)
  uint32_t t_refi = 0;    ///< all-bank refresh interval
  // Optional (0 in a preset means: the documented default, resolved by the loader).
  uint32_t t_rcd_wr = 0;    ///< activate to write (HBM2 tRCDWR); default tRCD
  uint32_t t_ccd_s_wr = 0;  ///< write to write, different bank group (DDR5); default tCCD_S
  uint32_t t_ccd_l_wr = 0;  ///< write to write, same bank group (DDR5 tCCD_L_WR); default tCCD_L
  uint32_t t_ppd = 0;       ///< precharge to precharge in a rank (LPDDR tPPD); default 0
  uint32_t t_rtrs = 0;      ///< data-bus gap when bursts switch ranks; default 2
  // Per-bank refresh (0: the device has none).
  uint32_t t_rfc_pb = 0;   ///< REFpb: the bank is blocked
  uint32_t t_refi_pb = 0;  ///< interval between two REFpb commands of a rank
  uint32_t t_pbr2pbr = 0;  ///< REFpb to REFpb, other bank
  uint32_t t_pbr2act = 0;  ///< REFpb to ACT, other bank
};

/// One supply of the device and its IDD currents in mA, as datasheets give them
/// (DRAMPower's memspec names). Per device; DdrEnergyParams::devices devices form a rank.
struct DdrPowerRail {
  std::string name;    ///< "vdd", "vpp", "vdd2", ...
  double voltage = 0;  ///< V
  double idd0 = 0;     ///< one bank activate-precharge cycling at tRC
  double idd2n = 0;    ///< precharge standby (all banks closed)
  double idd3n = 0;    ///< active standby (a bank open)
  double idd4r = 0;    ///< burst read
  double idd4w = 0;    ///< burst write
  double idd5b = 0;    ///< all-bank refresh burst (during tRFC)
  double idd5pb = -1;  ///< per-bank refresh burst (during tRFCpb); < 0: E(REFab) / banks
};

/// Currents for the energy report (models/ddr/ddr_energy.h); no rails: no energy figures.
struct DdrEnergyParams {
  uint32_t devices = 0;  ///< devices per rank
  std::vector<DdrPowerRail> rails;
  bool enabled() const { return devices > 0 && !rails.empty(); }
};

/// Which address bits (of the offset inside the DDR region) select each field. The low
/// log2(burst_bytes) bits are the byte inside a burst; `column` selects a burst inside a row.
struct DdrAddressMapping {
  std::vector<uint32_t> channel;
  std::vector<uint32_t> rank;
  std::vector<uint32_t> bank_group;
  std::vector<uint32_t> bank;
  std::vector<uint32_t> row;
  std::vector<uint32_t> column;
};

/// A DDR device: the preset with overrides applied. Plain data; validate_ddr_config() checks
/// it and load_ddr_config() returns it validated.
struct DdrConfig {
  std::string name;
  DdrModelKind model = DdrModelKind::kJedec;
  double tck_ps = 0;  ///< memory clock period (data rate = 2 / tCK)
  DdrGeometry geometry;
  DdrTimingParams timing;
  DdrAddressMapping mapping;
  DdrEnergyParams energy;
  DdrControllerConfig controller;
  double ideal_latency_ns = 0;  ///< kIdeal only: latency of every request
  uint64_t ideal_capacity = 0;  ///< kIdeal only: addressable bytes

  /// Where each value came from ("file:line: key 'timing.tRCD'"), keyed by its YAML key
  /// path, so validation errors can name file, line and key. Missing entries are allowed
  /// (configurations built in code); messages then name the key alone.
  std::map<std::string, std::string> origin;
  std::string preset_file;  ///< the preset the fields not overridden come from

  /// Bytes the device can address.
  uint64_t capacity_bytes() const;
  /// Peak data bandwidth of all channels in bytes per second (0 for kIdeal: unlimited).
  double peak_bytes_per_s() const;
};

/// Loads and validates a preset file (strict: unknown keys are errors). `overrides`, if
/// given, are `key.path=value` assignments (as for `--set`) applied to the file first.
DdrConfig load_ddr_preset(const std::string& file, const std::vector<std::string>& overrides = {});

/// Loads the DDR of a SoC YAML region entry: the region's `preset` (a path relative to
/// base_dir) merged under the entry (ConfigNode::merge_presets; the SoC loader has done so
/// already), so any preset key given in the entry overrides the preset's, with the same key
/// structure (the `controller` map too). Validates, and checks the region's `size` (if
/// `node` has one) against the device capacity. Unknown keys inside geometry, timing,
/// mapping, controller and energy are errors; other keys of `node` are left to the caller.
/// Throws ConfigError naming file, line and key.
DdrConfig load_ddr_config(const ConfigNode& node, const std::string& base_dir);

/// Checks a configuration (the key tables' ranges, then the rules across keys); throws
/// ConfigError naming the offending key (and its file and
/// line when `config.origin` knows them).
void validate_ddr_config(const DdrConfig& config);

/// docs/ddr.md's generated tables: the preset keys of both models, the controller's, the
/// energy section's (`socsim config --keys ddr`).
void write_ddr_key_docs(std::ostream& out);

/// Checks that a region of `size_bytes` fits the device; `where` names the size's origin.
void check_ddr_region_size(const DdrConfig& config, uint64_t size_bytes, const std::string& where);

}  // namespace socsim
