// Elementwise mul with broadcasting: aten::mul.out (float32; int8 wrapping modulo 256) and
// quantized_decomposed::mul.out (int8).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error mul_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kMul>(k);
}
Error mul_i8(const KernelArgs& k) {
  return binary_wrap_i8<BinaryKind::kMul>(k);
}
Error quantized_mul_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::QuantizedMul>(k));
  const QuantizedProduct product = QuantizedProduct::of(ops::QuantizedMul::Args(k.args));
  if (!product.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8<ops::QuantizedMul>(k, product);
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Mul, kFloat32, mul_f32);
SOCSIM_REGISTER_KERNEL(ops::Mul, kInt8, mul_i8);
SOCSIM_REGISTER_KERNEL(ops::QuantizedMul, kInt8, quantized_mul_i8);

}  // namespace socsim::kernels
