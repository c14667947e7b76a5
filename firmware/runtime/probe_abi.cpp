// The layout socsim's probes read at operator and delegate calls to count the elements a call
// processes, without running anything on the core (models/probe/runtime_abi.h holds the
// simulator's copy). A change here must change that header too: the build stops until both
// agree.
#include <stddef.h>

#include "firmware/runtime/backend_registry.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim::runtime {

#if UINTPTR_MAX == 0xFFFFFFFFu  // the RV32 target (the host build of the runtime is 64-bit)
static_assert(offsetof(KernelArgs, outputs) == 8, "runtime_abi::kKernelArgsOutputs");
static_assert(offsetof(Tensor, rank) == 4, "runtime_abi::kTensorRank");
static_assert(offsetof(Tensor, sizes) == 8, "runtime_abi::kTensorSizes");
static_assert(sizeof(Tensor::sizes[0]) == 4 && sizeof(Tensor::rank) == 4, "4-byte fields");
#endif
static_assert(kMaxRank == 6, "runtime_abi::kMaxRank");
// Method::execute calls backends as execute(context, handle, args, input_count, ...): the
// output tensor the probes read is args[input_count] (a2, a3).
static_assert(sizeof(Backend::execute) == sizeof(void*), "a plain function pointer");

}  // namespace socsim::runtime
