// ReLU: float32 max(x, 0); int8 max(q, zero_point) (input and output share quantisation).
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error relu_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 0));
  const Tensor& in = *k.inputs[0];
  Tensor& out = *k.outputs[0];
  if (!same_dtype(out, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return Error::kOk;
}

// args: [zero_point]
Error relu_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 1));
  const Tensor& in = *k.inputs[0];
  Tensor& out = *k.outputs[0];
  if (!same_dtype(out, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const int32_t zp = k.args[0];
  if (!valid_zero_point(zp)) return Error::kBadOperatorArgs;
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = x[i] > zp ? x[i] : static_cast<int8_t>(zp);
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("relu", kFloat32, relu_f32);
SOCSIM_REGISTER_KERNEL("relu", kInt8, relu_i8);

}  // namespace socsim::kernels
