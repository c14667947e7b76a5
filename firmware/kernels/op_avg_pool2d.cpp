// 2-D average pooling (NCHW) with PyTorch's count_include_pad choice of divisor.
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

// args: 9 geometry values, count_include_pad.
Error avg_pool2d_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 10));
  if (!same_dtype(*k.outputs[0], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  PoolGeometry g;
  SOCSIM_RT_TRY(g.init(*k.inputs[0], *k.outputs[0], k.args));
  const bool include_pad = k.args[9] != 0;
  const float* x = k.inputs[0]->data_as<float>();
  float* y = k.outputs[0]->data_as<float>();
  for (int32_t p = 0; p < g.planes; ++p) {
    const float* xp = x + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        const int32_t count = include_pad ? w.padded_count : (w.y1 - w.y0) * (w.x1 - w.x0);
        if (count <= 0) return Error::kShapeMismatch;
        float sum = 0.0f;
        for (int32_t iy = w.y0; iy < w.y1; ++iy) {
          for (int32_t ix = w.x0; ix < w.x1; ++ix) sum += xp[iy * g.in_w + ix];
        }
        y[(p * g.out_h + oy) * g.out_w + ox] = sum / static_cast<float>(count);
      }
    }
  }
  return Error::kOk;
}

// args: 9 geometry values, count_include_pad, zp_in, zp_out, m, n.
// y = clamp(zp_out + div_round(sum(q - zp_in) * m, count * 2^n)).
Error avg_pool2d_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 14));
  if (!same_dtype(*k.outputs[0], ScalarType::kInt8)) return Error::kDtypeMismatch;
  PoolGeometry g;
  SOCSIM_RT_TRY(g.init(*k.inputs[0], *k.outputs[0], k.args));
  const bool include_pad = k.args[9] != 0;
  const int32_t zp_in = k.args[10];
  const int32_t zp_out = k.args[11];
  const int32_t m = k.args[12];
  const int32_t n = k.args[13];
  if (m < 0 || n < 0 || n > 30 || !valid_zero_point(zp_in) || !valid_zero_point(zp_out)) {
    return Error::kBadOperatorArgs;
  }
  if (int64_t{g.in_h} * g.in_w > kMaxPoolArea) return Error::kShapeMismatch;
  const int8_t* x = k.inputs[0]->data_as<int8_t>();
  int8_t* y = k.outputs[0]->data_as<int8_t>();
  for (int32_t p = 0; p < g.planes; ++p) {
    const int8_t* xp = x + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        const int32_t count = include_pad ? w.padded_count : (w.y1 - w.y0) * (w.x1 - w.x0);
        if (count <= 0) return Error::kShapeMismatch;
        int32_t sum = 0;
        for (int32_t iy = w.y0; iy < w.y1; ++iy) {
          for (int32_t ix = w.x0; ix < w.x1; ++ix) sum += xp[iy * g.in_w + ix] - zp_in;
        }
        const int64_t v = div_round(static_cast<int64_t>(sum) * m, int64_t{count} << n);
        y[(p * g.out_h + oy) * g.out_w + ox] = saturate_to_i8(v + zp_out);
      }
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("avg_pool2d", kFloat32, avg_pool2d_f32);
SOCSIM_REGISTER_KERNEL("avg_pool2d", kInt8, avg_pool2d_i8);

}  // namespace socsim::kernels
