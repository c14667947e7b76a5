// Elementwise add with broadcasting: aten::add.out (float32; int8 wrapping modulo 256) and
// quantized_decomposed::add.out (int8).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error add_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_f32<BinaryKind::kAdd>(a, b, out);
}
Error add_i8(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  return binary_wrap_i8<BinaryKind::kAdd>(a, b, out);
}
Error quantized_add_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::QuantizedAdd::Args args,
                      MemoryAllocator*) {
  return quantized_sum_i8<BinaryKind::kAdd>(a, b, out, args);
}

}  // namespace

SOCSIM_KERNEL(ops::Add, add_f32, kFloat32);
SOCSIM_KERNEL(ops::Add, add_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedAdd, quantized_add_i8, kInt8);

}  // namespace socsim::kernels
