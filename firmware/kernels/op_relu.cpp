// ReLU: aten::relu.out, max(x, 0) on float32 and int8; quantized_decomposed::relu.out,
// max(q, zero_point) (input and output share quantisation).
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error relu_f32(const Tensor& in, Tensor& out, MemoryAllocator*) {
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  return Error::kOk;
}

Error relu_to(const Tensor& in, Tensor& out, int32_t zp) {
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  if (!valid_zero_point(zp)) return Error::kBadOperatorArgs;
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = x[i] > zp ? x[i] : static_cast<int8_t>(zp);
  return Error::kOk;
}

Error relu_i8(const Tensor& in, Tensor& out, MemoryAllocator*) {
  return relu_to(in, out, 0);
}

Error quantized_relu_i8(const Tensor& in, Tensor& out, ops::QuantizedRelu::Args args,
                        MemoryAllocator*) {
  return relu_to(in, out, args.zero_point());
}

}  // namespace

SOCSIM_KERNEL(ops::Relu, relu_f32, kFloat32);
SOCSIM_KERNEL(ops::Relu, relu_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedRelu, quantized_relu_i8, kInt8);

}  // namespace socsim::kernels
