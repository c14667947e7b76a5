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
  X(Wfi, "wfi", 0xFFFFFFFFu, 0x10500073u)              \
  SOCSIM_RV32F_OPCODES(X)

// RV32F, legal only on a core built with its FPU (IssConfig::fpu) while mstatus.FS is not Off.
// The fused multiply-adds match rs3 and rm in any value; rm is checked by the decoder.
#define SOCSIM_RV32F_OPCODES(X)                          \
  X(Flw, "flw", 0x0000707Fu, 0x00002007u)                \
  X(Fsw, "fsw", 0x0000707Fu, 0x00002027u)                \
  X(FmaddS, "fmadd.s", 0x0600007Fu, 0x00000043u)         \
  X(FmsubS, "fmsub.s", 0x0600007Fu, 0x00000047u)         \
  X(FnmsubS, "fnmsub.s", 0x0600007Fu, 0x0000004Bu)       \
  X(FnmaddS, "fnmadd.s", 0x0600007Fu, 0x0000004Fu)       \
  X(FaddS, "fadd.s", 0xFE00007Fu, 0x00000053u)           \
  X(FsubS, "fsub.s", 0xFE00007Fu, 0x08000053u)           \
  X(FmulS, "fmul.s", 0xFE00007Fu, 0x10000053u)           \
  X(FdivS, "fdiv.s", 0xFE00007Fu, 0x18000053u)           \
  X(FsqrtS, "fsqrt.s", 0xFFF0007Fu, 0x58000053u)         \
  X(FsgnjS, "fsgnj.s", 0xFE00707Fu, 0x20000053u)         \
  X(FsgnjnS, "fsgnjn.s", 0xFE00707Fu, 0x20001053u)       \
  X(FsgnjxS, "fsgnjx.s", 0xFE00707Fu, 0x20002053u)       \
  X(FminS, "fmin.s", 0xFE00707Fu, 0x28000053u)           \
  X(FmaxS, "fmax.s", 0xFE00707Fu, 0x28001053u)           \
  X(FcvtWS, "fcvt.w.s", 0xFFF0007Fu, 0xC0000053u)        \
  X(FcvtWuS, "fcvt.wu.s", 0xFFF0007Fu, 0xC0100053u)      \
  X(FmvXW, "fmv.x.w", 0xFFF0707Fu, 0xE0000053u)          \
  X(FeqS, "feq.s", 0xFE00707Fu, 0xA0002053u)             \
  X(FltS, "flt.s", 0xFE00707Fu, 0xA0001053u)             \
  X(FleS, "fle.s", 0xFE00707Fu, 0xA0000053u)             \
  X(FclassS, "fclass.s", 0xFFF0707Fu, 0xE0001053u)       \
  X(FcvtSW, "fcvt.s.w", 0xFFF0007Fu, 0xD0000053u)        \
  X(FcvtSWu, "fcvt.s.wu", 0xFFF0007Fu, 0xD0100053u)      \
  X(FmvWX, "fmv.w.x", 0xFFF0707Fu, 0xF0000053u)

namespace socsim {

/// One value per instruction of the table, plus kIllegal for everything else.
enum class Op : uint8_t {
#define SOCSIM_RV32_OP_ENUM(name, mnemonic, mask, match) k##name,
  SOCSIM_RV32_OPCODES(SOCSIM_RV32_OP_ENUM)
#undef SOCSIM_RV32_OP_ENUM
  kIllegal,
};

constexpr unsigned kOpCount = static_cast<unsigned>(Op::kIllegal) + 1;

/// The RV32F instructions are the last ones of the table, from flw to fmv.w.x.
constexpr bool is_float_op(Op op) { return op >= Op::kFlw && op <= Op::kFmvWX; }
/// F instructions whose result goes to an F register (the others write an x register or none).
constexpr bool writes_f_register(Op op) {
  return is_float_op(op) && op != Op::kFsw && op != Op::kFcvtWS && op != Op::kFcvtWuS &&
         op != Op::kFmvXW && op != Op::kFeqS && op != Op::kFltS && op != Op::kFleS &&
         op != Op::kFclassS;
}

/// "addi", "csrrw", ...; "illegal" for Op::kIllegal.
const char* mnemonic(Op op);

}  // namespace socsim
