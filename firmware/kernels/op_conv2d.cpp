// 2-D convolution, NCHW activations and OIHW weights, with groups (depthwise when groups ==
// channels), stride, asymmetric padding, dilation and a fused output clamp.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

struct ConvGeometry {
  int32_t batch, in_c, in_h, in_w, out_c, out_h, out_w, k_h, k_w;
  int32_t stride_h, stride_w, pad_t, pad_l, dil_h, dil_w, groups;
};

// args[0..8] = stride_h, stride_w, pad_top, pad_left, pad_bottom, pad_right, dil_h, dil_w,
// groups. Checks every shape relation so that no index can leave its tensor.
Error conv_geometry(const KernelArgs& k, ConvGeometry* g) {
  const Tensor& x = *k.inputs[0];
  const Tensor& w = *k.inputs[1];
  const Tensor& b = *k.inputs[2];
  const Tensor& y = *k.outputs[0];
  const int32_t* a = k.args;
  if (!is_nchw_pair(x, y) || w.rank != 4 || b.rank != 1) return Error::kShapeMismatch;
  *g = ConvGeometry{x.sizes[0], x.sizes[1], x.sizes[2], x.sizes[3], y.sizes[1], y.sizes[2],
                    y.sizes[3], w.sizes[2], w.sizes[3], a[0],       a[1],       a[2],
                    a[3],       a[6],       a[7],       a[8]};
  if (g->groups < 1 || g->in_c % g->groups != 0 || g->out_c % g->groups != 0) {
    return Error::kBadOperatorArgs;
  }
  if (w.sizes[0] != g->out_c || w.sizes[1] != g->in_c / g->groups || b.sizes[0] != g->out_c) {
    return Error::kShapeMismatch;
  }
  if (window_out_size(g->in_h, g->k_h, a[0], a[2], a[4], a[6], false) != g->out_h ||
      window_out_size(g->in_w, g->k_w, a[1], a[3], a[5], a[7], false) != g->out_w) {
    return Error::kShapeMismatch;
  }
  return Error::kOk;
}

/// Runs the convolution loops: `init` gives the accumulator's start (the bias) of an output
/// channel, `load` one product, `store` finishes and writes one output value.
template <typename T, typename Init, typename Load, typename Store>
void conv_loops(const ConvGeometry& g, const T* x, const T* w, Init init, Load load, Store store) {
  const int32_t cin_g = g.in_c / g.groups;
  const int32_t cout_g = g.out_c / g.groups;
  for (int32_t n = 0; n < g.batch; ++n) {
    for (int32_t oc = 0; oc < g.out_c; ++oc) {
      const int32_t ic0 = (oc / cout_g) * cin_g;
      const T* wk = w + oc * cin_g * g.k_h * g.k_w;
      for (int32_t oy = 0; oy < g.out_h; ++oy) {
        for (int32_t ox = 0; ox < g.out_w; ++ox) {
          auto acc = init(oc);
          for (int32_t c = 0; c < cin_g; ++c) {
            const T* xc = x + ((n * g.in_c + ic0 + c) * g.in_h) * g.in_w;
            const T* wc = wk + c * g.k_h * g.k_w;
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

// inputs: x, w, bias (float32); args: 9 geometry values, act_min bits, act_max bits.
Error conv2d_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 3, 1, 11));
  for (uint32_t i = 0; i < 3; ++i) {
    if (!same_dtype(*k.inputs[i], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  }
  if (!same_dtype(*k.outputs[0], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry(k, &g));
  const float lo = arg_float(k.args[9]);
  const float hi = arg_float(k.args[10]);
  const float* bias = k.inputs[2]->data_as<float>();
  float* y = k.outputs[0]->data_as<float>();
  conv_loops(
      g, k.inputs[0]->data_as<float>(), k.inputs[1]->data_as<float>(),
      [&](int32_t oc) { return bias[oc]; }, [](float xv, float wv) { return xv * wv; },
      [&](int32_t idx, int32_t, float acc) {
        const float v = acc < lo ? lo : acc;
        y[idx] = v > hi ? hi : v;
      });
  return Error::kOk;
}

// inputs: x, w (int8), bias (int32), requant (int32 [out_c, 2] = multiplier, shift);
// args: 9 geometry values, zp_in, zp_out, act_min, act_max.
Error conv2d_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 4, 1, 13));
  if (!same_dtype(*k.inputs[1], ScalarType::kInt8) ||
      !same_dtype(*k.inputs[2], ScalarType::kInt32) ||
      !same_dtype(*k.inputs[3], ScalarType::kInt32) ||
      !same_dtype(*k.outputs[0], ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry(k, &g));
  const Tensor& rq = *k.inputs[3];
  if (rq.rank != 2 || rq.sizes[0] != g.out_c || rq.sizes[1] != 2) return Error::kShapeMismatch;
  const int32_t* mult = rq.data_as<int32_t>();
  for (int32_t c = 0; c < g.out_c; ++c) {
    if (!valid_multiplier(mult[2 * c], mult[2 * c + 1])) return Error::kBadOperatorArgs;
  }
  const int32_t zp_in = k.args[9];
  const int32_t zp_out = k.args[10];
  const int32_t lo = k.args[11];
  const int32_t hi = k.args[12];
  if (!valid_zero_point(zp_in) || !valid_zero_point(zp_out) || !valid_bounds(lo, hi)) {
    return Error::kBadOperatorArgs;
  }
  const int32_t* bias = k.inputs[2]->data_as<int32_t>();
  const int64_t products = int64_t{g.in_c / g.groups} * g.k_h * g.k_w;
  for (int32_t c = 0; c < g.out_c; ++c) {
    if (!accumulator_fits(products, bias[c])) return Error::kBadOperatorArgs;
  }
  int8_t* y = k.outputs[0]->data_as<int8_t>();
  conv_loops(
      g, k.inputs[0]->data_as<int8_t>(), k.inputs[1]->data_as<int8_t>(),
      [&](int32_t oc) { return bias[oc]; },
      [&](int8_t xv, int8_t wv) { return (static_cast<int32_t>(xv) - zp_in) * wv; },
      [&](int32_t idx, int32_t oc, int32_t acc) {
        y[idx] = clamp_to_i8(requantize(acc, mult[2 * oc], mult[2 * oc + 1]) + zp_out, lo, hi);
      });
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("conv2d", kFloat32, conv2d_f32);
SOCSIM_REGISTER_KERNEL("conv2d", kInt8, conv2d_i8);

}  // namespace socsim::kernels
