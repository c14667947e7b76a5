// The instructions of the CV32E40P (RV32IMC + Zicsr + Zifencei, machine mode), tabled once:
// one line per instruction with its name and 32-bit encoding (bits under `mask` equal `match`),
// as listed in the RISC-V unprivileged specification ("RV32/64G Instruction Set Listings") and
// the privileged specification (mret, wfi). Compressed instructions are expanded to these
// before decoding (rv32_compressed.cpp).
//
// The table is an X-macro: SOCSIM_RV32_OPCODES(X) calls X(Name, "mnemonic", mask, match) for
// every instruction; the Op enumeration, the mnemonics and the decoder are generated from it.
#pragma once

#include <cstdint>

#define SOCSIM_RV32_OPCODES(X)                          \
  /* RV32I */                                            \
  X(Lui, "lui", 0x0000007Fu, 0x00000037u)                \
  X(Auipc, "auipc", 0x0000007Fu, 0x00000017u)            \
  X(Jal, "jal", 0x0000007Fu, 0x0000006Fu)                \
  X(Jalr, "jalr", 0x0000707Fu, 0x00000067u)              \
  X(Beq, "beq", 0x0000707Fu, 0x00000063u)                \
  X(Bne, "bne", 0x0000707Fu, 0x00001063u)                \
  X(Blt, "blt", 0x0000707Fu, 0x00004063u)                \
  X(Bge, "bge", 0x0000707Fu, 0x00005063u)                \
  X(Bltu, "bltu", 0x0000707Fu, 0x00006063u)              \
  X(Bgeu, "bgeu", 0x0000707Fu, 0x00007063u)              \
  X(Lb, "lb", 0x0000707Fu, 0x00000003u)                  \
  X(Lh, "lh", 0x0000707Fu, 0x00001003u)                  \
  X(Lw, "lw", 0x0000707Fu, 0x00002003u)                  \
  X(Lbu, "lbu", 0x0000707Fu, 0x00004003u)                \
  X(Lhu, "lhu", 0x0000707Fu, 0x00005003u)                \
  X(Sb, "sb", 0x0000707Fu, 0x00000023u)                  \
  X(Sh, "sh", 0x0000707Fu, 0x00001023u)                  \
  X(Sw, "sw", 0x0000707Fu, 0x00002023u)                  \
  X(Addi, "addi", 0x0000707Fu, 0x00000013u)              \
  X(Slti, "slti", 0x0000707Fu, 0x00002013u)              \
  X(Sltiu, "sltiu", 0x0000707Fu, 0x00003013u)            \
  X(Xori, "xori", 0x0000707Fu, 0x00004013u)              \
  X(Ori, "ori", 0x0000707Fu, 0x00006013u)                \
  X(Andi, "andi", 0x0000707Fu, 0x00007013u)              \
  X(Slli, "slli", 0xFE00707Fu, 0x00001013u)              \
  X(Srli, "srli", 0xFE00707Fu, 0x00005013u)              \
  X(Srai, "srai", 0xFE00707Fu, 0x40005013u)              \
  X(Add, "add", 0xFE00707Fu, 0x00000033u)                \
  X(Sub, "sub", 0xFE00707Fu, 0x40000033u)                \
  X(Sll, "sll", 0xFE00707Fu, 0x00001033u)                \
  X(Slt, "slt", 0xFE00707Fu, 0x00002033u)                \
  X(Sltu, "sltu", 0xFE00707Fu, 0x00003033u)              \
  X(Xor, "xor", 0xFE00707Fu, 0x00004033u)                \
  X(Srl, "srl", 0xFE00707Fu, 0x00005033u)                \
  X(Sra, "sra", 0xFE00707Fu, 0x40005033u)                \
  X(Or, "or", 0xFE00707Fu, 0x00006033u)                  \
  X(And, "and", 0xFE00707Fu, 0x00007033u)                \
  X(Fence, "fence", 0x0000707Fu, 0x0000000Fu)            \
  X(FenceI, "fence.i", 0x0000707Fu, 0x0000100Fu)         \
  X(Ecall, "ecall", 0xFFFFFFFFu, 0x00000073u)            \
  X(Ebreak, "ebreak", 0xFFFFFFFFu, 0x00100073u)          \
  /* RV32M */                                            \
  X(Mul, "mul", 0xFE00707Fu, 0x02000033u)                \
  X(Mulh, "mulh", 0xFE00707Fu, 0x02001033u)              \
  X(Mulhsu, "mulhsu", 0xFE00707Fu, 0x02002033u)          \
  X(Mulhu, "mulhu", 0xFE00707Fu, 0x02003033u)            \
  X(Div, "div", 0xFE00707Fu, 0x02004033u)                \
  X(Divu, "divu", 0xFE00707Fu, 0x02005033u)              \
  X(Rem, "rem", 0xFE00707Fu, 0x02006033u)                \
  X(Remu, "remu", 0xFE00707Fu, 0x02007033u)              \
  /* Zicsr */                                            \
  X(Csrrw, "csrrw", 0x0000707Fu, 0x00001073u)            \
  X(Csrrs, "csrrs", 0x0000707Fu, 0x00002073u)            \
  X(Csrrc, "csrrc", 0x0000707Fu, 0x00003073u)            \
  X(Csrrwi, "csrrwi", 0x0000707Fu, 0x00005073u)          \
  X(Csrrsi, "csrrsi", 0x0000707Fu, 0x00006073u)          \
  X(Csrrci, "csrrci", 0x0000707Fu, 0x00007073u)          \
  /* privileged */                                       \
  X(Mret, "mret", 0xFFFFFFFFu, 0x30200073u)              \
  X(Wfi, "wfi", 0xFFFFFFFFu, 0x10500073u)

namespace socsim {

/// One value per instruction of the table, plus kIllegal for everything else.
enum class Op : uint8_t {
#define SOCSIM_RV32_OP_ENUM(name, mnemonic, mask, match) k##name,
  SOCSIM_RV32_OPCODES(SOCSIM_RV32_OP_ENUM)
#undef SOCSIM_RV32_OP_ENUM
  kIllegal,
};

constexpr unsigned kOpCount = static_cast<unsigned>(Op::kIllegal) + 1;

/// "addi", "csrrw", ...; "illegal" for Op::kIllegal.
const char* mnemonic(Op op);

}  // namespace socsim
