// Requantize int8 -> int8 to another scale/zero point:
// y = clamp(requantize(q - zp_in, m, n) + zp_out). quantized_decomposed::requantize.out, with
// the loop the NPU layer shares (arithmetic.h).
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error requantize_kernel_i8(const Tensor& x, Tensor& y, ops::Requantize::Args a, MemoryAllocator*) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const int32_t zp_in = a.zp_in();
  const int32_t zp_out = a.zp_out();
  const int32_t m = a.m();
  const int32_t n = a.n();
  if (!valid_multiplier(m, n) || !valid_zero_point(zp_in) || !valid_zero_point(zp_out)) {
    return Error::kBadOperatorArgs;
  }
  requantize_i8(x.data_as<int8_t>(), y.numel(), zp_in, zp_out, m, n, y.data_as<int8_t>());
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::Requantize, requantize_kernel_i8, kInt8);

}  // namespace socsim::kernels
