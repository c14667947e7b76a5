// Sigmoid: aten::sigmoid.out, 1 / (1 + exp(-x)) in float32; quantized_decomposed::sigmoid.out,
// a lookup in the 256-entry table the compiler made from the input's quantisation (the
// output has scale 1/256 and zero point -128), so no floating point runs for int8.
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error sigmoid_f32(const KernelArgs& k) {
  using Op = ops::Sigmoid;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& in = *k.inputs[Op::kX];
  Tensor& out = *k.outputs[Op::kOut];
  if (!same_dtype(out, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = 1.0f / (1.0f + expf(-x[i]));
  return Error::kOk;
}

Error sigmoid_i8(const KernelArgs& k) {
  using Op = ops::QuantizedSigmoid;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& in = *k.inputs[Op::kX];
  const Tensor& table_t = *k.inputs[Op::kTable];
  Tensor& out = *k.outputs[Op::kOut];
  if (!same_dtype(table_t, ScalarType::kInt8) || !same_dtype(out, ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  if (table_t.rank != 1 || table_t.sizes[0] != 256 || !in.same_shape(out)) {
    return Error::kShapeMismatch;
  }
  const int8_t* table = table_t.data_as<int8_t>() + 128;  // indexed by x in [-128, 127]
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = table[x[i]];
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Sigmoid, kFloat32, sigmoid_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedSigmoid, kInt8, sigmoid_i8);

}  // namespace socsim::kernels
