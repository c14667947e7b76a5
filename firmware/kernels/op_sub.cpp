// Elementwise sub with broadcasting: float32, and int8 (wrapping or quantised).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error sub_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kSub>(k);
}
Error sub_i8(const KernelArgs& k) {
  return binary_i8<BinaryKind::kSub>(k);
}

}  // namespace

SOCSIM_REGISTER_KERNEL("sub", kFloat32, sub_f32);
SOCSIM_REGISTER_KERNEL("sub", kInt8, sub_i8);

}  // namespace socsim::kernels
