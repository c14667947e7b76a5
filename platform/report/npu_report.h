// The per-layer performance report of an NPU run, laid out as RKNN's profiler prints it:
// one row per layer with every eval_perf column (ID, OpType, DataType, Target, shapes, DDR /
// NPU / Total = max(DDR, NPU) cycles, Time(us), MacUsage(%), WorkLoad per core, TaskNumber,
// RW(KB), FullName) and the bound, totals per frame, a ranking of operator types and a
// memory report; also as CSV and JSON for scripts (scripts/npu_roofline.py).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "models/ddr/ddr_energy.h"
#include "models/npu/npu.h"

namespace socsim {

/// An operator the CPU ran, with its cycles as measured by the probes. The report lists
/// them with Target CPU; the probe facility fills these in (none without probes).
struct CpuOperatorRecord {
  std::string name;
  std::string op_type;
  std::string data_type = "INT8";  ///< of its input: FLOAT32 for a quantize
  std::string in_shape, out_shape;
  uint64_t cpu_cycles = 0;
};

/// A DDR region the NPU's operands may lie in, with what the NPU's traffic there cost
/// (DdrTiming::energy_rates; none when the DDR preset has no energy figures). A layer's DDR
/// energy: its operands in the region, each counted once (tiles read again are not), at
/// those rates, plus the DDR's standby and refresh power over the layer's time.
struct NpuDdrRegion {
  uint64_t base = 0;
  uint64_t size = 0;
  std::optional<DdrEnergyRates> rates;
};

/// The bytes a layer's DMA moved to and from DDR: each stream's bytes (re-reads included)
/// shared out over the stream's operands by their sizes (a stream reads its operands in
/// turn and wraps around), counted for the operands that lie in a DDR region, and the
/// descriptor when its command list does. Operands in SRAM move no DDR bytes.
struct NpuDdrTraffic {
  uint64_t read = 0;
  uint64_t written = 0;
};
NpuDdrTraffic npu_ddr_traffic(const NpuLayerRecord& layer,
                              const std::vector<NpuDdrRegion>& regions);

/// What bounds a layer, as the report's Bound column says it: "compute" when its NPU cycles
/// are at least its DMA (DDR) cycles; else "ddr" when most of the bytes its DMA moved are
/// DDR traffic (npu_ddr_traffic), "on-chip-dma" when most lie in SRAM (the DMA engine's
/// rate, not the DDR, sets the time). Without regions every DMA-bound layer is "ddr".
std::string npu_bound(const NpuLayerRecord& layer, const std::vector<NpuDdrRegion>* regions);

/// A layer's energy in uJ (docs/npu.md, "Energy"), each part < 0 when unknown: its MACs at
/// the preset's `energy.mac_pj` (int8), the buffer's accesses (every DMA byte is written into
/// the buffer once and read out once: 2 x (read + write) bytes) at `buffer_pj_per_byte`, and
/// its share of the DDR energy (NpuDdrRegion) over `time_us`.
struct NpuLayerEnergy {
  double mac_uj = -1, buffer_uj = -1, ddr_uj = -1;
  /// The sum of the known parts (< 0 when none is).
  double total_uj() const;
};
NpuLayerEnergy npu_layer_energy(const NpuConfig& config, const NpuLayerRecord& layer,
                                const std::vector<NpuDdrRegion>& regions);

struct NpuReportInput {
  const Npu* npu = nullptr;
  std::vector<CpuOperatorRecord> cpu_ops;
  double cpu_mhz = 0;
  std::vector<NpuDdrRegion> ddr;  ///< the DDR regions (none with rates: no DDR(uJ) column)
};

/// The table, footer, op-type ranking and memory report of the last command list run.
void print_npu_report(std::ostream& out, const NpuReportInput& input);
/// Every layer of every run, with the preset's figures (for the roofline script).
nlohmann::json npu_report_json(const NpuReportInput& input);
/// The table's rows as CSV (one line per layer of the last run).
void write_npu_report_csv(std::ostream& out, const NpuReportInput& input);

}  // namespace socsim
