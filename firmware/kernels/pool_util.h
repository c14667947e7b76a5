// Window geometry shared by the pooling kernels.
#pragma once

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

/// args[0..8] = kernel_h, kernel_w, stride_h, stride_w, pad_top, pad_left, pad_bottom,
/// pad_right, ceil_mode.
struct PoolGeometry {
  int32_t planes, in_h, in_w, out_h, out_w, k_h, k_w, s_h, s_w, pad_t, pad_l, pad_b, pad_r;

  Error init(const Tensor& x, const Tensor& y, const int32_t* a) {
    if (!is_nchw_pair(x, y) || x.sizes[1] != y.sizes[1]) return Error::kShapeMismatch;
    planes = x.sizes[0] * x.sizes[1];
    in_h = x.sizes[2];
    in_w = x.sizes[3];
    out_h = y.sizes[2];
    out_w = y.sizes[3];
    k_h = a[0];
    k_w = a[1];
    s_h = a[2];
    s_w = a[3];
    pad_t = a[4];
    pad_l = a[5];
    pad_b = a[6];
    pad_r = a[7];
    if (a[8] != 0 && a[8] != 1) return Error::kBadOperatorArgs;
    if (window_out_size(in_h, k_h, s_h, pad_t, pad_b, 1, a[8] != 0) != out_h ||
        window_out_size(in_w, k_w, s_w, pad_l, pad_r, 1, a[8] != 0) != out_w) {
      return Error::kShapeMismatch;
    }
    return Error::kOk;
  }
};

/// One output window: [y0, y1) x [x0, x1) clipped to the input, and the padded-window
/// element count (PyTorch's count_include_pad divisor: the window clipped to the padded
/// input).
struct PoolWindow {
  int32_t y0, y1, x0, x1, padded_count;
};

inline PoolWindow pool_window(const PoolGeometry& g, int32_t oy, int32_t ox) {
  PoolWindow w;
  int32_t ys = oy * g.s_h - g.pad_t;
  int32_t xs = ox * g.s_w - g.pad_l;
  int32_t ye = ys + g.k_h;
  int32_t xe = xs + g.k_w;
  const int32_t ye_pad = ye < g.in_h + g.pad_b ? ye : g.in_h + g.pad_b;
  const int32_t xe_pad = xe < g.in_w + g.pad_r ? xe : g.in_w + g.pad_r;
  w.padded_count = (ye_pad - ys) * (xe_pad - xs);
  w.y0 = ys < 0 ? 0 : ys;
  w.x0 = xs < 0 ? 0 : xs;
  w.y1 = ye < g.in_h ? ye : g.in_h;
  w.x1 = xe < g.in_w ? xe : g.in_w;
  return w;
}

}  // namespace socsim::kernels
