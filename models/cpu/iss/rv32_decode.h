// Instruction decoding: raw bits as fetched -> a named opcode with its operand fields.
//
// The decoder follows the CV32E40P's: what it does not implement (other opcodes, reserved
// encodings, CSRs it does not have, writes to read-only CSRs) is Op::kIllegal, and an
// illegal instruction traps with cause 2.
#pragma once

#include <cstdint>

#include "models/cpu/iss/rv32_opcodes.h"

namespace socsim {

struct DecodedInsn {
  Op op = Op::kIllegal;
  /// Register fields of the 32-bit (for RVC: expanded) encoding, bits 11:7, 19:15 and 24:20,
  /// whatever the format (the hardware's decoder reads them so too). For csrr*i, rs1 is the
  /// immediate.
  uint8_t rd = 0, rs1 = 0, rs2 = 0;
  uint8_t length = 4;  ///< 2 for a compressed instruction
  int32_t imm = 0;     ///< the immediate of the format (I, S, B, U, J); CSR: its address
  uint32_t bits = 0;   ///< the 32-bit (expanded) encoding; the raw bits if illegal
};

/// Decodes an instruction as fetched: a 32-bit one, or a 16-bit one in the low half.
DecodedInsn decode(uint32_t raw);

/// Expands a 16-bit RVC instruction to its 32-bit equivalent; 0 if illegal.
uint32_t expand_compressed(uint16_t c);

}  // namespace socsim
