// Sqrt: aten::sqrt.out in float32 (NaN below 0);
// quantized_decomposed::sqrt.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error sqrt_f32(const KernelArgs& k) {
  return unary_f32<ops::Sqrt>(k, [](float x) { return sqrtf(x); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Sqrt, kFloat32, sqrt_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedSqrt, kInt8, lookup_kernel_i8<ops::QuantizedSqrt>);

}  // namespace socsim::kernels
