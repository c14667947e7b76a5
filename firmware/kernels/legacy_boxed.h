// Legacy, to be removed once every kernel is typed: the checks a boxed kernel
// (`Error fn(const KernelArgs&)`, registered with SOCSIM_REGISTER_KERNEL) makes itself. Typed
// kernels (SOCSIM_KERNEL, typed_kernel.h) get them from the generated wrapper instead; no
// kernel of this directory uses these any more.
#pragma once

#include <stdint.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim::kernels {

using runtime::KernelArgs;

inline runtime::Error check_counts(const KernelArgs& a, uint32_t inputs, uint32_t outputs,
                                   uint32_t args) {
  if (a.input_count != inputs || a.output_count != outputs) {
    return runtime::Error::kBadOperatorArgs;
  }
  if (a.arg_count != args) return runtime::Error::kBadOperatorArgs;
  return runtime::Error::kOk;
}

/// The operand and argument counts of operator Op (its schema entry).
template <typename Op>
inline runtime::Error check_counts(const KernelArgs& a) {
  return check_counts(a, Op::kInputs, Op::kOutputs, Op::kArgs);
}

/// The operand counts of operator Op, whose argument list is its scalars (Op::kScalarArgs)
/// and then `per_axis` words per axis of its first input.
template <typename Op>
inline runtime::Error check_counts_per_axis(const KernelArgs& a, uint32_t per_axis = 1) {
  if (a.input_count != Op::kInputs || a.output_count != Op::kOutputs) {
    return runtime::Error::kBadOperatorArgs;
  }
  const uint32_t words = Op::kScalarArgs + per_axis * a.inputs[0]->rank;
  return a.arg_count == words ? runtime::Error::kOk : runtime::Error::kBadOperatorArgs;
}

inline bool same_dtype(const runtime::Tensor& a, runtime::ScalarType type) {
  return a.dtype == type;
}

}  // namespace socsim::kernels
