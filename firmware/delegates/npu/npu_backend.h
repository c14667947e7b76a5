// The `npu` delegate backend: runs NPU delegate segments (layer descriptors written by
// scripts/socsim_aot/npu_partition.py, docs/npu.md) on the SoC's NPU.
//
// init() checks the blob and copies its descriptors into method memory; execute() writes
// the delegate call's tensor addresses into the copy, programs the NPU's registers
// (firmware/abi/npu_registers.h), and waits for the end of the command list: with WFI on the
// NPU's interrupt line (default) or by polling the status register. A status error fails
// the call with kDelegateExecuteFailed; npu_backend_last_status() tells which error and
// layer. The NPU's register base and interrupt line come from the generated memory map
// (SOCSIM_NPU_BASE, SOCSIM_NPU_IRQ): firmware linked for a SoC without an NPU reports the
// backend unavailable.
#pragma once

#include <stdint.h>

namespace socsim::delegates {

constexpr const char* kNpuBackendId = "npu";
/// Its id in an ExecuTorch program (the backend class of scripts/socsim_executorch); both ids
/// take the blob of a socsim program (version 1) and the self-contained one (version 2).
constexpr const char* kNpuExecutorchBackendId = "SocsimNpuBackend";

/// The status of the last command list the backend ran.
struct NpuRunStatus {
  uint32_t status = 0;    ///< the raw status register
  uint32_t error = 0;     ///< npu::NpuError (0 = ok)
  uint32_t layer = 0;     ///< the layer that failed
  uint64_t cycles = 0;    ///< NPU cycles of the list
  const char* error_name = "ok";
};

/// Wait by polling the status register instead of WFI (default false).
void npu_backend_set_polling(bool polling);
const NpuRunStatus& npu_backend_last_status();

}  // namespace socsim::delegates
