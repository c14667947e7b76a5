// The int8 table lookup of the quantised nonlinearities (sigmoid, tanh, hardswish, ...): the
// compiler computes, from the input's and the output's quantisation, the output value of
// every int8 input value (a 256-entry table, docs/runtime.md), so no floating point runs on
// the core or the NPU. The CPU kernels, the NPU's lookup layers and the NPU's fused lookup
// stage after a convolution or an add (models/npu/) all call this one definition.
//
// Freestanding: <stdint.h> only, no runtime types.
#pragma once

#include <stdint.h>

namespace socsim::kernels {

/// Entries of a lookup table: one per int8 value, table[q + 128] for q in [-128, 127].
constexpr uint32_t kLookupTableSize = 256;

/// y[i] = table[x[i] + 128] for i < n. x and y may be the same buffer (in place).
inline void lookup_i8(const int8_t* table, const int8_t* x, int8_t* y, uint32_t n) {
  const int8_t* centre = table + 128;  // indexed by the value itself
  for (uint32_t i = 0; i < n; ++i) y[i] = centre[x[i]];
}

}  // namespace socsim::kernels
