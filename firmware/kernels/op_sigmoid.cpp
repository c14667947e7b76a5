// Sigmoid: aten::sigmoid.out, 1 / (1 + exp(-x)) in float32;
// quantized_decomposed::sigmoid.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error sigmoid_f32(const KernelArgs& k) {
  return unary_f32<ops::Sigmoid>(k, [](float x) { return 1.0f / (1.0f + expf(-x)); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Sigmoid, kFloat32, sigmoid_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedSigmoid, kInt8, lookup_kernel_i8<ops::QuantizedSigmoid>);

}  // namespace socsim::kernels
