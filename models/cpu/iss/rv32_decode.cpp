#include "models/cpu/iss/rv32_decode.h"

#include "models/cpu/iss/rv32_csr.h"

namespace socsim {
namespace {

struct Encoding {
  Op op;
  uint32_t mask, match;
};

constexpr Encoding kEncodings[] = {
#define SOCSIM_RV32_ENCODING(name, mnemonic, mask, match) {Op::k##name, mask, match},
    SOCSIM_RV32_OPCODES(SOCSIM_RV32_ENCODING)
#undef SOCSIM_RV32_ENCODING
};

constexpr const char* kMnemonics[kOpCount] = {
#define SOCSIM_RV32_MNEMONIC(name, mnemonic, mask, match) mnemonic,
    SOCSIM_RV32_OPCODES(SOCSIM_RV32_MNEMONIC)
#undef SOCSIM_RV32_MNEMONIC
    "illegal",
};

uint32_t bits(uint32_t v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
int32_t sext(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return static_cast<int32_t>((v ^ m) - m);
}

// The immediate of the instruction's format, by major opcode (unprivileged spec, "Immediate
// Encoding Variants").
int32_t immediate(uint32_t i) {
  switch (i & 0x7F) {
    case 0x37:
    case 0x17:  // U
      return static_cast<int32_t>(i & 0xFFFFF000u);
    case 0x6F:  // J
      return sext((bits(i, 31, 31) << 20) | (bits(i, 19, 12) << 12) | (bits(i, 20, 20) << 11) |
                      (bits(i, 30, 21) << 1),
                  21);
    case 0x63:  // B
      return sext((bits(i, 31, 31) << 12) | (bits(i, 7, 7) << 11) | (bits(i, 30, 25) << 5) |
                      (bits(i, 11, 8) << 1),
                  13);
    case 0x23:  // S
    case 0x27:  // S (fsw)
      return sext((bits(i, 31, 25) << 5) | bits(i, 11, 7), 12);
    case 0x73:  // CSR address
      return static_cast<int32_t>(i >> 20);
    default:  // I
      return static_cast<int32_t>(i) >> 20;
  }
}

bool is_csr_op(Op op) { return op >= Op::kCsrrw && op <= Op::kCsrrci; }

}  // namespace

const char* mnemonic(Op op) { return kMnemonics[static_cast<unsigned>(op)]; }

DecodedInsn decode(uint32_t raw, FpDecodeState fp) {
  DecodedInsn d;
  uint32_t i = raw;
  if ((raw & 3) != 3) {
    d.length = 2;
    raw &= 0xFFFF;
    i = expand_compressed(static_cast<uint16_t>(raw), fp.fpu && !fp.zfinx);
  }
  d.bits = i != 0 ? i : raw;
  d.rd = static_cast<uint8_t>(bits(d.bits, 11, 7));
  d.rs1 = static_cast<uint8_t>(bits(d.bits, 19, 15));
  d.rs2 = static_cast<uint8_t>(bits(d.bits, 24, 20));
  if (i == 0) return d;  // reserved compressed encoding
  for (const Encoding& e : kEncodings) {
    if ((i & e.mask) == e.match) {
      d.op = e.op;
      break;
    }
  }
  d.imm = immediate(i);
  if (is_csr_op(d.op)) {
    // csrrs/csrrc (and the immediate forms) with rs1 = x0 only read.
    const bool writes = d.op == Op::kCsrrw || d.op == Op::kCsrrwi || d.rs1 != 0;
    const uint32_t addr = i >> 20;
    const bool fp_csr = csr::is_float_csr(addr);
    if (fp_csr ? !(fp.fpu && fp.fs_on)
               : (!csr::csr_exists(addr) || (writes && csr::csr_read_only(addr)))) {
      d.op = Op::kIllegal;
    }
  }
  if (is_float_op(d.op)) {
    // The rounding mode of the instructions that round (bits 14:12): 5 and 6 are reserved,
    // 7 takes frm, which must then hold one of the five modes.
    const Op op = d.op;
    const bool rounds = op >= Op::kFmaddS && op <= Op::kFsqrtS ? true
                        : op == Op::kFcvtWS || op == Op::kFcvtWuS || op == Op::kFcvtSW ||
                              op == Op::kFcvtSWu;
    const uint32_t rm = bits(i, 14, 12);
    if (!fp.fpu || !fp.fs_on) d.op = Op::kIllegal;
    // Zfinx: no F registers to load, store or move (cv32e40p_decoder.sv).
    if (fp.zfinx && (op == Op::kFlw || op == Op::kFsw || op == Op::kFmvXW || op == Op::kFmvWX)) {
      d.op = Op::kIllegal;
    }
    if (rounds && (rm == 5 || rm == 6 || (rm == 7 && fp.frm > 4))) d.op = Op::kIllegal;
  }
  return d;
}

}  // namespace socsim
