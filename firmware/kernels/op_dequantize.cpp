// Dequantize int8 -> float32: x = float(q - zp) * scale. args = [scale bits, zp].
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error dequantize(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 2));
  const Tensor& x = *k.inputs[0];
  Tensor& y = *k.outputs[0];
  if (!same_dtype(y, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const float scale = arg_float(k.args[0]);
  const int32_t zp = k.args[1];
  if (!valid_zero_point(zp)) return Error::kBadOperatorArgs;
  const int8_t* px = x.data_as<int8_t>();
  float* py = y.data_as<float>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) py[i] = static_cast<float>(px[i] - zp) * scale;
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("dequantize", kInt8, dequantize);

}  // namespace socsim::kernels
