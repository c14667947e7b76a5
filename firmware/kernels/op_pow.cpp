// Pow with a constant exponent: aten::pow.Tensor_Scalar_out, x ^ exponent in float32;
// quantized_decomposed::pow.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error pow_f32(const Tensor& x, Tensor& out, ops::Pow::Args args, MemoryAllocator*) {
  const float exponent = args.exponent();
  return unary_f32(x, out, [exponent](float x) { return powf(x, exponent); });
}

Error quantized_pow_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Pow, pow_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedPow, quantized_pow_i8, kInt8);

}  // namespace socsim::kernels
