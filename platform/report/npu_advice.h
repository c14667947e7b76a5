// Findings on an NPU frame, the method of Rockchip's performance guide (RKNN2, 5.2.2-5.2.5)
// automated: each rule names a layer (or a CPU operator) and the NPU cycles at stake, the
// cycles the layer would save if the cause went away. docs/npu.md, "Advice", lists the
// rules and their thresholds.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "models/npu/npu.h"
#include "platform/report/npu_report.h"

namespace socsim {

struct NpuFinding {
  std::string rule;   ///< low_mac_usage, cpu_operator, channel_alignment, small_output,
                      ///< large_weights, bandwidth_bound, kernel_stride, pointwise_floor,
                      ///< missed_fusion
  std::string layer;  ///< FullName of the layer or CPU operator
  uint64_t cycles_at_stake = 0;  ///< NPU cycles
  std::string text;
};

/// The findings of one frame's layers and CPU operators, largest stake first. `ddr`: the DDR
/// regions, to tell DDR-bound from on-chip-DMA-bound layers (npu_bound); without them every
/// DMA-bound layer counts as DDR-bound. Only the largest low_mac_usage finding is called
/// "the first layer to optimise".
std::vector<NpuFinding> npu_findings(const NpuConfig& config,
                                     const std::vector<NpuLayerRecord>& frame,
                                     const std::vector<CpuOperatorRecord>& cpu_ops,
                                     double cpu_mhz,
                                     const std::vector<NpuDdrRegion>* ddr = nullptr);

void print_npu_findings(std::ostream& out, const std::vector<NpuFinding>& findings);
nlohmann::json npu_findings_json(const std::vector<NpuFinding>& findings);

}  // namespace socsim
