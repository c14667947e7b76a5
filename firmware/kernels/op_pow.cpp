// Pow with a constant exponent: aten::pow.Tensor_Scalar_out, x ^ exponent in float32;
// quantized_decomposed::pow.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error pow_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::Pow>(k));  // before the arguments are read
  const ops::Pow::Args a(k.args);
  const float exponent = a.exponent();
  return unary_f32<ops::Pow>(k, [exponent](float x) { return powf(x, exponent); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Pow, kFloat32, pow_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedPow, kInt8, lookup_kernel_i8<ops::QuantizedPow>);

}  // namespace socsim::kernels
