// Exp: aten::exp.out in float32;
// quantized_decomposed::exp.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error exp_f32(const KernelArgs& k) {
  return unary_f32<ops::Exp>(k, [](float x) { return expf(x); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Exp, kFloat32, exp_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedExp, kInt8, lookup_kernel_i8<ops::QuantizedExp>);

}  // namespace socsim::kernels
