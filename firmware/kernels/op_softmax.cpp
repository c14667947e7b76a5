// Softmax over the last axis: aten::_softmax.out (float32) and quantized_decomposed::softmax.out
// (int8).
//
// int8 uses a table made by the compiler: table[d] = round(2^16 * exp(-scale_in * d)) for
// d = max - q in [0, 255]; y = clamp(div_round(256 * table[d], sum of table[d]) - 128).
// The output scale is 1/256 and its zero point -128, so no floating point runs on the core.
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error rows_of(const Tensor& x, const Tensor& y, uint32_t* rows, uint32_t* cols) {
  if (!x.same_shape(y) || x.rank < 1 || x.sizes[x.rank - 1] < 1) return Error::kShapeMismatch;
  *cols = static_cast<uint32_t>(x.sizes[x.rank - 1]);
  *rows = x.numel() / *cols;
  return Error::kOk;
}

Error softmax_f32(const KernelArgs& k) {
  using Op = ops::Softmax;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  if (!same_dtype(*k.outputs[Op::kOut], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  uint32_t rows, cols;
  SOCSIM_RT_TRY(rows_of(*k.inputs[Op::kX], *k.outputs[Op::kOut], &rows, &cols));
  const float* x = k.inputs[Op::kX]->data_as<float>();
  float* y = k.outputs[Op::kOut]->data_as<float>();
  for (uint32_t r = 0; r < rows; ++r) {
    const float* xr = x + r * cols;
    float* yr = y + r * cols;
    float max = xr[0];
    for (uint32_t i = 1; i < cols; ++i) max = xr[i] > max ? xr[i] : max;
    float sum = 0.0f;
    for (uint32_t i = 0; i < cols; ++i) {
      yr[i] = expf(xr[i] - max);
      sum += yr[i];
    }
    for (uint32_t i = 0; i < cols; ++i) yr[i] /= sum;
  }
  return Error::kOk;
}

Error softmax_i8(const KernelArgs& k) {
  using Op = ops::QuantizedSoftmax;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& table_t = *k.inputs[Op::kTable];
  if (!same_dtype(table_t, ScalarType::kInt32) ||
      !same_dtype(*k.outputs[Op::kOut], ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  if (table_t.rank != 1 || table_t.sizes[0] != 256) return Error::kShapeMismatch;
  uint32_t rows, cols;
  SOCSIM_RT_TRY(rows_of(*k.inputs[Op::kX], *k.outputs[Op::kOut], &rows, &cols));
  if (cols > 32768) return Error::kShapeMismatch;
  const int32_t* table = table_t.data_as<int32_t>();
  for (uint32_t i = 0; i < 256; ++i) {
    if (table[i] < 0 || table[i] > 65536) return Error::kBadOperatorArgs;
  }
  const int8_t* x = k.inputs[Op::kX]->data_as<int8_t>();
  int8_t* y = k.outputs[Op::kOut]->data_as<int8_t>();
  for (uint32_t r = 0; r < rows; ++r) {
    const int8_t* xr = x + r * cols;
    int8_t* yr = y + r * cols;
    int32_t max = xr[0];
    for (uint32_t i = 1; i < cols; ++i) max = xr[i] > max ? xr[i] : max;
    int64_t sum = 0;
    for (uint32_t i = 0; i < cols; ++i) sum += table[max - xr[i]];
    if (sum == 0) return Error::kBadOperatorArgs;
    for (uint32_t i = 0; i < cols; ++i) {
      const int64_t v = div_round(int64_t{table[max - xr[i]]} * 256, sum) - 128;
      yr[i] = saturate_i8(static_cast<int32_t>(v));
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Softmax, kFloat32, softmax_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedSoftmax, kInt8, softmax_i8);

}  // namespace socsim::kernels
