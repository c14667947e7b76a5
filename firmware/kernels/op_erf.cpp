// Erf: aten::erf.out in float32;
// quantized_decomposed::erf.out, a lookup in the compiler's 256-entry table (lookup.h).
#include <math.h>

#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

Error erf_f32(const KernelArgs& k) {
  return unary_f32<ops::Erf>(k, [](float x) { return erff(x); });
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Erf, kFloat32, erf_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedErf, kInt8, lookup_kernel_i8<ops::QuantizedErf>);

}  // namespace socsim::kernels
