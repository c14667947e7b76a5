// Quantize float32 -> int8: q = clamp(rint(x / scale) + zp, -128, 127), rint rounding half
// to even (the default IEEE mode); NaN gives -128. args = [scale bits, zp].
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error quantize(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 2));
  const Tensor& x = *k.inputs[0];
  Tensor& y = *k.outputs[0];
  if (!same_dtype(y, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const float scale = arg_float(k.args[0]);
  const float zp = static_cast<float>(k.args[1]);
  if (!(scale > 0.0f)) return Error::kBadOperatorArgs;
  const float* px = x.data_as<float>();
  int8_t* py = y.data_as<int8_t>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) {
    float v = rintf(px[i] / scale) + zp;
    if (!(v >= -128.0f)) v = -128.0f;  // also NaN
    if (v > 127.0f) v = 127.0f;
    py[i] = static_cast<int8_t>(v);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("quantize", kFloat32, quantize);

}  // namespace socsim::kernels
