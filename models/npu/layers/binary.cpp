// NPU layers: quantised elementwise add and mul on the vector path, with the CPU kernels'
// per-element arithmetic (firmware/int8/binary_ops.h). The second input travels in the
// weights slot; it has the first input's shape, or is a per-channel operand [N, C, 1, 1]
// applied to every element of its channel's plane (NVDLA SDP's per-channel operand mode:
// squeeze-and-excitation's x * scale).
#include "firmware/int8/binary_ops.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;

kernels::QuantizedSum sum_of(const LayerDescriptor& d) {
  return kernels::QuantizedSum::of(ops::QuantizedAdd::Args(d.args));
}
kernels::QuantizedProduct product_of(const LayerDescriptor& d) {
  return kernels::QuantizedProduct::of(ops::QuantizedMul::Args(d.args));
}

// The second operand is one value per (batch, channel) plane.
bool per_channel(const LayerDescriptor& d) {
  return !same_shape(d.in_shape, d.in1_shape);
}

template <typename Op>
NpuError check_shapes(const LayerDescriptor& d) {
  const uint32_t channel_shape[4] = {d.in_shape[0], d.in_shape[1], 1, 1};
  const bool operand_ok =
      same_shape(d.in_shape, d.in1_shape) || same_shape(d.in1_shape, channel_shape);
  if (!operand_ok || !same_shape(d.in_shape, d.out_shape)) return kNpuBadShape;
  return d.arg_count == Op::kArgs ? kNpuOk : kNpuBadArgs;
}

NpuError validate_add(const LayerDescriptor& d) {
  const NpuError e = check_shapes<ops::QuantizedAdd>(d);
  if (e != kNpuOk) return e;
  return sum_of(d).valid() ? kNpuOk : kNpuBadArgs;
}
NpuError validate_mul(const LayerDescriptor& d) {
  const NpuError e = check_shapes<ops::QuantizedMul>(d);
  if (e != kNpuOk) return e;
  return product_of(d).valid() ? kNpuOk : kNpuBadArgs;
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes = input_output_sizes(d);
  sizes.bytes[kAddrWeights] = numel(d.in1_shape);
  return sizes;
}

template <typename Element>
NpuError run(const LayerDescriptor& d, const NpuOperands& o, const Element& element) {
  const uint64_t count = numel(d.out_shape);
  if (!per_channel(d)) {
    for (uint64_t i = 0; i < count; ++i) o.output[i] = element(o.input[i], o.weights[i]);
    return kNpuOk;
  }
  const uint64_t plane = uint64_t{d.in_shape[2]} * d.in_shape[3];
  for (uint64_t p = 0; p < count / plane; ++p) {
    const int8_t b = o.weights[p];
    for (uint64_t i = p * plane; i < (p + 1) * plane; ++i) o.output[i] = element(o.input[i], b);
  }
  return kNpuOk;
}
NpuError execute_add(const LayerDescriptor& d, const NpuOperands& o) {
  return run(d, o, sum_of(d));
}
NpuError execute_mul(const LayerDescriptor& d, const NpuOperands& o) {
  return run(d, o, product_of(d));
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  NpuVectorView v = vector_view(d);
  if (per_channel(d)) {
    v.channel_operand_bytes = 1;  // one value per plane, read with the plane's first rows
  } else {
    v.binary = true;  // the second input streams beside the first
  }
  plan_vector_layer(config, v, plan);
}

}  // namespace

extern const NpuLayer kNpuLayerQuantizedAdd = {
    validate_add, operand_sizes, no_macs, execute_add, plan, bounds_of<ops::QuantizedAdd>};
extern const NpuLayer kNpuLayerQuantizedMul = {
    validate_mul, operand_sizes, no_macs, execute_mul, plan, bounds_of<ops::QuantizedMul>};

}  // namespace socsim
