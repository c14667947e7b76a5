// Tanh: aten::tanh.out in float32;
// quantized_decomposed::tanh.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error tanh_f32(const KernelArgs& k) {
  return unary_f32<ops::Tanh>(k, [](float x) { return tanhf(x); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Tanh, kFloat32, tanh_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedTanh, kInt8, lookup_kernel_i8<ops::QuantizedTanh>);

}  // namespace socsim::kernels
