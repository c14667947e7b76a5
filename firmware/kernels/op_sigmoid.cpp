// Sigmoid: aten::sigmoid.out, 1 / (1 + exp(-x)) in float32;
// quantized_decomposed::sigmoid.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error sigmoid_f32(const Tensor& x, Tensor& out, MemoryAllocator*) {
  return unary_f32(x, out, [](float x) { return 1.0f / (1.0f + expf(-x)); });
}

Error quantized_sigmoid_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Sigmoid, sigmoid_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedSigmoid, quantized_sigmoid_i8, kInt8);

}  // namespace socsim::kernels
