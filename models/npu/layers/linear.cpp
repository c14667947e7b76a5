// NPU layer: quantised fully connected layer (quantized_decomposed::linear.out), a 1x1
// convolution over `rows` pixels on the MAC array, computed by the fast kernels
// (models/npu/fast_kernels.h), which equal the CPU kernel's loop (firmware/int8/conv_loops.h)
// bit for bit. Shapes: rows x features x 1 x 1, weights out x in x 1 x 1.
#include "firmware/int8/conv_loops.h"
#include "models/npu/fast_kernels.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;
using Op = ops::QuantizedLinear;

NpuError validate(const LayerDescriptor& d) {
  if (d.arg_count != Op::kArgs) return kNpuBadArgs;
  const uint32_t* x = d.in_shape;
  const uint32_t* w = d.in1_shape;
  const uint32_t* y = d.out_shape;
  if (x[2] != 1 || x[3] != 1 || y[2] != 1 || y[3] != 1 || w[2] != 1 || w[3] != 1) {
    return kNpuBadShape;
  }
  if (x[0] != y[0] || w[0] != y[1] || w[1] != x[1]) return kNpuBadShape;
  return check_requantised_output<Op>(d);
}

uint64_t macs(const LayerDescriptor& d) {
  return uint64_t{d.out_shape[0]} * d.out_shape[1] * d.in_shape[1];
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  const uint32_t rows = d.in_shape[0], in = d.in_shape[1], out_features = d.out_shape[1];
  const Op::Args a(d.args);
  const int32_t channels = s32(out_features);
  if (!kernels::valid_requant_table(o.requant, channels) ||
      !kernels::accumulators_fit(in, o.bias, channels)) {
    return kNpuBadArgs;
  }
  npu_fast::fully_connected_i8(rows, in, out_features, o.input, o.weights, o.bias, o.requant,
                               a.zp_in(), a.zp_out(), a.act_min(), a.act_max(), o.output);
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  const NpuConvView v{
      1, d.in_shape[1], d.in_shape[0], 1, d.out_shape[1], d.out_shape[0], 1, 1, 1, 1, 0, 1,
      1, false};
  plan_array_layer(config, v, plan);
}

}  // namespace

extern const NpuLayer kNpuLayerQuantizedLinear = {validate, weighted_operand_sizes, macs, execute,
                                                  plan,     bounds_of<Op>};

}  // namespace socsim
