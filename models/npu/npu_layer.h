// The NPU's layer types: one entry per opcode of the operator schema, holding everything the
// model knows about that layer (checks, operand sizes, MAC count, functional execution,
// timing plan, the fused activation for the report). The table that maps opcodes to entries
// and report names is generated from the schema (SOCSIM_NPU_LAYERS in
// firmware/abi/generated/npu_descriptor.h); each entry is defined in
// models/npu/layers/<source>.cpp as kNpuLayer<Operator> (docs/extending.md).
//
// The functional entries compute with the firmware kernels' own loops and arithmetic
// (firmware/kernels/*_loops.h, arithmetic.h), so NPU and CPU results are equal bit for bit.
#pragma once

#include <cstdint>

#include "firmware/abi/generated/npu_descriptor.h"
#include "firmware/abi/generated/operators.h"
#include "firmware/abi/npu_registers.h"
#include "firmware/int8/arithmetic.h"

namespace socsim {

struct NpuConfig;
struct LayerPlan;

/// Bytes of each operand of a layer (0 when the operator has no such operand).
struct NpuOperandSizes {
  uint64_t bytes[npu::kAddrCount] = {};
};

/// Operand buffers, indexed like LayerDescriptor::addr.
struct NpuOperands {
  const int8_t* input = nullptr;
  const int8_t* weights = nullptr;  ///< or the second input of add/mul, or a table
  const int32_t* bias = nullptr;
  const int32_t* requant = nullptr;  ///< [out_channels][2]: multiplier, shift
  int8_t* output = nullptr;
  const int8_t* table = nullptr;  ///< the post-op's lookup table (npu_post_op.h)
};

/// A fused activation: the output bounds and zero point of a layer that clamps its output.
struct NpuOutputBounds {
  int32_t zero_point = 0;
  int32_t lo = -128;
  int32_t hi = 127;
};

/// What the model knows about one layer type. `validate` runs after the common checks of
/// validate_layer() (opcode, dtype, argument count within the descriptor, 4-D shapes within
/// limits); the other functions are called only on descriptors it accepted.
struct NpuLayer {
  npu::NpuError (*validate)(const npu::LayerDescriptor& d);
  NpuOperandSizes (*operand_sizes)(const npu::LayerDescriptor& d);
  uint64_t (*macs)(const npu::LayerDescriptor& d);
  /// kNpuBadArgs for operand data the kernels would reject (multipliers, shifts, biases).
  npu::NpuError (*execute)(const npu::LayerDescriptor& d, const NpuOperands& ops);
  /// The timing plan (mac_array_timing.h); plan->op_type holds the report name and may be
  /// refined (e.g. DepthwiseConv).
  void (*plan)(const NpuConfig& config, const npu::LayerDescriptor& d, LayerPlan* plan);
  /// Fills the output bounds of a layer with a fused activation; false when it has none.
  bool (*output_bounds)(const npu::LayerDescriptor& d, NpuOutputBounds* bounds);
  /// True for the lookup layers, whose operator a post-op stage may run (npu_post_op.h).
  bool table_lookup = false;
};

/// An opcode, its report name, its entry and the input element types it reads (those the
/// operator schema gives a kernel: int8, and uint8 for a convolution reading a model's integer
/// input; a descriptor's `dtype` is its input's) - the generated table.
struct NpuLayerType {
  uint8_t opcode;
  const char* report_name;
  const NpuLayer* layer;
  bool (*reads)(uint8_t dtype);
};

/// The layer type of an opcode, or nullptr.
const NpuLayerType* find_npu_layer(uint8_t opcode);

// ---- helpers of the entries -----------------------------------------------------------------

namespace npu_layer {

/// Caps of validate_layer() on every layer (docs/hardening.md, "Limits"): bytes of each
/// operand, and the MACs (or, for pooling, window elements visited) of one layer. Layers of real
/// networks are far below them (VGG-16's largest convolution: 1.85 x 10^9 MACs).
constexpr uint64_t kMaxOperandBytes = uint64_t{1} << 28;
constexpr uint64_t kMaxLayerOperations = uint64_t{1} << 32;

inline uint64_t numel(const uint32_t* shape) {
  return uint64_t{shape[0]} * shape[1] * shape[2] * shape[3];
}
inline bool same_shape(const uint32_t* a, const uint32_t* b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}
inline int32_t s32(uint32_t v) {
  return static_cast<int32_t>(v);
}

/// Input and output, nothing else: the operand sizes of single-input layers.
inline NpuOperandSizes input_output_sizes(const npu::LayerDescriptor& d) {
  NpuOperandSizes sizes;
  sizes.bytes[npu::kAddrInput] = numel(d.in_shape);
  sizes.bytes[npu::kAddrOutput] = numel(d.out_shape);
  return sizes;
}

/// The operands of a layer on the MAC array: input, int8 weights (in1_shape), int32 bias and
/// the int32 [channels][2] requantisation table, one per output channel (out_shape[1]).
inline NpuOperandSizes weighted_operand_sizes(const npu::LayerDescriptor& d) {
  NpuOperandSizes sizes = input_output_sizes(d);
  sizes.bytes[npu::kAddrWeights] = numel(d.in1_shape);
  sizes.bytes[npu::kAddrBias] = 4ull * d.out_shape[1];
  sizes.bytes[npu::kAddrRequant] = 8ull * d.out_shape[1];
  return sizes;
}

/// The zero points and output bounds of an operator whose arguments name zp_in, zp_out,
/// act_min and act_max are in range (the kernels' checks; zp_in 0..255 for a uint8 input).
template <typename Op>
npu::NpuError check_requantised_output(const npu::LayerDescriptor& d) {
  const typename Op::Args a(d.args);
  const bool valid_in = d.dtype == npu::kDtypeUInt8
                            ? kernels::valid_input_zero_point<uint8_t>(a.zp_in())
                            : kernels::valid_zero_point(a.zp_in());
  const bool valid = valid_in &&
                     kernels::valid_zero_point(a.zp_out()) &&
                     kernels::valid_bounds(a.act_min(), a.act_max());
  return valid ? npu::kNpuOk : npu::kNpuBadArgs;
}

inline uint64_t no_macs(const npu::LayerDescriptor&) {
  return 0;
}
inline bool no_bounds(const npu::LayerDescriptor&, NpuOutputBounds*) {
  return false;
}

/// Output bounds of an operator whose arguments name zp_out, act_min and act_max.
template <typename Op>
bool bounds_of(const npu::LayerDescriptor& d, NpuOutputBounds* b) {
  const typename Op::Args a(d.args);
  *b = {a.zp_out(), a.act_min(), a.act_max()};
  return true;
}

}  // namespace npu_layer
}  // namespace socsim
