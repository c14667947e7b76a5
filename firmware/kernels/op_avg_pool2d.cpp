// 2-D average pooling (NCHW) with PyTorch's count_include_pad choice of divisor:
// aten::avg_pool2d.out (float32) and quantized_decomposed::avg_pool2d.out (int8).
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

Error avg_pool2d_f32(const KernelArgs& k) {
  using Op = ops::AvgPool2d;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  if (!same_dtype(*k.outputs[Op::kOut], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  const Op::Args a(k.args);
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(*k.inputs[Op::kX], *k.outputs[Op::kOut], a, &g));
  const bool include_pad = a.count_include_pad() != 0;
  const float* x = k.inputs[Op::kX]->data_as<float>();
  float* y = k.outputs[Op::kOut]->data_as<float>();
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

Error avg_pool2d_i8(const KernelArgs& k) {
  using Op = ops::QuantizedAvgPool2d;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  if (!same_dtype(*k.outputs[Op::kOut], ScalarType::kInt8)) return Error::kDtypeMismatch;
  const Op::Args a(k.args);
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(*k.inputs[Op::kX], *k.outputs[Op::kOut], a, &g));
  const AverageScale scale{a.zp_in(), a.zp_out(), a.m(), a.n()};
  if (!scale.valid()) return Error::kBadOperatorArgs;
  if (int64_t{g.in_h} * g.in_w > kMaxPoolArea) return Error::kShapeMismatch;
  const bool ok =
      avg_pool_i8(g, a.count_include_pad() != 0, scale, k.inputs[Op::kX]->data_as<int8_t>(),
                  k.outputs[Op::kOut]->data_as<int8_t>());
  return ok ? Error::kOk : Error::kShapeMismatch;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::AvgPool2d, kFloat32, avg_pool2d_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedAvgPool2d, kInt8, avg_pool2d_i8);

}  // namespace socsim::kernels
