// Sqrt: aten::sqrt.out in float32 (NaN below 0);
// quantized_decomposed::sqrt.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error sqrt_f32(const Tensor& x, Tensor& out, MemoryAllocator*) {
  return unary_f32(x, out, [](float x) { return sqrtf(x); });
}

Error quantized_sqrt_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Sqrt, sqrt_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedSqrt, quantized_sqrt_i8, kInt8);

}  // namespace socsim::kernels
