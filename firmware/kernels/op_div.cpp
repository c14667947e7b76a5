// Elementwise division with broadcasting: aten::div.out (float32, true division) and
// quantized_decomposed::div.out (int8, the quotient rule of binary_ops.h).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error div_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_f32<BinaryKind::kDiv>(a, b, out);
}
Error quantized_div_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::QuantizedDiv::Args args,
                       MemoryAllocator*) {
  const QuantizedQuotient quotient = QuantizedQuotient::of(args);
  if (!quotient.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8(a, b, out, quotient);
}

}  // namespace

SOCSIM_KERNEL(ops::Div, div_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedDiv, quantized_div_i8, kInt8);

}  // namespace socsim::kernels
