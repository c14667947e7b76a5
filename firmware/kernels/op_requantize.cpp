// Requantize int8 -> int8 to another scale/zero point:
// y = clamp(requantize(q - zp_in, m, n) + zp_out). args = [zp_in, zp_out, m, n].
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error requantize_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 4));
  const Tensor& x = *k.inputs[0];
  Tensor& y = *k.outputs[0];
  if (!same_dtype(y, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const int32_t zp_in = k.args[0];
  const int32_t zp_out = k.args[1];
  const int32_t m = k.args[2];
  const int32_t n = k.args[3];
  if (!valid_multiplier(m, n) || !valid_zero_point(zp_in) || !valid_zero_point(zp_out)) {
    return Error::kBadOperatorArgs;
  }
  const int8_t* px = x.data_as<int8_t>();
  int8_t* py = y.data_as<int8_t>();
  const uint32_t count = y.numel();
  for (uint32_t i = 0; i < count; ++i) {
    py[i] = saturate_to_i8(requantize(px[i] - zp_in, m, n) + zp_out);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("requantize", kInt8, requantize_i8);

}  // namespace socsim::kernels
