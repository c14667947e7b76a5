// Checks the runtime's structures against what socsim's probes read at operator and delegate
// calls to count the elements a call processes (firmware/abi/runtime_probe_abi.h): a layout
// change stops the build instead of giving wrong numbers.
#include <stddef.h>

#include "firmware/abi/runtime_probe_abi.h"
#include "firmware/runtime/backend_registry.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

#if UINTPTR_MAX == 0xFFFFFFFFu  // the RV32 target (the host build of the runtime is 64-bit)
static_assert(offsetof(KernelArgs, outputs) == runtime_abi::kKernelArgsOutputs, "KernelArgs");
static_assert(offsetof(Tensor, rank) == runtime_abi::kTensorRank, "Tensor::rank");
static_assert(offsetof(Tensor, sizes) == runtime_abi::kTensorSizes, "Tensor::sizes");
static_assert(sizeof(Tensor::sizes[0]) == 4 && sizeof(Tensor::rank) == 4, "4-byte fields");
#endif
static_assert(kMaxRank == runtime_abi::kMaxRank, "kMaxRank");
// Method::execute calls backends as execute(context, handle, args, input_count, ...): the
// output tensor the probes read is args[input_count] (a2, a3).
static_assert(sizeof(Backend::execute) == sizeof(void*), "a plain function pointer");

}  // namespace socsim::runtime
