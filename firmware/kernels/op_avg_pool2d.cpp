// 2-D average pooling (NCHW) with PyTorch's count_include_pad choice of divisor:
// aten::avg_pool2d.out (float32) and quantized_decomposed::avg_pool2d.out (int8).
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

Error avg_pool2d_f32(const Tensor& in, Tensor& out, ops::AvgPool2d::Args a, MemoryAllocator*) {
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(in, out, a, &g));
  const bool include_pad = a.count_include_pad() != 0;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  for (int32_t p = 0; p < g.planes; ++p) {
    const float* xp = x + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        const int32_t count = w.count(include_pad);
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

Error avg_pool2d_i8(const Tensor& in, Tensor& out, ops::QuantizedAvgPool2d::Args a,
                    MemoryAllocator*) {
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(in, out, a, &g));
  const AverageScale scale{a.zp_in(), a.zp_out(), a.m(), a.n()};
  if (!scale.valid()) return Error::kBadOperatorArgs;
  if (int64_t{g.in_h} * g.in_w > kMaxPoolArea) return Error::kShapeMismatch;
  const bool ok = avg_pool_i8(g, a.count_include_pad() != 0, scale, in.data_as<int8_t>(),
                              out.data_as<int8_t>());
  return ok ? Error::kOk : Error::kShapeMismatch;
}

}  // namespace

SOCSIM_KERNEL(ops::AvgPool2d, avg_pool2d_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedAvgPool2d, avg_pool2d_i8, kInt8);

}  // namespace socsim::kernels
