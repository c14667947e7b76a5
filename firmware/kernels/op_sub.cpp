// Elementwise sub with broadcasting: aten::sub.out (float32; int8 wrapping modulo 256) and
// quantized_decomposed::sub.out (int8).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error sub_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kSub>(k);
}
Error sub_i8(const KernelArgs& k) {
  return binary_wrap_i8<BinaryKind::kSub>(k);
}
Error quantized_sub_i8(const KernelArgs& k) {
  return quantized_sum_i8<ops::QuantizedSub, BinaryKind::kSub>(k);
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Sub, kFloat32, sub_f32);
SOCSIM_REGISTER_KERNEL(ops::Sub, kInt8, sub_i8);
SOCSIM_REGISTER_KERNEL(ops::QuantizedSub, kInt8, quantized_sub_i8);

}  // namespace socsim::kernels
