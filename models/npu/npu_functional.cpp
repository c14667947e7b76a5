// The common checks of a descriptor and the dispatch to its layer entry.
#include "models/npu/npu_functional.h"

#include <initializer_list>

#include "models/npu/npu_post_op.h"

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
  const NpuError invalid = type->layer->validate(d);
  if (invalid != kNpuOk) return invalid;
  const NpuError post_op = validate_post_op(d);
  if (post_op != kNpuOk) return post_op;
  // What the shape checks leave unbounded (docs/hardening.md, "Limits"): a weight matrix of
  // 2^16 x 2^16 (4 GiB), or billions of MACs computed inside one event. Operand sizes first:
  // once they are within the cap, the MAC count cannot overflow.
  for (const uint64_t bytes : operand_sizes(d).bytes) {
    if (bytes > npu_layer::kMaxOperandBytes) return kNpuBadShape;
  }
  return type->layer->macs(d) > npu_layer::kMaxLayerOperations ? kNpuBadShape : kNpuOk;
}

const char* operator_class(const LayerDescriptor& d) {
  for (const OpcodeClasses& c : kOpcodeClasses) {
    if (c.opcode != d.op) continue;
    const bool depthwise = d.in1_shape[1] == 1 && d.in_shape[1] > 1 &&
                           d.in_shape[1] == d.out_shape[1];
    return c.second != nullptr && depthwise ? c.second : c.first;
  }
  return nullptr;
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes = layer_of(d).operand_sizes(d);
  sizes.bytes[kAddrTable] = post_op_table_bytes(d);
  return sizes;
}

uint64_t layer_macs(const LayerDescriptor& d) {
  return layer_of(d).macs(d);
}

NpuError execute_layer(const LayerDescriptor& d, const NpuOperands& ops) {
  const NpuError e = layer_of(d).execute(d, ops);
  if (e == kNpuOk) apply_post_op(d, ops);
  return e;
}

}  // namespace socsim
