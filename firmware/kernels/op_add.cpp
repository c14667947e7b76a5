// Elementwise add with broadcasting: float32, and int8 (wrapping or quantised).
#include "firmware/kernels/elementwise.h"

namespace socsim::kernels {
namespace {

Error add_f32(const KernelArgs& k) {
  return binary_f32<BinaryKind::kAdd>(k);
}
Error add_i8(const KernelArgs& k) {
  return binary_i8<BinaryKind::kAdd>(k);
}

}  // namespace

SOCSIM_REGISTER_KERNEL("add", kFloat32, add_f32);
SOCSIM_REGISTER_KERNEL("add", kInt8, add_i8);

}  // namespace socsim::kernels
