// The NPU functional model's fast int8 kernels: convolutions and fully connected layers as
// a channels-last im2col and a blocked int16 GEMM that the host compiler vectorises (with
// clones for the host's vector instruction sets), depthwise and small-group convolutions as
// passes over whole planes split into their stride phases, and the firmware's own
// requantisation (firmware/int8/arithmetic.h) on every output.
//
// The results are those of the reference loops (firmware/int8/conv_loops.h) bit for bit:
// every term (x - zp_in) * w is the same int32 value (padding contributes nothing, as the
// reference skips it), and callers have checked that no int32 sum of bias and terms can
// overflow (kernels::accumulators_fit), so the order in which the terms are added does not
// change the accumulator. The firmware keeps the reference loops (they are what runs on the
// RISC-V target); models/npu/test/fast_kernels_test.cpp holds the two together.
//
// Host-only: allocates its scratch buffers on the heap.
#pragma once

#include <cstdint>

#include "firmware/int8/conv_loops.h"

namespace socsim::npu_fast {

/// Equals kernels::conv_q8 (the same arguments and preconditions).
void conv_q8(const kernels::ConvGeometry& g, const int8_t* x, const int8_t* w, const int32_t* bias,
             const int32_t* requant, int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi,
             int8_t* y);

/// The same for uint8 activations (a model's integer input) with zp_in in [0, 255]: equals
/// the int8 convolution of x - 128 with zp_in - 128.
void conv_q8(const kernels::ConvGeometry& g, const uint8_t* x, const int8_t* w, const int32_t* bias,
             const int32_t* requant, int32_t zp_in, int32_t zp_out, int32_t lo, int32_t hi,
             int8_t* y);

/// Equals kernels::fully_connected_i8 (the same arguments and preconditions).
void fully_connected_i8(uint32_t rows, uint32_t in, uint32_t out, const int8_t* x, const int8_t* w,
                        const int32_t* bias, const int32_t* requant, int32_t zp_in, int32_t zp_out,
                        int32_t lo, int32_t hi, int8_t* y);

}  // namespace socsim::npu_fast
