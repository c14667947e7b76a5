// The "cpu-packed" delegate backend: int8 elementwise add on four bytes per 32-bit word
// (SIMD within a register, plain RV32IM instructions), wrapping modulo 256 like the
// portable int8 add without quantisation.
//
// Blob: the record cpu_packed_blob of firmware/abi/generated/program_layout.h (magic "CPK1",
// version, op = add, element count), written by the compiler's --delegate cpu-packed. The
// delegate call has two int8 inputs and one int8 output of exactly `elements` elements.
#pragma once

#include <stdint.h>

namespace socsim::delegates {

constexpr const char* kCpuPackedBackendId = "cpu-packed";
/// Its id in an ExecuTorch program (the backend class of scripts/socsim_executorch).
constexpr const char* kCpuPackedExecutorchBackendId = "SocsimCpuPackedBackend";

/// Adds n int8 values wrapping modulo 256, four per word where the pointers allow.
void cpu_packed_add_i8(const int8_t* a, const int8_t* b, int8_t* out, uint32_t n);

}  // namespace socsim::delegates
