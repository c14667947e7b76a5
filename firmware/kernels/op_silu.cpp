// SiLU (Swish): aten::silu.out, x sigmoid(x) in float32;
// quantized_decomposed::silu.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error silu_f32(const KernelArgs& k) {
  return unary_f32<ops::Silu>(k, [](float x) { return x * (1.0f / (1.0f + expf(-x))); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Silu, kFloat32, silu_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedSilu, kInt8, lookup_kernel_i8<ops::QuantizedSilu>);

}  // namespace socsim::kernels
