// HardSwish: aten::hardswish.out, x relu6(x + 3) / 6 in float32;
// quantized_decomposed::hardswish.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error hardswish_f32(const KernelArgs& k) {
  return unary_f32<ops::Hardswish>(
      k, [](float x) { return x * fminf(fmaxf(x + 3.0f, 0.0f), 6.0f) / 6.0f; });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Hardswish, kFloat32, hardswish_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedHardswish, kInt8, lookup_kernel_i8<ops::QuantizedHardswish>);

}  // namespace socsim::kernels
