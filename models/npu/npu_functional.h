// The NPU's functional model: executes one layer descriptor on operand buffers with the int8
// arithmetic of the firmware's CPU kernels (docs/runtime.md, "Integer arithmetic"), so that
// NPU and CPU results are equal bit for bit. Pure C++, no SystemC.
#pragma once

#include <cstdint>

#include "models/npu/npu_interface.h"

namespace socsim {

/// Bytes of each operand of a layer (0 when the operator has no such operand).
struct NpuOperandSizes {
  uint64_t bytes[npu::kAddrCount] = {};
};

/// Operand buffers, indexed like LayerDescriptor::addr.
struct NpuOperands {
  const int8_t* input = nullptr;
  const int8_t* weights = nullptr;  ///< or the second input of add/mul
  const int32_t* bias = nullptr;
  const int32_t* requant = nullptr;  ///< [out_channels][2]: multiplier, shift
  int8_t* output = nullptr;
};

/// Checks a descriptor's operator, dtype, shapes and geometry; kNpuOk or the error.
npu::NpuError validate_layer(const npu::LayerDescriptor& d);

/// Operand sizes of a valid descriptor.
NpuOperandSizes operand_sizes(const npu::LayerDescriptor& d);

/// Multiply-accumulates of a layer (0 for operators that use no MACs).
uint64_t layer_macs(const npu::LayerDescriptor& d);

/// Runs a layer validated by validate_layer(). Returns kNpuBadArgs for quantisation
/// arguments the kernels would reject (multipliers, shifts, bounds).
npu::NpuError execute_layer(const npu::LayerDescriptor& d, const NpuOperands& ops);

}  // namespace socsim
