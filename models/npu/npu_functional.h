// The NPU's functional model: checks and executes one layer descriptor with the int8
// arithmetic of the firmware's CPU kernels (docs/runtime.md, "Integer arithmetic"), so that
// NPU and CPU results are equal bit for bit. Each opcode's part is its layer entry
// (npu_layer.h); these functions do the common checks and dispatch. Pure C++, no SystemC.
#pragma once

#include <cstdint>

#include "models/npu/npu_layer.h"

namespace socsim {

/// Checks a descriptor's operator, dtype, shapes and geometry; kNpuOk or the error.
npu::NpuError validate_layer(const npu::LayerDescriptor& d);

/// Operand sizes of a valid descriptor.
NpuOperandSizes operand_sizes(const npu::LayerDescriptor& d);

/// Multiply-accumulates of a valid layer (0 for operators that use no MACs).
uint64_t layer_macs(const npu::LayerDescriptor& d);

/// Runs a layer validated by validate_layer(). Returns kNpuBadArgs for operand data the
/// kernels would reject (multipliers, shifts, biases that could overflow).
npu::NpuError execute_layer(const npu::LayerDescriptor& d, const NpuOperands& ops);

}  // namespace socsim
