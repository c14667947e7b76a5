// Requantize int8 -> int8 to another scale/zero point:
// y = clamp(requantize(q - zp_in, m, n) + zp_out). quantized_decomposed::requantize.out, with
// the loop the NPU layer shares (arithmetic.h).
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error requantize_kernel_i8(const KernelArgs& k) {
  using Op = ops::Requantize;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  if (!same_dtype(y, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const Op::Args a(k.args);
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

SOCSIM_REGISTER_KERNEL(ops::Requantize, kInt8, requantize_kernel_i8);

}  // namespace socsim::kernels
