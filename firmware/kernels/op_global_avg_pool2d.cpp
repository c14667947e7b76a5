// Global average pooling, NCHW -> NC11, the mean of each H x W plane:
// aten::adaptive_avg_pool2d.out (float32) and quantized_decomposed::adaptive_avg_pool2d.out
// (int8).
#include "firmware/int8/pool_loops.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error plane_shape(const Tensor& x, const Tensor& y, int32_t* planes, int32_t* area) {
  if (!is_nchw_pair(x, y)) return Error::kShapeMismatch;
  const NchwSizes xs = nchw_sizes(x);
  const NchwSizes ys = nchw_sizes(y);
  if (xs.c != ys.c || ys.h != 1 || ys.w != 1) return Error::kShapeMismatch;
  *planes = xs.n * xs.c;
  *area = xs.h * xs.w;
  return *area > 0 ? Error::kOk : Error::kShapeMismatch;
}

Error global_avg_pool2d_f32(const Tensor& in, Tensor& out, MemoryAllocator*) {
  int32_t planes, area;
  SOCSIM_RT_TRY(plane_shape(in, out, &planes, &area));
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  for (int32_t p = 0; p < planes; ++p) {
    float sum = 0.0f;
    for (int32_t i = 0; i < area; ++i) sum += x[p * area + i];
    y[p] = sum / static_cast<float>(area);
  }
  return Error::kOk;
}

Error global_avg_pool2d_i8(const Tensor& in, Tensor& out, ops::QuantizedAdaptiveAvgPool2d::Args a,
                           MemoryAllocator*) {
  int32_t planes, area;
  SOCSIM_RT_TRY(plane_shape(in, out, &planes, &area));
  const AverageScale scale{a.zp_in(), a.zp_out(), a.m(), a.n()};
  if (!scale.valid()) return Error::kBadOperatorArgs;
  if (area > kMaxPoolArea) return Error::kShapeMismatch;
  global_avg_pool_i8(planes, area, scale, in.data_as<int8_t>(), out.data_as<int8_t>());
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::AdaptiveAvgPool2d, global_avg_pool2d_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedAdaptiveAvgPool2d, global_avg_pool2d_i8, kInt8);

}  // namespace socsim::kernels
