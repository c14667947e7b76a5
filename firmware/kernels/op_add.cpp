// Elementwise add with broadcasting: aten::add.out (float32; int8 wrapping modulo 256) and
// quantized_decomposed::add.out (int8).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error add_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kAdd>(k);
}
Error add_i8(const KernelArgs& k) {
  return binary_wrap_i8<BinaryKind::kAdd>(k);
}
Error quantized_add_i8(const KernelArgs& k) {
  return quantized_sum_i8<ops::QuantizedAdd, BinaryKind::kAdd>(k);
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Add, kFloat32, add_f32);
SOCSIM_REGISTER_KERNEL(ops::Add, kInt8, add_i8);
SOCSIM_REGISTER_KERNEL(ops::QuantizedAdd, kInt8, quantized_add_i8);

}  // namespace socsim::kernels
