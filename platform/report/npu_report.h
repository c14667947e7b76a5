// The per-layer performance report of an NPU run, laid out as RKNN's profiler prints it:
// one row per layer with every eval_perf column (ID, OpType, DataType, Target, shapes, DDR /
// NPU / Total = max(DDR, NPU) cycles, Time(us), MacUsage(%), WorkLoad per core, TaskNumber,
// RW(KB), FullName) and the bound, totals per frame, a ranking of operator types and a
// memory report; also as CSV and JSON for scripts (scripts/npu_roofline.py).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
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
/// (DdrTiming::energy_rates). A layer's DDR energy: its operands in the region, each counted
/// once (tiles read again are not), at those rates, plus the DDR's standby and refresh
/// power over the layer's time.
struct NpuDdrEnergy {
  uint64_t base = 0;
  uint64_t size = 0;
  DdrEnergyRates rates;
};

struct NpuReportInput {
  const Npu* npu = nullptr;
  std::vector<CpuOperatorRecord> cpu_ops;
  double cpu_mhz = 0;
  std::vector<NpuDdrEnergy> ddr;  ///< empty: no DDR energy column
};

/// The table, footer, op-type ranking and memory report of the last command list run.
void print_npu_report(std::ostream& out, const NpuReportInput& input);
/// Every layer of every run, with the preset's figures (for the roofline script).
nlohmann::json npu_report_json(const NpuReportInput& input);
/// The table's rows as CSV (one line per layer of the last run).
void write_npu_report_csv(std::ostream& out, const NpuReportInput& input);

}  // namespace socsim
