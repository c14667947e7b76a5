// HardSigmoid: aten::hardsigmoid.out, clamp(alpha x + beta, 0, 1) in float32 (ONNX's
// alpha and beta; torch's hardsigmoid is alpha 1/6, beta 1/2);
// quantized_decomposed::hardsigmoid.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error hardsigmoid_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::Hardsigmoid>(k));  // before the arguments are read
  const ops::Hardsigmoid::Args a(k.args);
  const float alpha = a.alpha();
  const float beta = a.beta();
  return unary_f32<ops::Hardsigmoid>(
      k, [alpha, beta](float x) { return fminf(fmaxf(alpha * x + beta, 0.0f), 1.0f); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Hardsigmoid, kFloat32, hardsigmoid_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedHardsigmoid, kInt8,
                       lookup_kernel_i8<ops::QuantizedHardsigmoid>);

}  // namespace socsim::kernels
