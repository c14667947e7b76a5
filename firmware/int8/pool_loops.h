// Pooling on plain NCHW arrays, shared by the CPU kernels (op_*pool2d.cpp) and the NPU model
// (models/npu/layers/pooling.cpp): window geometry (PyTorch's rules) and the int8 loops.
//
// Freestanding: arithmetic.h only, no runtime types.
#pragma once

#include <stdint.h>

#include "firmware/int8/arithmetic.h"

namespace socsim::kernels {

/// Why a pooling layer was refused.
enum class PoolCheck { kOk, kBadShape, kBadArgs };

/// The window geometry of a pooling layer over `planes` (batch x channels) H x W planes.
struct PoolGeometry {
  int32_t planes, in_h, in_w, out_h, out_w, k_h, k_w, s_h, s_w, pad_t, pad_l, pad_b, pad_r;

  /// Reads the geometry arguments (kernel_h ... ceil_mode, by name: any pooling operator's
  /// Args) and checks that they give the output size.
  template <typename Args>
  PoolCheck init(int32_t planes_, int32_t in_h_, int32_t in_w_, int32_t out_h_, int32_t out_w_,
                 const Args& a) {
    planes = planes_;
    in_h = in_h_;
    in_w = in_w_;
    out_h = out_h_;
    out_w = out_w_;
    k_h = a.kernel_h();
    k_w = a.kernel_w();
    s_h = a.stride_h();
    s_w = a.stride_w();
    pad_t = a.pad_top();
    pad_l = a.pad_left();
    pad_b = a.pad_bottom();
    pad_r = a.pad_right();
    const int32_t ceil_mode = a.ceil_mode();
    if (ceil_mode != 0 && ceil_mode != 1) return PoolCheck::kBadArgs;
    if (window_out_size(in_h, k_h, s_h, pad_t, pad_b, 1, ceil_mode != 0) != out_h ||
        window_out_size(in_w, k_w, s_w, pad_l, pad_r, 1, ceil_mode != 0) != out_w) {
      return PoolCheck::kBadShape;
    }
    return PoolCheck::kOk;
  }
};

/// One output window: [y0, y1) x [x0, x1) clipped to the input, and the padded-window
/// element count (PyTorch's count_include_pad divisor: the window clipped to the padded
/// input).
struct PoolWindow {
  int32_t y0, y1, x0, x1, padded_count;

  int32_t count(bool include_pad) const {
    return include_pad ? padded_count : (y1 - y0) * (x1 - x0);
  }
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

// The loops below take the geometry by value: a local copy that no int8 store can alias, so
// the compiler keeps it in registers (as a kernel's own local would be).

/// Max pooling (padding never wins). False if a window holds no input element.
template <typename T>
bool max_pool(const PoolGeometry g, const T* x, T* y) {
  for (int32_t p = 0; p < g.planes; ++p) {
    const T* xp = x + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        if (w.y0 >= w.y1 || w.x0 >= w.x1) return false;
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
  return true;
}

/// Requantisation of an int8 average: zero points and the 23-bit multiplier m / 2^n.
struct AverageScale {
  int32_t zp_in, zp_out, m, n;

  bool valid() const {
    return valid_pool_multiplier(m, n) && valid_zero_point(zp_in) && valid_zero_point(zp_out);
  }
  /// saturate(div_round(sum * m, count * 2^n) + zp_out), sum = sum of (x - zp_in).
  int8_t average(int32_t sum, int32_t count) const {
    const int64_t v = div_round(static_cast<int64_t>(sum) * m, int64_t{count} << n);
    return saturate_to_i8(v + zp_out);
  }
};

/// int8 average pooling. False if a window's divisor is not positive. The plane must not
/// exceed kMaxPoolArea, so the int32 sums cannot overflow.
inline bool avg_pool_i8(const PoolGeometry g, bool include_pad, const AverageScale s,
                        const int8_t* x, int8_t* y) {
  for (int32_t p = 0; p < g.planes; ++p) {
    const int8_t* xp = x + p * g.in_h * g.in_w;
    for (int32_t oy = 0; oy < g.out_h; ++oy) {
      for (int32_t ox = 0; ox < g.out_w; ++ox) {
        const PoolWindow w = pool_window(g, oy, ox);
        const int32_t count = w.count(include_pad);
        if (count <= 0) return false;
        int32_t sum = 0;
        for (int32_t iy = w.y0; iy < w.y1; ++iy) {
          for (int32_t ix = w.x0; ix < w.x1; ++ix) sum += xp[iy * g.in_w + ix] - s.zp_in;
        }
        y[(p * g.out_h + oy) * g.out_w + ox] = s.average(sum, count);
      }
    }
  }
  return true;
}

/// int8 global average pooling of `planes` planes of `area` (at most kMaxPoolArea) elements.
inline void global_avg_pool_i8(int32_t planes, int32_t area, const AverageScale s, const int8_t* x,
                               int8_t* y) {
  for (int32_t p = 0; p < planes; ++p) {
    int32_t sum = 0;
    for (int32_t i = 0; i < area; ++i) sum += x[p * area + i] - s.zp_in;
    y[p] = s.average(sum, area);
  }
}

}  // namespace socsim::kernels
