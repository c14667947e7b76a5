// Softmax over one axis (argument dim): aten::_softmax.out (float32) and
// quantized_decomposed::softmax.out (int8). The tensor is seen as [outer, n, inner] around the
// axis; each of the outer * inner lines of n elements is normalised on its own.
//
// int8 uses a table made by the compiler: table[d] = round(2^16 * exp(-scale_in * d)) for
// d = max - q in [0, 255]; y = clamp(div_round(256 * table[d], sum of table[d]) - 128).
// The output scale is 1/256 and its zero point -128, so no floating point runs on the core.
#include <math.h>

#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/softmax_lines.h"

namespace socsim::kernels {
namespace {

Error softmax_f32(const Tensor& in, Tensor& out, ops::Softmax::Args args, MemoryAllocator*) {
  Lines lines;
  SOCSIM_RT_TRY(lines.init(in, out, args.dim()));
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = lines.n, step = lines.inner;
  lines.each([&](uint32_t at) {
    const float* xr = x + at;
    float* yr = y + at;
    float max = xr[0];
    for (uint32_t i = 1; i < n; ++i) max = xr[i * step] > max ? xr[i * step] : max;
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
      yr[i * step] = expf(xr[i * step] - max);
      sum += yr[i * step];
    }
    for (uint32_t i = 0; i < n; ++i) yr[i * step] /= sum;
  });
  return Error::kOk;
}

Error softmax_i8(const Tensor& in, const Tensor& table_t, Tensor& out,
                 ops::QuantizedSoftmax::Args args, MemoryAllocator*) {
  // 257 entries: TFLite's rule (firmware/int8/tflite_rounding.h), entry 256 unused (0)
  const bool tflite = table_t.rank == 1 && table_t.sizes[0] == 257;
  if (!tflite && (table_t.rank != 1 || table_t.sizes[0] != 256)) return Error::kShapeMismatch;
  Lines lines;
  SOCSIM_RT_TRY(lines.init(in, out, args.dim()));
  if (lines.n > 32768) return Error::kShapeMismatch;
  const int32_t* table = table_t.data_as<int32_t>();
  if (tflite) {
    if (table[0] < (1 << 12) || table[256] != 0) return Error::kBadOperatorArgs;
    for (uint32_t i = 1; i < 256; ++i) {
      if (table[i] < -1) return Error::kBadOperatorArgs;
    }
    const int8_t* x = in.data_as<int8_t>();
    int8_t* y = out.data_as<int8_t>();
    lines.each(
        [&](uint32_t at) { tflite_softmax_line(x + at, lines.n, lines.inner, table, y + at); });
    return Error::kOk;
  }
  for (uint32_t i = 0; i < 256; ++i) {
    if (table[i] < 0 || table[i] > 65536) return Error::kBadOperatorArgs;
  }
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = lines.n, step = lines.inner;
  Error status = Error::kOk;
  lines.each([&](uint32_t at) {
    const int8_t* xr = x + at;
    int8_t* yr = y + at;
    int32_t max = xr[0];
    for (uint32_t i = 1; i < n; ++i) max = xr[i * step] > max ? xr[i * step] : max;
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) sum += table[max - xr[i * step]];
    if (sum == 0) {
      status = Error::kBadOperatorArgs;
      return;
    }
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t v = div_round(int64_t{table[max - xr[i * step]]} * 256, sum) - 128;
      yr[i * step] = saturate_i8(static_cast<int32_t>(v));
    }
  });
  return status;
}

}  // namespace

SOCSIM_KERNEL(ops::Softmax, softmax_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedSoftmax, softmax_i8, kInt8);

}  // namespace socsim::kernels
