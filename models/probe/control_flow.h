// What a retired instruction does to the flow of control, as the call tracker needs it:
// calls (jal/jalr linking ra or t0), returns (jalr x0 through ra or t0), plain jumps (which
// may be tail calls), mret, and everything else. Decodes both 32-bit and compressed forms
// from the retire record's raw instruction bits.
#pragma once

#include <cstdint>

namespace socsim {

enum class FlowKind : uint8_t {
  kOther,   ///< no change of function: ALU, loads, stores, branches
  kCall,    ///< jal/jalr/c.jal/c.jalr writing a link register (x1 or x5)
  kReturn,  ///< jalr/c.jr with rd = x0 through a link register
  kJump,    ///< jal/jalr/c.j/c.jr with rd = x0 not through a link register
  kMret,    ///< return from a trap handler
};

/// Classifies raw instruction bits (16-bit instructions zero-extended), following the
/// return-address-stack hints of the RISC-V unprivileged specification.
constexpr FlowKind classify_flow(uint32_t insn) {
  auto is_link = [](uint32_t r) { return r == 1 || r == 5; };
  if ((insn & 3) == 3) {
    const uint32_t opcode = insn & 0x7F;
    const uint32_t rd = (insn >> 7) & 0x1F;
    if (opcode == 0x6F) return is_link(rd) ? FlowKind::kCall : FlowKind::kJump;
    if (opcode == 0x67) {
      const uint32_t rs1 = (insn >> 15) & 0x1F;
      if (is_link(rd)) return FlowKind::kCall;
      if (rd == 0 && is_link(rs1)) return FlowKind::kReturn;
      return FlowKind::kJump;
    }
    if (insn == 0x30200073) return FlowKind::kMret;
    return FlowKind::kOther;
  }
  const uint32_t op = insn & 3;
  const uint32_t funct3 = (insn >> 13) & 7;
  if (op == 1 && funct3 == 1) return FlowKind::kCall;  // c.jal (RV32)
  if (op == 1 && funct3 == 5) return FlowKind::kJump;  // c.j
  if (op == 2 && funct3 == 4) {
    const uint32_t bit12 = (insn >> 12) & 1;
    const uint32_t rs1 = (insn >> 7) & 0x1F;
    const uint32_t rs2 = (insn >> 2) & 0x1F;
    if (rs2 != 0 || rs1 == 0) return FlowKind::kOther;          // c.mv, c.add, c.ebreak
    if (bit12) return FlowKind::kCall;                          // c.jalr
    return is_link(rs1) ? FlowKind::kReturn : FlowKind::kJump;  // c.jr
  }
  return FlowKind::kOther;
}

/// False when classify_flow(insn) is certainly kOther: a cheap filter for the per-instruction
/// path, which sees a transfer only every few instructions. True for every major opcode or
/// compressed quadrant/funct3 that holds a jump, call, return or mret (SYSTEM included, so
/// ecall, csr* and wfi also pass, and c.ebreak: the caller then classifies them fully).
constexpr bool may_transfer(uint32_t insn) {
  // One bit per key: compressed forms use (quadrant << 3 | funct3), 0..23; 32-bit forms use
  // 32 + opcode[6:2].
  constexpr uint64_t kTransfers = (1ull << (1 << 3 | 1))    // c.jal
                                  | (1ull << (1 << 3 | 5))  // c.j
                                  | (1ull << (2 << 3 | 4))  // c.jr, c.jalr
                                  | (1ull << (32 + 0x19))   // jalr
                                  | (1ull << (32 + 0x1B))   // jal
                                  | (1ull << (32 + 0x1C));  // SYSTEM (mret)
  const unsigned key =
      (insn & 3) == 3 ? 32 + ((insn >> 2) & 0x1F) : ((insn & 3) << 3) | ((insn >> 13) & 7);
  if (((kTransfers >> key) & 1) == 0) return false;
  // c.mv and c.add, frequent in loops, share c.jr's funct3; c.jr and c.jalr have rs2 = 0.
  return (insn & 3) != 2 || (insn & 0x7C) == 0;
}

}  // namespace socsim
