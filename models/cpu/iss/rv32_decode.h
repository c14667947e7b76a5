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

/// What the legality of F instructions depends on: the FPU's presence (a core parameter),
/// mstatus.FS (Off: every F instruction and fflags/frm/fcsr access is illegal) and frm (an
/// instruction with the dynamic rounding mode is illegal while frm holds 5..7).
/// With `zfinx` (ZFINX = 1) the F instructions use the x registers: flw, fsw, fmv.x.w,
/// fmv.w.x and the compressed F loads and stores are illegal, and FS never makes anything
/// illegal (`fs_on` is then true).
struct FpDecodeState {
  bool fpu = false;
  bool fs_on = false;
  uint8_t frm = 0;
  bool zfinx = false;
  /// A small number that differs whenever decoding may differ (0 without the FPU).
  uint8_t key() const {
    return fpu ? static_cast<uint8_t>(0x10 | (zfinx ? 0x20 : 0) | (fs_on ? 8 : 0) | frm) : 0;
  }
};

/// Decodes an instruction as fetched: a 32-bit one, or a 16-bit one in the low half. Without
/// `fp.fpu` every F instruction (and c.flw, c.fsw, c.flwsp, c.fswsp) is illegal; with
/// `fp.zfinx` those that move F registers (flw, fsw, fmv.x.w, fmv.w.x, the compressed ones).
DecodedInsn decode(uint32_t raw, FpDecodeState fp = {});

/// Expands a 16-bit RVC instruction to its 32-bit equivalent; 0 if illegal. With `fpu` the
/// single-precision loads and stores (c.flw, c.fsw, c.flwsp, c.fswsp) expand too.
uint32_t expand_compressed(uint16_t c, bool fpu = false);

}  // namespace socsim
