// RVC expansion: each RV32C instruction (with F: c.flw, c.fsw, c.flwsp, c.fswsp; no D) to the 32-bit instruction it stands
// for, following the table in chapter 16 of the RISC-V unprivileged specification.
#include <cstdint>

#include "models/cpu/iss/rv32_decode.h"

namespace socsim {
namespace {

constexpr uint32_t kOpImm = 0x13, kOpLui = 0x37, kOpLoad = 0x03, kOpStore = 0x23, kOp = 0x33,
                   kOpJal = 0x6f, kOpJalr = 0x67, kOpBranch = 0x63, kOpLoadFp = 0x07,
                   kStoreFpBit = 0x04;  // STORE-FP (0x27) is STORE (0x23) with bit 2 set

uint32_t bits(uint32_t v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
int32_t sext(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return static_cast<int32_t>((v ^ m) - m);
}

uint32_t enc_i(uint32_t op, uint32_t rd, uint32_t f3, uint32_t rs1, int32_t imm) {
  return (static_cast<uint32_t>(imm) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
uint32_t enc_s(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (bits(u, 11, 5) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (bits(u, 4, 0) << 7) |
         kOpStore;
}
uint32_t enc_r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | kOp;
}
uint32_t enc_j(uint32_t rd, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (bits(u, 20, 20) << 31) | (bits(u, 10, 1) << 21) | (bits(u, 11, 11) << 20) |
         (bits(u, 19, 12) << 12) | (rd << 7) | kOpJal;
}
uint32_t enc_b(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (bits(u, 12, 12) << 31) | (bits(u, 10, 5) << 25) | (rs2 << 20) | (rs1 << 15) |
         (f3 << 12) | (bits(u, 4, 1) << 8) | (bits(u, 11, 11) << 7) | kOpBranch;
}

int32_t cj_offset(uint32_t c) {
  const uint32_t v = (bits(c, 12, 12) << 11) | (bits(c, 11, 11) << 4) | (bits(c, 10, 9) << 8) |
                     (bits(c, 8, 8) << 10) | (bits(c, 7, 7) << 6) | (bits(c, 6, 6) << 7) |
                     (bits(c, 5, 3) << 1) | (bits(c, 2, 2) << 5);
  return sext(v, 12);
}
int32_t cb_offset(uint32_t c) {
  const uint32_t v = (bits(c, 12, 12) << 8) | (bits(c, 11, 10) << 3) | (bits(c, 6, 5) << 6) |
                     (bits(c, 4, 3) << 1) | (bits(c, 2, 2) << 5);
  return sext(v, 9);
}

}  // namespace

uint32_t expand_compressed(uint16_t half, bool fpu) {
  const uint32_t c = half;
  const uint32_t f3 = bits(c, 15, 13);
  const uint32_t rd = bits(c, 11, 7);       // also rs1 in quadrants 1/2
  const uint32_t rs2 = bits(c, 6, 2);
  const uint32_t rdp = bits(c, 4, 2) + 8;   // rd' / rs2'
  const uint32_t rs1p = bits(c, 9, 7) + 8;  // rs1' / rd'
  const int32_t imm6 = sext((bits(c, 12, 12) << 5) | bits(c, 6, 2), 6);

  switch (bits(c, 1, 0)) {
    case 0:
      switch (f3) {
        case 0: {  // c.addi4spn
          const uint32_t imm = (bits(c, 12, 11) << 4) | (bits(c, 10, 7) << 6) |
                               (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 3);
          if (imm == 0) return 0;
          return enc_i(kOpImm, rdp, 0, 2, static_cast<int32_t>(imm));
        }
        case 2: {  // c.lw
          const uint32_t imm = (bits(c, 12, 10) << 3) | (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 6);
          return enc_i(kOpLoad, rdp, 2, rs1p, static_cast<int32_t>(imm));
        }
        case 6: {  // c.sw
          const uint32_t imm = (bits(c, 12, 10) << 3) | (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 6);
          return enc_s(2, rs1p, rdp, static_cast<int32_t>(imm));
        }
        case 3: case 7: {  // c.flw, c.fsw (with the FPU): c.lw's and c.sw's fields
          if (!fpu) return 0;
          const uint32_t imm = (bits(c, 12, 10) << 3) | (bits(c, 6, 6) << 2) | (bits(c, 5, 5) << 6);
          return f3 == 3 ? enc_i(kOpLoadFp, rdp, 2, rs1p, static_cast<int32_t>(imm))
                         : enc_s(2, rs1p, rdp, static_cast<int32_t>(imm)) | kStoreFpBit;
        }
        default:
          return 0;
      }
    case 1:
      switch (f3) {
        case 0:  // c.addi / c.nop
          return enc_i(kOpImm, rd, 0, rd, imm6);
        case 1:  // c.jal
          return enc_j(1, cj_offset(c));
        case 2:  // c.li
          return enc_i(kOpImm, rd, 0, 0, imm6);
        case 3:
          if (rd == 2) {  // c.addi16sp
            const uint32_t v = (bits(c, 12, 12) << 9) | (bits(c, 6, 6) << 4) |
                               (bits(c, 5, 5) << 6) | (bits(c, 4, 3) << 7) | (bits(c, 2, 2) << 5);
            if (v == 0) return 0;
            return enc_i(kOpImm, 2, 0, 2, sext(v, 10));
          } else {  // c.lui
            if (imm6 == 0) return 0;
            return (static_cast<uint32_t>(imm6) << 12) | (rd << 7) | kOpLui;
          }
        case 4: {
          const uint32_t shamt = bits(c, 6, 2);
          switch (bits(c, 11, 10)) {
            case 0:  // c.srli
              if (bits(c, 12, 12)) return 0;
              return enc_i(kOpImm, rs1p, 5, rs1p, static_cast<int32_t>(shamt));
            case 1:  // c.srai
              if (bits(c, 12, 12)) return 0;
              return enc_i(kOpImm, rs1p, 5, rs1p, static_cast<int32_t>(shamt | 0x400));
            case 2:  // c.andi
              return enc_i(kOpImm, rs1p, 7, rs1p, imm6);
            default:
              if (bits(c, 12, 12)) return 0;
              switch (bits(c, 6, 5)) {
                case 0: return enc_r(0x20, rdp, rs1p, 0, rs1p);  // c.sub
                case 1: return enc_r(0, rdp, rs1p, 4, rs1p);     // c.xor
                case 2: return enc_r(0, rdp, rs1p, 6, rs1p);     // c.or
                default: return enc_r(0, rdp, rs1p, 7, rs1p);    // c.and
              }
          }
        }
        case 5:  // c.j
          return enc_j(0, cj_offset(c));
        case 6:  // c.beqz
          return enc_b(0, rs1p, 0, cb_offset(c));
        default:  // c.bnez
          return enc_b(1, rs1p, 0, cb_offset(c));
      }
    case 2:
      switch (f3) {
        case 0:  // c.slli
          if (bits(c, 12, 12)) return 0;
          return enc_i(kOpImm, rd, 1, rd, static_cast<int32_t>(rs2));
        case 2: {  // c.lwsp
          if (rd == 0) return 0;
          const uint32_t imm = (bits(c, 12, 12) << 5) | (bits(c, 6, 4) << 2) | (bits(c, 3, 2) << 6);
          return enc_i(kOpLoad, rd, 2, 2, static_cast<int32_t>(imm));
        }
        case 4:
          if (!bits(c, 12, 12)) {
            if (rs2 == 0) {  // c.jr
              if (rd == 0) return 0;
              return enc_i(kOpJalr, 0, 0, rd, 0);
            }
            return enc_r(0, rs2, 0, 0, rd);  // c.mv
          }
          if (rd == 0 && rs2 == 0) return 0x00100073;  // c.ebreak
          if (rs2 == 0) return enc_i(kOpJalr, 1, 0, rd, 0);  // c.jalr
          return enc_r(0, rs2, rd, 0, rd);                   // c.add
        case 6: {  // c.swsp
          const uint32_t imm = (bits(c, 12, 9) << 2) | (bits(c, 8, 7) << 6);
          return enc_s(2, 2, rs2, static_cast<int32_t>(imm));
        }
        case 3: {  // c.flwsp (with the FPU; f0 is a register like any other)
          if (!fpu) return 0;
          const uint32_t imm = (bits(c, 12, 12) << 5) | (bits(c, 6, 4) << 2) | (bits(c, 3, 2) << 6);
          return enc_i(kOpLoadFp, rd, 2, 2, static_cast<int32_t>(imm));
        }
        case 7: {  // c.fswsp (with the FPU)
          if (!fpu) return 0;
          const uint32_t imm = (bits(c, 12, 9) << 2) | (bits(c, 8, 7) << 6);
          return enc_s(2, 2, rs2, static_cast<int32_t>(imm)) | kStoreFpBit;
        }
        default:
          return 0;
      }
    default:
      return 0;  // not a compressed instruction
  }
}

}  // namespace socsim
