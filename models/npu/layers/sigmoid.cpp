// NPU layer: int8 sigmoid (quantized_decomposed::sigmoid.out) on the vector path's lookup
// table: the compiler's 256-entry table (in the weights slot, read once per core) maps every
// input value to its output, as the CPU kernel does (firmware/kernels/op_sigmoid.cpp).
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;
using Op = ops::QuantizedSigmoid;

constexpr uint32_t kTableSize = 256;

NpuError validate(const LayerDescriptor& d) {
  if (d.arg_count != Op::kArgs) return kNpuBadArgs;
  const uint32_t table[4] = {1, 1, 1, kTableSize};
  const bool ok = same_shape(d.in_shape, d.out_shape) && same_shape(d.in1_shape, table);
  return ok ? kNpuOk : kNpuBadShape;
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes = input_output_sizes(d);
  sizes.bytes[kAddrWeights] = kTableSize;
  return sizes;
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  const int8_t* table = o.weights + 128;  // indexed by the input value in [-128, 127]
  const uint64_t count = numel(d.out_shape);
  for (uint64_t i = 0; i < count; ++i) o.output[i] = table[o.input[i]];
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  NpuVectorView v = vector_view(d);
  v.table_bytes = kTableSize;
  plan_vector_layer(config, v, plan);
}

}  // namespace

extern const NpuLayer kNpuLayerQuantizedSigmoid = {validate, operand_sizes, no_macs, execute,
                                                   plan, no_bounds};

}  // namespace socsim
