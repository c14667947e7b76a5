// 2-D convolution (and 1-D: [N, C, L] as [N, C, 1, L]), NCHW activations and OIHW weights,
// with groups (depthwise when groups == channels), stride, asymmetric padding, dilation and a
// fused output clamp: aten::convolution.out (float32) and
// quantized_decomposed::convolution.out (int8).
#include "firmware/int8/conv_loops.h"
#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

// Checks every shape relation so that no index can leave its tensor. Op is either
// convolution operator: both name their operands and geometry arguments alike.
template <typename Args>
Error conv_geometry(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& y,
                    const Args& a, ConvGeometry* g) {
  if (!is_nchw_pair(x, y) || w.rank != 4 || b.rank != 1) return Error::kShapeMismatch;
  const NchwSizes xs = nchw_sizes(x);
  const NchwSizes ys = nchw_sizes(y);
  *g = ConvGeometry{xs.n,         xs.c,           xs.h,           xs.w,
                    ys.c,         ys.h,           ys.w,           w.sizes[2],
                    w.sizes[3],   a.stride_h(),   a.stride_w(),   a.pad_top(),
                    a.pad_left(), a.dilation_h(), a.dilation_w(), a.groups()};
  if (g->groups < 1 || g->in_c % g->groups != 0 || g->out_c % g->groups != 0) {
    return Error::kBadOperatorArgs;
  }
  if (w.sizes[0] != g->out_c || w.sizes[1] != g->in_c / g->groups || b.sizes[0] != g->out_c) {
    return Error::kShapeMismatch;
  }
  if (window_out_size(g->in_h, g->k_h, a.stride_h(), a.pad_top(), a.pad_bottom(), a.dilation_h(),
                      false) != g->out_h ||
      window_out_size(g->in_w, g->k_w, a.stride_w(), a.pad_left(), a.pad_right(), a.dilation_w(),
                      false) != g->out_w) {
    return Error::kShapeMismatch;
  }
  return Error::kOk;
}

// The sum of one output value: acc + x w over its window, in conv_loops' order (channel, row,
// column), so the same float operations in the same order. Out of line so that the loops
// around it keep their values in saved registers: inlined, GCC keeps them in argument
// registers and saves and restores each around every soft-float call of the innermost loop.
__attribute__((noinline)) float window_sum_f32(const ConvGeometry& g, const float* x,
                                               const float* wk, int32_t iy0, int32_t ix0,
                                               float acc) {
  const int32_t cin_g = g.in_c / g.groups;
  for (int32_t c = 0; c < cin_g; ++c) {
    const float* xc = x + c * g.in_h * g.in_w;
    const float* wc = wk + c * g.k_h * g.k_w;
    for (int32_t ky = 0; ky < g.k_h; ++ky) {
      const int32_t iy = iy0 + ky * g.dil_h;
      if (iy < 0 || iy >= g.in_h) continue;
      for (int32_t kx = 0; kx < g.k_w; ++kx) {
        const int32_t ix = ix0 + kx * g.dil_w;
        if (ix < 0 || ix >= g.in_w) continue;
        acc += xc[iy * g.in_w + ix] * wc[ky * g.k_w + kx];
      }
    }
  }
  return acc;
}

// y = clamp(bias + sum x w, lo, hi): conv_loops with its window sum out of line.
void conv_f32(const ConvGeometry& g, const float* x, const float* w, const float* bias, float lo,
              float hi, float* y) {
  const int32_t cin_g = g.in_c / g.groups;
  const int32_t cout_g = g.out_c / g.groups;
  for (int32_t n = 0; n < g.batch; ++n) {
    for (int32_t oc = 0; oc < g.out_c; ++oc) {
      const float* xg = x + (n * g.in_c + (oc / cout_g) * cin_g) * g.in_h * g.in_w;
      const float* wk = w + oc * cin_g * g.k_h * g.k_w;
      for (int32_t oy = 0; oy < g.out_h; ++oy) {
        for (int32_t ox = 0; ox < g.out_w; ++ox) {
          const float acc = window_sum_f32(g, xg, wk, oy * g.stride_h - g.pad_t,
                                           ox * g.stride_w - g.pad_l, bias[oc]);
          const float v = acc < lo ? lo : acc;
          y[((n * g.out_c + oc) * g.out_h + oy) * g.out_w + ox] = v > hi ? hi : v;
        }
      }
    }
  }
}

Error conv2d_f32(const Tensor& x, const Tensor& weight, const Tensor& bias_t, Tensor& out,
                 ops::Convolution::Args a, MemoryAllocator*) {
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry(x, weight, bias_t, out, a, &g));
  conv_f32(g, x.data_as<float>(), weight.data_as<float>(), bias_t.data_as<float>(), a.act_min(),
           a.act_max(), out.data_as<float>());
  return Error::kOk;
}

// int8 weights, int32 bias, int8 output; the activations int8, or uint8 for a model's
// integer input (zp_in then 0..255).
/// quantized_decomposed::convolution.out on an int8 or uint8 input (TIn).
template <typename TIn>
Error quantized_conv2d(const Tensor& x, const Tensor& weight, const Tensor& bias_t,
                       const Tensor& rq, Tensor& out, ops::QuantizedConvolution::Args a) {
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry(x, weight, bias_t, out, a, &g));
  if (rq.rank != 2 || rq.sizes[0] != g.out_c || rq.sizes[1] != 2) return Error::kShapeMismatch;
  const int32_t* mult = rq.data_as<int32_t>();
  const bool tflite = g.out_c > 0 && uses_tflite_rounding(mult);
  if (!(tflite ? valid_tflite_requant_table(mult, g.out_c) : valid_requant_table(mult, g.out_c))) {
    return Error::kBadOperatorArgs;
  }
  const int32_t zp_in = a.zp_in();
  const int32_t zp_out = a.zp_out();
  const int32_t lo = a.act_min();
  const int32_t hi = a.act_max();
  if (!valid_input_zero_point<TIn>(zp_in) || !valid_zero_point(zp_out) || !valid_bounds(lo, hi)) {
    return Error::kBadOperatorArgs;
  }
  const int32_t* bias = bias_t.data_as<int32_t>();
  if (!accumulators_fit(int64_t{g.in_c / g.groups} * g.k_h * g.k_w, bias, g.out_c)) {
    return Error::kBadOperatorArgs;
  }
  if (tflite) {
    conv_q8_tflite(g, x.data_as<TIn>(), weight.data_as<int8_t>(), bias, mult, zp_in, zp_out, lo,
                   hi, out.data_as<int8_t>());
    return Error::kOk;
  }
  conv_q8(g, x.data_as<TIn>(), weight.data_as<int8_t>(), bias, mult, zp_in, zp_out, lo, hi,
          out.data_as<int8_t>());
  return Error::kOk;
}

Error conv2d_i8(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& requant,
                Tensor& out, ops::QuantizedConvolution::Args args, MemoryAllocator*) {
  return quantized_conv2d<int8_t>(x, weight, bias, requant, out, args);
}

Error conv2d_u8(const Tensor& x, const Tensor& weight, const Tensor& bias, const Tensor& requant,
                Tensor& out, ops::QuantizedConvolution::Args args, MemoryAllocator*) {
  return quantized_conv2d<uint8_t>(x, weight, bias, requant, out, args);
}

}  // namespace

SOCSIM_KERNEL(ops::Convolution, conv2d_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedConvolution, conv2d_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedConvolution, conv2d_u8, kUInt8);

}  // namespace socsim::kernels
