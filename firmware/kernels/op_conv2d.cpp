// 2-D convolution, NCHW activations and OIHW weights, with groups (depthwise when groups ==
// channels), stride, asymmetric padding, dilation and a fused output clamp:
// aten::convolution.out (float32) and quantized_decomposed::convolution.out (int8).
#include "firmware/int8/conv_loops.h"
#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

// Checks every shape relation so that no index can leave its tensor. Op is either
// convolution operator: both name their operands and geometry arguments alike.
template <typename Op>
Error conv_geometry(const KernelArgs& k, ConvGeometry* g) {
  const Tensor& x = *k.inputs[Op::kX];
  const Tensor& w = *k.inputs[Op::kWeight];
  const Tensor& b = *k.inputs[Op::kBias];
  const Tensor& y = *k.outputs[Op::kOut];
  const typename Op::Args a(k.args);
  if (!is_nchw_pair(x, y) || w.rank != 4 || b.rank != 1) return Error::kShapeMismatch;
  *g = ConvGeometry{x.sizes[0],   x.sizes[1],     x.sizes[2],     x.sizes[3],
                    y.sizes[1],   y.sizes[2],     y.sizes[3],     w.sizes[2],
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

Error conv2d_f32(const KernelArgs& k) {
  using Op = ops::Convolution;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  for (uint32_t i = 0; i < Op::kInputs; ++i) {
    if (!same_dtype(*k.inputs[i], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  }
  if (!same_dtype(*k.outputs[Op::kOut], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry<Op>(k, &g));
  const Op::Args a(k.args);
  const float lo = a.act_min();
  const float hi = a.act_max();
  const float* bias = k.inputs[Op::kBias]->data_as<float>();
  float* y = k.outputs[Op::kOut]->data_as<float>();
  conv_loops(
      g, k.inputs[Op::kX]->data_as<float>(), k.inputs[Op::kWeight]->data_as<float>(),
      [&](int32_t oc) { return bias[oc]; }, [](float xv, float wv) { return xv * wv; },
      [&](int32_t idx, int32_t, float acc) {
        const float v = acc < lo ? lo : acc;
        y[idx] = v > hi ? hi : v;
      });
  return Error::kOk;
}

// int8 weights, int32 bias, int8 output; the activations int8, or uint8 for a model's
// integer input (zp_in then 0..255).
template <typename TIn>
Error conv2d_q8(const KernelArgs& k) {
  using Op = ops::QuantizedConvolution;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  if (!same_dtype(*k.inputs[Op::kWeight], ScalarType::kInt8) ||
      !same_dtype(*k.inputs[Op::kBias], ScalarType::kInt32) ||
      !same_dtype(*k.inputs[Op::kRequant], ScalarType::kInt32) ||
      !same_dtype(*k.outputs[Op::kOut], ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  ConvGeometry g;
  SOCSIM_RT_TRY(conv_geometry<Op>(k, &g));
  const Tensor& rq = *k.inputs[Op::kRequant];
  if (rq.rank != 2 || rq.sizes[0] != g.out_c || rq.sizes[1] != 2) return Error::kShapeMismatch;
  const int32_t* mult = rq.data_as<int32_t>();
  const bool tflite = g.out_c > 0 && uses_tflite_rounding(mult);
  if (!(tflite ? valid_tflite_requant_table(mult, g.out_c) : valid_requant_table(mult, g.out_c))) {
    return Error::kBadOperatorArgs;
  }
  const Op::Args a(k.args);
  const int32_t zp_in = a.zp_in();
  const int32_t zp_out = a.zp_out();
  const int32_t lo = a.act_min();
  const int32_t hi = a.act_max();
  if (!valid_input_zero_point<TIn>(zp_in) || !valid_zero_point(zp_out) || !valid_bounds(lo, hi)) {
    return Error::kBadOperatorArgs;
  }
  const int32_t* bias = k.inputs[Op::kBias]->data_as<int32_t>();
  if (!accumulators_fit(int64_t{g.in_c / g.groups} * g.k_h * g.k_w, bias, g.out_c)) {
    return Error::kBadOperatorArgs;
  }
  if (tflite) {
    conv_q8_tflite(g, k.inputs[Op::kX]->data_as<TIn>(), k.inputs[Op::kWeight]->data_as<int8_t>(),
                   bias, mult, zp_in, zp_out, lo, hi, k.outputs[Op::kOut]->data_as<int8_t>());
    return Error::kOk;
  }
  conv_q8(g, k.inputs[Op::kX]->data_as<TIn>(), k.inputs[Op::kWeight]->data_as<int8_t>(), bias,
          mult, zp_in, zp_out, lo, hi, k.outputs[Op::kOut]->data_as<int8_t>());
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Convolution, kFloat32, conv2d_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedConvolution, kInt8, conv2d_q8<int8_t>);
SOCSIM_REGISTER_KERNEL(ops::QuantizedConvolution, kUInt8, conv2d_q8<uint8_t>);

}  // namespace socsim::kernels
