// DDR energy in the style of DRAMPower (Chandrasekar et al., "Improved Power Modeling of
// DDR SDRAMs", DSD 2011): from the preset's IDD currents and supply voltages (per device,
// DdrEnergyParams) and the commands and bank states the device timing recorded.
//
// Per rank and supply rail, with D devices, V volts, currents in mA, times in ns (pJ):
//   activate/precharge  per ACT:   D V (IDD0 tRC - IDD3N tRAS - IDD2N (tRC - tRAS))
//   read / write        per burst: D V (IDD4R - IDD3N) tBURST   /   D V (IDD4W - IDD3N) tBURST
//   refresh             per REFab: D V (IDD5B - IDD3N) tRFC;  per REFpb: D V (IDD5PB - IDD3N)
//                       tRFCpb, or a REFab's energy / banks when the preset gives no IDD5PB
//   background          D V (IDD3N x cycles with a bank open + IDD2N x the other cycles)
// Power-down, self refresh and I/O termination are not modelled.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "models/ddr/ddr_config.h"

namespace socsim {

struct DdrRankActivity;

/// Energy of a DDR run in picojoules, by origin.
struct DdrEnergy {
  double activate_pj = 0;  ///< activate / precharge pairs
  double read_pj = 0;
  double write_pj = 0;
  double refresh_pj = 0;
  double background_pj = 0;  ///< active and precharge standby
  double total_pj() const { return activate_pj + read_pj + write_pj + refresh_pj + background_pj; }
  DdrEnergy& operator+=(const DdrEnergy& other);
};

/// What one initiator's DDR traffic costs in a finished run, to give parts of the run (an
/// NPU layer) their share of the DDR energy: per byte read and written, its bursts' read or
/// write energy plus, spread over all its bytes, the energy of the activates it caused; and
/// the device's standby and refresh power averaged over the run.
struct DdrEnergyRates {
  double read_pj_per_byte = 0;
  double write_pj_per_byte = 0;
  double static_mw = 0;
  /// pJ for moving `read_bytes` and `write_bytes` in `duration_ns` of the run.
  double energy_pj(double read_bytes, double write_bytes, double duration_ns) const {
    return read_bytes * read_pj_per_byte + write_bytes * write_pj_per_byte +
           static_mw * duration_ns;
  }
};

/// The energy cost of each command and state, per rank, from a preset's currents.
class DdrEnergyModel {
 public:
  /// `config` must be valid. Without currents (config.energy.enabled() false) every cost
  /// is zero and enabled() is false.
  explicit DdrEnergyModel(const DdrConfig& config);

  bool enabled() const { return enabled_; }
  double activate_pj() const { return activate_pj_; }
  double read_burst_pj() const { return read_pj_; }
  double write_burst_pj() const { return write_pj_; }
  double refresh_pj() const { return refresh_pj_; }
  double bank_refresh_pj() const { return bank_refresh_pj_; }

  /// Energy of one rank over `span_cycles` memory clock cycles of which `activity`
  /// records the commands and the cycles with a bank open.
  DdrEnergy energy(const DdrRankActivity& activity, uint64_t span_cycles) const;

 private:
  bool enabled_;
  double tck_ns_;
  double activate_pj_ = 0, read_pj_ = 0, write_pj_ = 0, refresh_pj_ = 0, bank_refresh_pj_ = 0;
  /// Standby power of one rank in mW (= pJ/ns), a bank open / all banks closed.
  double active_mw_ = 0, precharge_mw_ = 0;
};

}  // namespace socsim
