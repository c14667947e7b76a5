// GELU: aten::gelu.out, x (1 + erf(x / sqrt 2)) / 2 in float32;
// quantized_decomposed::gelu.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error gelu_f32(const KernelArgs& k) {
  return unary_f32<ops::Gelu>(
      k, [](float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Gelu, kFloat32, gelu_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedGelu, kInt8, lookup_kernel_i8<ops::QuantizedGelu>);

}  // namespace socsim::kernels
