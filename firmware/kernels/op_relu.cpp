// ReLU: aten::relu.out, max(x, 0) on float32 and int8; quantized_decomposed::relu.out,
// max(q, zero_point) (input and output share quantisation).
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error relu_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::Relu>(k));
  const Tensor& in = *k.inputs[ops::Relu::kX];
  Tensor& out = *k.outputs[ops::Relu::kOut];
  if (!same_dtype(out, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return Error::kOk;
}

Error relu_to(const Tensor& in, Tensor& out, int32_t zp) {
  if (!same_dtype(out, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  if (!valid_zero_point(zp)) return Error::kBadOperatorArgs;
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = x[i] > zp ? x[i] : static_cast<int8_t>(zp);
  return Error::kOk;
}

Error relu_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::Relu>(k));
  return relu_to(*k.inputs[ops::Relu::kX], *k.outputs[ops::Relu::kOut], 0);
}

Error quantized_relu_i8(const KernelArgs& k) {
  using Op = ops::QuantizedRelu;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  return relu_to(*k.inputs[Op::kX], *k.outputs[Op::kOut], Op::Args(k.args).zero_point());
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Relu, kFloat32, relu_f32);
SOCSIM_REGISTER_KERNEL(ops::Relu, kInt8, relu_i8);
SOCSIM_REGISTER_KERNEL(ops::QuantizedRelu, kInt8, quantized_relu_i8);

}  // namespace socsim::kernels
