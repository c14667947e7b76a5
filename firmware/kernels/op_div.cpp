// Elementwise division with broadcasting: aten::div.out (float32, true division) and
// quantized_decomposed::div.out (int8, the quotient rule of binary_ops.h).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error div_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kDiv>(k);
}
Error quantized_div_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::QuantizedDiv>(k));
  const QuantizedQuotient quotient = QuantizedQuotient::of(ops::QuantizedDiv::Args(k.args));
  if (!quotient.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8<ops::QuantizedDiv>(k, quotient);
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Div, kFloat32, div_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedDiv, kInt8, quantized_div_i8);

}  // namespace socsim::kernels
