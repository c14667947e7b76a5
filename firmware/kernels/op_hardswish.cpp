// HardSwish: aten::hardswish.out, x relu6(x + 3) / 6 in float32;
// quantized_decomposed::hardswish.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error hardswish_f32(const Tensor& x, Tensor& out, MemoryAllocator*) {
  return unary_f32(
      x, out, [](float x) { return x * fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f; });
}

Error quantized_hardswish_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Hardswish, hardswish_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedHardswish, quantized_hardswish_i8, kInt8);

}  // namespace socsim::kernels
