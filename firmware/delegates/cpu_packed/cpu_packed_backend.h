// The "cpu-packed" delegate backend: int8 elementwise add on four bytes per 32-bit word
// (SIMD within a register, plain RV32IM instructions), wrapping modulo 256 like the
// portable int8 add without quantisation.
//
// Blob layout (16 bytes, little-endian), written by the compiler's --delegate cpu-packed:
//   0x00 magic "CPK1"   0x04 u32 version = 1   0x08 u32 op = 1 (add)   0x0C u32 elements
// The delegate call has two int8 inputs and one int8 output of exactly `elements` elements.
#pragma once

#include <stdint.h>

namespace socsim::delegates {

constexpr const char* kCpuPackedBackendId = "cpu-packed";
constexpr uint32_t kCpuPackedBlobSize = 16;
constexpr uint32_t kCpuPackedVersion = 1;
constexpr uint32_t kCpuPackedOpAdd = 1;

/// Adds n int8 values wrapping modulo 256, four per word where the pointers allow.
void cpu_packed_add_i8(const int8_t* a, const int8_t* b, int8_t* out, uint32_t n);

}  // namespace socsim::delegates
