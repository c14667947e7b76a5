// Quantize float32 -> int8: q = clamp(rint(x / scale) + zp, -128, 127), rint rounding half
// to even (the default IEEE mode); NaN gives -128. quantized_decomposed::quantize_per_tensor.out.
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error quantize(const KernelArgs& k) {
  using Op = ops::QuantizePerTensor;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  if (!same_dtype(y, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const Op::Args a(k.args);
  const float scale = a.scale();
  const float zp = static_cast<float>(a.zero_point());
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

SOCSIM_REGISTER_KERNEL(ops::QuantizePerTensor, kFloat32, quantize);

}  // namespace socsim::kernels
