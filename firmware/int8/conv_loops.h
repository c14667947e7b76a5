// The loops of convolution and fully connected layers on plain arrays, shared by the CPU
// kernels (op_conv2d.cpp, op_linear.cpp) and the NPU model (models/npu/layers/): callers
// check shapes and arguments first, so no index can leave its array.
//
// Freestanding: arithmetic.h only, no runtime types.
#pragma once

#include <stdint.h>

#include "firmware/int8/arithmetic.h"

namespace socsim::kernels {

/// NCHW activations, OIHW weights, groups (depthwise when groups == channels).
struct ConvGeometry {
  int32_t batch, in_c, in_h, in_w, out_c, out_h, out_w, k_h, k_w;
  int32_t stride_h, stride_w, pad_t, pad_l, dil_h, dil_w, groups;
};

/// Runs the convolution loops: `init` gives the accumulator's start (the bias) of an output
/// channel, `load` one product, `store` finishes and writes one output value.
template <typename TX, typename TW, typename Init, typename Load, typename Store>
void conv_loops(const ConvGeometry& g, const TX* x, const TW* w, Init init, Load load,
                Store store) {
  const int32_t cin_g = g.in_c / g.groups;
  const int32_t cout_g = g.out_c / g.groups;
  for (int32_t n = 0; n < g.batch; ++n) {
    for (int32_t oc = 0; oc < g.out_c; ++oc) {
      const int32_t ic0 = (oc / cout_g) * cin_g;
      const TW* wk = w + oc * cin_g * g.k_h * g.k_w;
      for (int32_t oy = 0; oy < g.out_h; ++oy) {
        for (int32_t ox = 0; ox < g.out_w; ++ox) {
          auto acc = init(oc);
          for (int32_t c = 0; c < cin_g; ++c) {
            const TX* xc = x + ((n * g.in_c + ic0 + c) * g.in_h) * g.in_w;
            const TW* wc = wk + c * g.k_h * g.k_w;
            for (int32_t ky = 0; ky < g.k_h; ++ky) {
              const int32_t iy = oy * g.stride_h - g.pad_t + ky * g.dil_h;
              if (iy < 0 || iy >= g.in_h) continue;
              for (int32_t kx = 0; kx < g.k_w; ++kx) {
                const int32_t ix = ox * g.stride_w - g.pad_l + kx * g.dil_w;
                if (ix < 0 || ix >= g.in_w) continue;
                acc += load(xc[iy * g.in_w + ix], wc[ky * g.k_w + kx]);
              }
            }
          }
          store(((n * g.out_c + oc) * g.out_h + oy) * g.out_w + ox, oc, acc);
        }
      }
    }
  }
}

/// Every channel's (multiplier, shift) of a requantisation table int32 [channels][2] is in
/// range.
inline bool valid_requant_table(const int32_t* requant, int32_t channels) {
  for (int32_t c = 0; c < channels; ++c) {
    if (!valid_multiplier(requant[2 * c], requant[2 * c + 1])) return false;
  }
  return true;
}

/// The output stage of the int8 convolution and fully connected layers:
/// clamp(requantize(acc, m[c], n[c]) + zp_out, lo, hi) for channel c of the requantisation
/// table int32 [channels][2] (multiplier, shift).
inline int8_t requantized_output(int32_t acc, const int32_t* requant, int32_t c, int32_t zp_out,
                                 int32_t lo, int32_t hi) {
  return clamp_to_i8(requantize(acc, requant[2 * c], requant[2 * c + 1]) + zp_out, lo, hi);
}

/// y = clamp(requantize(bias + sum (x - zp_in) w, m[c], n[c]) + zp_out, lo, hi) for an int8
/// convolution of int8 or uint8 activations `x` (TIn); `requant` is int32 [out_c][2]
/// (multiplier, shift).
template <typename TIn>
inline void conv_q8(const ConvGeometry& g, const TIn* x, const int8_t* w, const int32_t* bias,
                    const int32_t* requant, int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi,
                    int8_t* y) {
  conv_loops(
      g, x, w, [&](int32_t oc) { return bias[oc]; },
      [&](TIn xv, int8_t wv) { return (static_cast<int32_t>(xv) - zp_in) * wv; },
      [&](int32_t idx, int32_t oc, int32_t acc) {
        // requantized_output() spelled out: the same value, and the code the target has
        // been measured with
        y[idx] =
            clamp_to_i8(requantize(acc, requant[2 * oc], requant[2 * oc + 1]) + zp_out, lo, hi);
      });
}

/// The same for a fully connected layer of `rows` rows, `in` inputs and `out` outputs:
/// y[r][o] from bias[o] + sum_i (x[r][i] - zp_in) w[o][i].
inline void fully_connected_i8(uint32_t rows, uint32_t in, uint32_t out, const int8_t* x,
                               const int8_t* w, const int32_t* bias, const int32_t* requant,
                               int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi, int8_t* y) {
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t o = 0; o < out; ++o) {
      int32_t acc = bias[o];
      const int8_t* xr = x + r * in;
      const int8_t* wr = w + o * in;
      for (uint32_t i = 0; i < in; ++i) acc += (static_cast<int32_t>(xr[i]) - zp_in) * wr[i];
      y[r * out + o] = requantized_output(acc, requant, static_cast<int32_t>(o), zp_out, lo, hi);
    }
  }
}

/// True when no int32 accumulator of a layer with `products` terms per output can overflow.
inline bool accumulators_fit(int64_t products, const int32_t* bias, int32_t channels) {
  for (int32_t c = 0; c < channels; ++c) {
    if (!accumulator_fits(products, bias[c])) return false;
  }
  return true;
}

}  // namespace socsim::kernels
