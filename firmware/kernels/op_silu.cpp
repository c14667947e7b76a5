// SiLU (Swish): aten::silu.out, x sigmoid(x) in float32;
// quantized_decomposed::silu.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error silu_f32(const Tensor& x, Tensor& out, MemoryAllocator*) {
  return unary_f32(x, out, [](float x) { return x * (1.0f / (1.0f + expf(-x))); });
}

Error quantized_silu_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Silu, silu_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedSilu, quantized_silu_i8, kInt8);

}  // namespace socsim::kernels
