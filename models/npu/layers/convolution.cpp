// NPU layer: quantised 2-D convolution (quantized_decomposed::convolution.out) on the MAC
// array, computed by the fast kernels (models/npu/fast_kernels.h), which equal the CPU
// kernel's loops (firmware/int8/conv_loops.h) bit for bit.
#include "firmware/int8/conv_loops.h"
#include "firmware/int8/tflite_rounding.h"
#include "models/npu/fast_kernels.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;
using Op = ops::QuantizedConvolution;

kernels::ConvGeometry geometry(const LayerDescriptor& d) {
  const Op::Args a(d.args);
  return {s32(d.in_shape[0]),  s32(d.in_shape[1]),  s32(d.in_shape[2]),  s32(d.in_shape[3]),
          s32(d.out_shape[1]), s32(d.out_shape[2]), s32(d.out_shape[3]), s32(d.in1_shape[2]),
          s32(d.in1_shape[3]), a.stride_h(),        a.stride_w(),        a.pad_top(),
          a.pad_left(),        a.dilation_h(),      a.dilation_w(),      a.groups()};
}

NpuError validate(const LayerDescriptor& d) {
  if (d.arg_count != Op::kArgs) return kNpuBadArgs;
  const Op::Args a(d.args);
  const uint32_t* x = d.in_shape;
  const uint32_t* w = d.in1_shape;
  const uint32_t* y = d.out_shape;
  const int32_t groups = a.groups();
  if (groups < 1 || s32(x[1]) % groups != 0 || s32(y[1]) % groups != 0) return kNpuBadShape;
  if (x[0] != y[0] || w[0] != y[1] || s32(w[1]) != s32(x[1]) / groups) return kNpuBadShape;
  if (kernels::window_out_size(s32(x[2]), s32(w[2]), a.stride_h(), a.pad_top(), a.pad_bottom(),
                               a.dilation_h(), false) != s32(y[2]) ||
      kernels::window_out_size(s32(x[3]), s32(w[3]), a.stride_w(), a.pad_left(), a.pad_right(),
                               a.dilation_w(), false) != s32(y[3])) {
    return kNpuBadShape;
  }
  return check_requantised_output<Op>(d);
}

uint64_t macs(const LayerDescriptor& d) {
  return numel(d.out_shape) * d.in1_shape[1] * d.in1_shape[2] * d.in1_shape[3];
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  const kernels::ConvGeometry g = geometry(d);
  const Op::Args a(d.args);
  const int64_t products = int64_t{g.in_c / g.groups} * g.k_h * g.k_w;
  const bool tflite = g.out_c > 0 && kernels::uses_tflite_rounding(o.requant);
  if (!(tflite ? kernels::valid_tflite_requant_table(o.requant, g.out_c)
               : kernels::valid_requant_table(o.requant, g.out_c)) ||
      !kernels::accumulators_fit(products, o.bias, g.out_c)) {
    return kNpuBadArgs;
  }
  if (tflite) {  // TFLite's rounding: the reference loops (firmware/int8/tflite_rounding.h)
    if (d.dtype == kDtypeUInt8) {
      kernels::conv_q8_tflite(g, reinterpret_cast<const uint8_t*>(o.input), o.weights, o.bias,
                              o.requant, a.zp_in(), a.zp_out(), a.act_min(), a.act_max(),
                              o.output);
    } else {
      kernels::conv_q8_tflite(g, o.input, o.weights, o.bias, o.requant, a.zp_in(), a.zp_out(),
                              a.act_min(), a.act_max(), o.output);
    }
    return kNpuOk;
  }
  if (d.dtype == kDtypeUInt8) {  // a model's integer input (the first layer)
    npu_fast::conv_q8(g, reinterpret_cast<const uint8_t*>(o.input), o.weights, o.bias, o.requant,
                      a.zp_in(), a.zp_out(), a.act_min(), a.act_max(), o.output);
  } else {
    npu_fast::conv_q8(g, o.input, o.weights, o.bias, o.requant, a.zp_in(), a.zp_out(), a.act_min(),
                      a.act_max(), o.output);
  }
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  const Op::Args a(d.args);
  const uint64_t groups = static_cast<uint64_t>(a.groups());
  const bool depthwise = groups > 1 && groups == d.in_shape[1] && groups == d.out_shape[1];
  if (depthwise) plan->op_type = "DepthwiseConv";
  const NpuConvView v{d.in_shape[0],
                      d.in_shape[1],
                      d.in_shape[2],
                      d.in_shape[3],
                      d.out_shape[1],
                      d.out_shape[2],
                      d.out_shape[3],
                      d.in1_shape[2],
                      d.in1_shape[3],
                      static_cast<uint64_t>(a.stride_h()),
                      static_cast<uint64_t>(a.pad_top()),
                      static_cast<uint64_t>(a.dilation_h()),
                      groups,
                      depthwise};
  plan_array_layer(config, v, plan);
}

}  // namespace

extern const NpuLayer kNpuLayerQuantizedConvolution = {
    validate, weighted_operand_sizes, macs, execute, plan, bounds_of<Op>};

}  // namespace socsim
