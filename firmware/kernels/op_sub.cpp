// Elementwise sub with broadcasting: aten::sub.out (float32; int8 wrapping modulo 256) and
// quantized_decomposed::sub.out (int8).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error sub_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_f32<BinaryKind::kSub>(a, b, out);
}
Error sub_i8(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_wrap_i8<BinaryKind::kSub>(a, b, out);
}
Error quantized_sub_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::QuantizedSub::Args args,
                      MemoryAllocator*) {
  return quantized_sum_i8<BinaryKind::kSub>(a, b, out, args);
}

}  // namespace

SOCSIM_KERNEL(ops::Sub, sub_f32, kFloat32);
SOCSIM_KERNEL(ops::Sub, sub_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedSub, quantized_sub_i8, kInt8);

}  // namespace socsim::kernels
