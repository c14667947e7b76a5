// HardSigmoid: aten::hardsigmoid.out, clamp(alpha x + beta, 0, 1) in float32 (ONNX's
// alpha and beta; torch's hardsigmoid is alpha 1/6, beta 1/2);
// quantized_decomposed::hardsigmoid.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error hardsigmoid_f32(const Tensor& x, Tensor& out, ops::Hardsigmoid::Args args, MemoryAllocator*) {
  const float alpha = args.alpha();
  const float beta = args.beta();
  return unary_f32(
      x, out, [alpha, beta](float x) { return fminf(fmaxf(alpha * x + beta, 0.0f), 1.0f); });
}

Error quantized_hardsigmoid_i8(const Tensor& x, const Tensor& table, Tensor& out,
                               MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

}  // namespace

SOCSIM_KERNEL(ops::Hardsigmoid, hardsigmoid_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedHardsigmoid, quantized_hardsigmoid_i8, kInt8);

}  // namespace socsim::kernels
