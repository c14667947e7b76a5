// Elementwise mul with broadcasting: aten::mul.out (float32; int8 wrapping modulo 256) and
// quantized_decomposed::mul.out (int8).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error mul_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_f32<BinaryKind::kMul>(a, b, out);
}
Error mul_i8(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_wrap_i8<BinaryKind::kMul>(a, b, out);
}
Error quantized_mul_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::QuantizedMul::Args args,
                       MemoryAllocator*) {
  const QuantizedProduct product = QuantizedProduct::of(args);
  if (!product.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8(a, b, out, product);
}

}  // namespace

SOCSIM_KERNEL(ops::Mul, mul_f32, kFloat32);
SOCSIM_KERNEL(ops::Mul, mul_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedMul, quantized_mul_i8, kInt8);

}  // namespace socsim::kernels
