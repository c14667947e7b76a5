// NPU layers: the int8 table lookups (quantized_decomposed::sigmoid.out, tanh, hardswish, ...)
// on the vector path's lookup unit. The compiler's 256-entry table (in the weights slot, read
// once per core with the first tile) maps every input value to its output, with the CPU
// kernels' own lookup (firmware/int8/lookup.h). Every lookup operator's layer is the same
// entry; the same unit also runs as a fused stage after another layer (descriptor post_op,
// npu_post_op.h).
#include "firmware/int8/lookup.h"

#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;
using kernels::kLookupTableSize;

NpuError validate(const LayerDescriptor& d) {
  if (d.arg_count != 0) return kNpuBadArgs;  // every lookup operator: x and the table only
  const uint32_t table[4] = {1, 1, 1, kLookupTableSize};
  const bool ok = same_shape(d.in_shape, d.out_shape) && same_shape(d.in1_shape, table);
  return ok ? kNpuOk : kNpuBadShape;
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes = input_output_sizes(d);
  sizes.bytes[kAddrWeights] = kLookupTableSize;
  return sizes;
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  kernels::lookup_i8(o.weights, o.input, o.output, static_cast<uint32_t>(numel(d.out_shape)));
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  NpuVectorView v = vector_view(d);
  v.table_bytes = kLookupTableSize;
  plan_vector_layer(config, v, plan);
}

}  // namespace

/// The entry of every lookup operator.
#define SOCSIM_LOOKUP_LAYER(Op)                                     \
  static_assert(ops::Op::kArgs == 0, #Op " is no lookup operator"); \
  extern const NpuLayer kNpuLayer##Op = {                           \
      validate, operand_sizes, no_macs, execute, plan, no_bounds, true}

SOCSIM_LOOKUP_LAYER(QuantizedSigmoid);
SOCSIM_LOOKUP_LAYER(QuantizedTanh);
SOCSIM_LOOKUP_LAYER(QuantizedHardsigmoid);
SOCSIM_LOOKUP_LAYER(QuantizedHardswish);
SOCSIM_LOOKUP_LAYER(QuantizedSilu);
SOCSIM_LOOKUP_LAYER(QuantizedGelu);
SOCSIM_LOOKUP_LAYER(QuantizedErf);
SOCSIM_LOOKUP_LAYER(QuantizedExp);
SOCSIM_LOOKUP_LAYER(QuantizedSqrt);
SOCSIM_LOOKUP_LAYER(QuantizedPow);

}  // namespace socsim
