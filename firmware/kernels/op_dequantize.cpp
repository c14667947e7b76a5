// Dequantize int8 -> float32: x = float(q - zp) * scale.
// quantized_decomposed::dequantize_per_tensor.out.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error dequantize(const KernelArgs& k) {
  using Op = ops::DequantizePerTensor;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  if (!same_dtype(y, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const Op::Args a(k.args);
  const float scale = a.scale();
  const int32_t zp = a.zero_point();
  if (!valid_zero_point(zp)) return Error::kBadOperatorArgs;
  const int8_t* px = x.data_as<int8_t>();
  float* py = y.data_as<float>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) py[i] = static_cast<float>(px[i] - zp) * scale;
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::DequantizePerTensor, kInt8, dequantize);

}  // namespace socsim::kernels
