// 2-D max pooling (NCHW). Padding never wins: the maximum is over input elements only.
// int8 input and output share quantisation, so no requantisation is needed.
#include "firmware/kernels/pool_util.h"

namespace socsim::kernels {
namespace {

template <typename T>
Error max_pool(const KernelArgs& k, ScalarType type) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 9));
  if (!same_dtype(*k.outputs[0], type)) return Error::kDtypeMismatch;
  PoolGeometry g;
  SOCSIM_RT_TRY(g.init(*k.inputs[0], *k.outputs[0], k.args));
  const T* x = k.inputs[0]->data_as<T>();
  T* y = k.outputs[0]->data_as<T>();
  for (int32_t p = 0; p < g.planes; ++p) {
    const T* xp = x + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        if (w.y0 >= w.y1 || w.x0 >= w.x1) return Error::kShapeMismatch;
        T best = xp[w.y0 * g.in_w + w.x0];
        for (int32_t iy = w.y0; iy < w.y1; ++iy) {
          for (int32_t ix = w.x0; ix < w.x1; ++ix) {
            const T v = xp[iy * g.in_w + ix];
            if (v > best) best = v;
          }
        }
        y[(p * g.out_h + oy) * g.out_w + ox] = best;
      }
    }
  }
  return Error::kOk;
}

Error max_pool2d_f32(const KernelArgs& k) {
  return max_pool<float>(k, ScalarType::kFloat32);
}
Error max_pool2d_i8(const KernelArgs& k) {
  return max_pool<int8_t>(k, ScalarType::kInt8);
}

}  // namespace

SOCSIM_REGISTER_KERNEL("max_pool2d", kFloat32, max_pool2d_f32);
SOCSIM_REGISTER_KERNEL("max_pool2d", kInt8, max_pool2d_i8);

}  // namespace socsim::kernels
