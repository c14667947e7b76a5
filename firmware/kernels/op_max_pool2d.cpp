// 2-D max pooling (NCHW), aten::max_pool2d.out. Padding never wins: the maximum is over input
// elements only. int8 input and output share quantisation, so no requantisation is needed.
// aten::max_pool2d_indices.out gives ExecuTorch's indices of the same windows: the flat
// position h W + w of each window's first maximum in its plane (a NaN wins), int64 written as
// little-endian bytes into a uint8 output with a trailing axis of 8.
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

template <typename T>
Error max_pool_kernel(const Tensor& x, Tensor& y, ops::MaxPool2d::Args args) {
  PoolGeometry g;
  SOCSIM_RT_TRY(pool_geometry(x, y, args, &g));
  const bool ok = max_pool(g, x.data_as<T>(), y.data_as<T>());
  return ok ? Error::kOk : Error::kShapeMismatch;
}

Error max_pool2d_f32(const Tensor& x, Tensor& y, ops::MaxPool2d::Args args, MemoryAllocator*) {
  return max_pool_kernel<float>(x, y, args);
}
Error max_pool2d_i8(const Tensor& x, Tensor& y, ops::MaxPool2d::Args args, MemoryAllocator*) {
  return max_pool_kernel<int8_t>(x, y, args);
}

Error max_pool2d_indices_f32(const Tensor& x, Tensor& out, ops::MaxPool2dIndices::Args args,
                             MemoryAllocator*) {
  if (x.rank != 4 || out.rank != 5 || out.sizes[4] != 8 || out.sizes[0] != x.sizes[0] ||
      out.sizes[1] != x.sizes[1]) {
    return Error::kShapeMismatch;
  }
  PoolGeometry g;
  switch (
      g.init(x.sizes[0] * x.sizes[1], x.sizes[2], x.sizes[3], out.sizes[2], out.sizes[3], args)) {
    case PoolCheck::kOk:
      break;
    case PoolCheck::kBadArgs:
      return Error::kBadOperatorArgs;
    case PoolCheck::kBadShape:
      return Error::kShapeMismatch;
  }
  const float* px = x.data_as<float>();
  uint8_t* po = out.data_as<uint8_t>();
  for (int32_t p = 0; p < g.planes; ++p) {
    const float* plane = px + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        if (w.y0 >= w.y1 || w.x0 >= w.x1) return Error::kShapeMismatch;
        int32_t best = w.y0 * g.in_w + w.x0;
        float best_value = plane[best];
        for (int32_t iy = w.y0; iy < w.y1; ++iy) {
          for (int32_t ix = w.x0; ix < w.x1; ++ix) {
            const float v = plane[iy * g.in_w + ix];
            if (v > best_value || (v != v && best_value == best_value)) {
              best = iy * g.in_w + ix;
              best_value = v;
            }
          }
        }
        const uint32_t index = static_cast<uint32_t>(best);  // < 2^31: the high word is 0
        for (uint32_t b = 0; b < 8; ++b) *po++ = b < 4 ? static_cast<uint8_t>(index >> (8 * b)) : 0;
      }
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::MaxPool2d, max_pool2d_f32, kFloat32);
SOCSIM_KERNEL(ops::MaxPool2dIndices, max_pool2d_indices_f32, kFloat32);
SOCSIM_KERNEL(ops::MaxPool2d, max_pool2d_i8, kInt8);

}  // namespace socsim::kernels
