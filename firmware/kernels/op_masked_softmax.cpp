// Softmax over one axis of the positions a constant mask keeps: aten::_masked_softmax.out
// (float32) and quantized_decomposed::masked_softmax.out (int8), the attention of a causal
// decoder (socsim_schema/masking.py). The mask is uint8 of x's shape, nonzero where a
// position is excluded; excluded positions come out 0 (int8: -128, the output's zero point),
// and so does a line excluded whole.
//
// int8 uses softmax's table over the kept positions: table[d] = round(2^16 exp(-s d)) for
// d = max - q, the maximum taken over the kept positions only.
#include <math.h>

#include "firmware/kernels/softmax_lines.h"

namespace socsim::kernels {
namespace {

/// The lines of x along dim; the mask (uint8, checked by the wrapper) must have x's shape.
Error masked_lines(const Tensor& x, const Tensor& mask, Tensor& out, int32_t dim, Lines* lines) {
  if (!mask.same_shape(x)) return Error::kShapeMismatch;
  return lines->init(x, out, dim);
}

Error masked_softmax_f32(const Tensor& in, const Tensor& mask_t, Tensor& out,
                         ops::MaskedSoftmax::Args args, MemoryAllocator*) {
  Lines lines;
  SOCSIM_RT_TRY(masked_lines(in, mask_t, out, args.dim(), &lines));
  const float* x = in.data_as<float>();
  const uint8_t* mask = mask_t.data_as<uint8_t>();
  float* y = out.data_as<float>();
  const uint32_t n = lines.n, step = lines.inner;
  lines.each([&](uint32_t at) {
    const float* xr = x + at;
    const uint8_t* mr = mask + at;
    float* yr = y + at;
    bool any = false;
    float max = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
      if (mr[i * step] != 0) continue;
      max = !any || xr[i * step] > max ? xr[i * step] : max;
      any = true;
    }
    float sum = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
      yr[i * step] = mr[i * step] != 0 ? 0.0f : expf(xr[i * step] - max);
      sum += yr[i * step];
    }
    if (!any) return;
    for (uint32_t i = 0; i < n; ++i) yr[i * step] /= sum;
  });
  return Error::kOk;
}

Error masked_softmax_i8(const Tensor& in, const Tensor& mask_t, const Tensor& table_t,
                        Tensor& out, ops::QuantizedMaskedSoftmax::Args args, MemoryAllocator*) {
  if (table_t.rank != 1 || table_t.sizes[0] != 256) return Error::kShapeMismatch;
  Lines lines;
  SOCSIM_RT_TRY(masked_lines(in, mask_t, out, args.dim(), &lines));
  if (lines.n > 32768) return Error::kShapeMismatch;
  const int32_t* table = table_t.data_as<int32_t>();
  for (uint32_t i = 0; i < 256; ++i) {
    if (table[i] < 0 || table[i] > 65536) return Error::kBadOperatorArgs;
  }
  const int8_t* x = in.data_as<int8_t>();
  const uint8_t* mask = mask_t.data_as<uint8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = lines.n, step = lines.inner;
  lines.each([&](uint32_t at) {
    const int8_t* xr = x + at;
    const uint8_t* mr = mask + at;
    int8_t* yr = y + at;
    int32_t max = -128;
    for (uint32_t i = 0; i < n; ++i) {
      if (mr[i * step] == 0 && xr[i * step] > max) max = xr[i * step];
    }
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; ++i) {
      if (mr[i * step] == 0) sum += table[max - xr[i * step]];
    }
    for (uint32_t i = 0; i < n; ++i) {
      int64_t v = -128;
      if (mr[i * step] == 0 && sum > 0) {
        v = div_round(int64_t{table[max - xr[i * step]]} * 256, sum) - 128;
      }
      yr[i * step] = saturate_i8(static_cast<int32_t>(v));
    }
  });
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::MaskedSoftmax, masked_softmax_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedMaskedSoftmax, masked_softmax_i8, kInt8);

}  // namespace socsim::kernels
