// GELU: aten::gelu.out, x (1 + erf(x / sqrt 2)) / 2 in float32;
// quantized_decomposed::gelu.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error gelu_f32(const Tensor& x, Tensor& out, MemoryAllocator*) {
  return unary_f32(
      x, out, [](float x) { return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); });
}

Error quantized_gelu_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Gelu, gelu_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedGelu, quantized_gelu_i8, kInt8);

}  // namespace socsim::kernels
