// The estimate mode (`socsim estimate`, docs/npu.md "Estimate mode"): a program's NPU layers
// timed analytically for a SoC, without the CPU, without functional compute and without the
// DDR model's banks and queues. The layers come from the program file's `npu` delegate blobs
// (in instruction order: one frame); each is planned by the same planner as the device
// (plan_layer) and scheduled by the same double-buffering rule (schedule_layer), with the
// DMA as a rate and a latency: min(dma.bytes_per_cycle, the DDR preset's peak) and the DDR's
// row-miss read latency per transfer. The records are the device's (NpuLayerRecord), so a
// simulated run's report and the estimate can be set side by side.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/abi/generated/npu_descriptor.h"
#include "models/ddr/ddr_config.h"
#include "models/npu/npu.h"
#include "models/npu/npu_config.h"

namespace socsim {

/// The NPU command lists of a program: one per npu delegate call, in instruction order.
struct NpuProgramLayers {
  std::vector<std::vector<npu::LayerDescriptor>> lists;
};

/// Reads the npu delegate blobs of a program file: a `.pte` (its DelegateCalls to `npu` or
/// `SocsimNpuBackend`, blobs of version 1 or 2, docs/executorch-npu.md) or a socsim program
/// (docs/program-format.md). Throws ConfigError naming the file and what is wrong (not a
/// program file, a table or blob out of bounds).
NpuProgramLayers read_npu_program_layers(const std::string& path);

/// The DDR as the estimate sees it: bandwidth and latency from its preset.
struct NpuEstimateDdr {
  double peak_bytes_per_ns = 0;  ///< 0: unlimited (ideal DDR)
  double latency_ns = 0;         ///< a read's row miss: tRCD + CL + one burst
};
NpuEstimateDdr npu_estimate_ddr(const DdrConfig& ddr);

/// Every layer of the program's lists, back to back from cycle 0, as the device would
/// record them (frame 0, run = the list's position). A layer the model rejects is an
/// error (ConfigError naming the list, layer and NPU error code).
std::vector<NpuLayerRecord> estimate_npu_layers(const NpuConfig& config,
                                                const NpuEstimateDdr& ddr,
                                                const NpuProgramLayers& program);

}  // namespace socsim
