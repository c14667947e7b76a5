// Exp: aten::exp.out in float32;
// quantized_decomposed::exp.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error exp_f32(const Tensor& x, Tensor& out, MemoryAllocator*) {
  return unary_f32(x, out, [](float x) { return expf(x); });
}

Error quantized_exp_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Exp, exp_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedExp, quantized_exp_i8, kInt8);

}  // namespace socsim::kernels
