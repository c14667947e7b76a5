// A layer's post-processing stage: the lookup unit applied to a layer's requantised output
// (descriptor `post_op`, NVDLA SDP's LUT after its requantisation). The descriptor names the
// lookup layer whose operator the stage runs (its opcode; the preset must list its class) and
// carries the compiler's 256-entry table in the `table` slot; the layer's output is the table
// of its requantised values. Only layers with a requantised output stage (convolution, fully
// connected, add, mul) take one.
#pragma once

#include "firmware/abi/generated/npu_descriptor.h"
#include "models/npu/npu_layer.h"

namespace socsim {

struct NpuConfig;
struct LayerPlan;

/// kNpuOk when the descriptor has no post-op or a valid one; kNpuBadArgs when `post_op` is no
/// lookup layer or the layer has no requantised output stage.
npu::NpuError validate_post_op(const npu::LayerDescriptor& d);

/// The preset operator class of a valid descriptor's post-op ("sigmoid", ...), or nullptr.
const char* post_op_class(const npu::LayerDescriptor& d);

/// The report name of a valid descriptor's post-op ("Sigmoid", ...), or "".
const char* post_op_report_name(const npu::LayerDescriptor& d);

/// The table's bytes (kLookupTableSize with a post-op, else 0).
uint64_t post_op_table_bytes(const npu::LayerDescriptor& d);

/// Applies a valid descriptor's post-op to the layer's output, in place.
void apply_post_op(const npu::LayerDescriptor& d, const NpuOperands& ops);

/// The stage's cost in a layer's plan: the table is read once per core with the first tile
/// and loaded into the lookup unit (`lut_cycles`) before it computes; the lookup itself is
/// pipelined behind the requantisation (no cycles per element).
void plan_post_op(const NpuConfig& config, const npu::LayerDescriptor& d, LayerPlan* plan);

}  // namespace socsim
