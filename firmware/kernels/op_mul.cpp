// Elementwise mul with broadcasting: float32, and int8 (wrapping or quantised).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error mul_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kMul>(k);
}
Error mul_i8(const KernelArgs& k) {
  return binary_i8<BinaryKind::kMul>(k);
}

}  // namespace

SOCSIM_REGISTER_KERNEL("mul", kFloat32, mul_f32);
SOCSIM_REGISTER_KERNEL("mul", kInt8, mul_i8);

}  // namespace socsim::kernels
