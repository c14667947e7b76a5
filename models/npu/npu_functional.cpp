// The common checks of a descriptor and the dispatch to its layer entry.
#include "models/npu/npu_functional.h"

#include <initializer_list>

namespace socsim {

using namespace npu;

namespace {

// Every dimension of a 4-D shape, and every tensor, stays within these.
constexpr uint32_t kMaxDim = 1u << 16;
constexpr uint64_t kMaxElements = uint64_t{1} << 28;

const NpuLayer& layer_of(const LayerDescriptor& d) {
  return *find_npu_layer(d.op)->layer;
}

}  // namespace

NpuError validate_layer(const LayerDescriptor& d) {
  const NpuLayerType* type = find_npu_layer(d.op);
  if (type == nullptr) return kNpuBadOpcode;
  if (!type->reads(d.dtype)) return kNpuBadDtype;
  if (d.arg_count > kMaxArgs) return kNpuBadArgs;
  for (const uint32_t* shape : {d.in_shape, d.out_shape}) {
    for (int i = 0; i < 4; ++i) {
      if (shape[i] == 0 || shape[i] > kMaxDim) return kNpuBadShape;
    }
    if (npu_layer::numel(shape) > kMaxElements) return kNpuBadShape;
  }
  return type->layer->validate(d);
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  return layer_of(d).operand_sizes(d);
}

uint64_t layer_macs(const LayerDescriptor& d) {
  return layer_of(d).macs(d);
}

NpuError execute_layer(const LayerDescriptor& d, const NpuOperands& ops) {
  return layer_of(d).execute(d, ops);
}

}  // namespace socsim
