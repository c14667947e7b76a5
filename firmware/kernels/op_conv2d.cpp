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

Error conv2d_f32(const Tensor& x, const Tensor& weight, const Tensor& bias_t, Tensor& out,
                 ops::Convolution::Args a, MemoryAllocator*) {
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry(x, weight, bias_t, out, a, &g));
  const float lo = a.act_min();
  const float hi = a.act_max();
  const float* bias = bias_t.data_as<float>();
  float* y = out.data_as<float>();
  conv_loops(
      g, x.data_as<float>(), weight.data_as<float>(),
      [&](int32_t oc) { return bias[oc]; }, [](float xv, float wv) { return xv * wv; },
      [&](int32_t idx, int32_t, float acc) {
        const float v = acc < lo ? lo : acc;
        y[idx] = v > hi ? hi : v;
      });
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
