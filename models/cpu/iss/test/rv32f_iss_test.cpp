// RV32F in the ISS (IssConfig::fpu): decoding and legality, the FPU's CSRs and mstatus.FS,
// and instructions executed on the hart. The arithmetic itself is rv32_float_test's.
#include <gtest/gtest.h>

#include "models/cpu/iss/rv32_hart.h"
#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim {
namespace {

using test::r_type;

constexpr uint32_t kOpFp = 0x53;
// fadd.s f3, f1, f2 with rounding mode rm
uint32_t fadd(uint32_t rm) { return r_type(0x00, 2, 1, rm, 3, kOpFp); }

TEST(Rv32fDecode, IllegalWithoutTheFpuOrWhileFsIsOff) {
  const uint32_t f = fadd(0);
  EXPECT_EQ(decode(f).op, Op::kIllegal);                                   // FPU = 0
  EXPECT_EQ(decode(f, FpDecodeState{true, false, 0}).op, Op::kIllegal);    // FS Off
  EXPECT_EQ(decode(f, FpDecodeState{true, true, 0}).op, Op::kFaddS);
  // fflags/frm/fcsr (csrr a0, fcsr): only with the FPU and FS not Off
  const uint32_t csrr_fcsr = (0x003u << 20) | (2u << 12) | (10u << 7) | 0x73;
  EXPECT_EQ(decode(csrr_fcsr).op, Op::kIllegal);
  EXPECT_EQ(decode(csrr_fcsr, FpDecodeState{true, false, 0}).op, Op::kIllegal);
  EXPECT_EQ(decode(csrr_fcsr, FpDecodeState{true, true, 0}).op, Op::kCsrrs);
}

TEST(Rv32fDecode, ReservedRoundingModes) {
  const FpDecodeState on{true, true, 0};
  EXPECT_EQ(decode(fadd(5), on).op, Op::kIllegal);
  EXPECT_EQ(decode(fadd(6), on).op, Op::kIllegal);
  EXPECT_EQ(decode(fadd(7), on).op, Op::kFaddS);                            // dynamic, frm 0
  EXPECT_EQ(decode(fadd(7), FpDecodeState{true, true, 5}).op, Op::kIllegal);  // frm invalid
  EXPECT_EQ(decode(fadd(4), FpDecodeState{true, true, 7}).op, Op::kFaddS);    // static mode
  // fsgnj.s does not round: its funct3 selects the operation.
  EXPECT_EQ(decode(r_type(0x10, 2, 1, 2, 3, kOpFp), FpDecodeState{true, true, 6}).op,
            Op::kFsgnjxS);
}

TEST(Rv32fDecode, CompressedLoadsAndStores) {
  // c.flw f8, 4(x9) = 0x6080 | ...; c.flwsp f1, 8(sp); c.fswsp f1, 8(sp); c.fsw f8, 4(x9)
  EXPECT_EQ(expand_compressed(0x60c0), 0u);  // c.flw without the FPU
  EXPECT_EQ(expand_compressed(0x60c0, true), test::i_type(4, 9, 2, 8, 0x07));
  EXPECT_EQ(expand_compressed(0x60a2, true), test::i_type(8, 2, 2, 1, 0x07));
  EXPECT_EQ(expand_compressed(0xe406, true), test::s_type(8, 1, 2, 2) | 0x04);
  EXPECT_EQ(expand_compressed(0xe0c0, true), test::s_type(4, 8, 9, 2) | 0x04);
  EXPECT_EQ(decode(0x60c0, FpDecodeState{true, true, 0}).op, Op::kFlw);
  EXPECT_EQ(decode(0xe0c0, FpDecodeState{true, true, 0}).op, Op::kFsw);
  EXPECT_EQ(decode(0xe0c0).op, Op::kIllegal);
}

TEST(Rv32fHart, ResultsFlagsAndStatus) {
  IssConfig config;
  config.fpu = true;
  Rv32Hart hart(config);
  EXPECT_EQ(hart.csr_read(csr::kMisa), csr::kMisaValue | csr::kMisaF);
  EXPECT_EQ(hart.csr_read(csr::kMimpid), 1u);
  EXPECT_EQ((hart.csr_read(csr::kMstatus) >> 13) & 3, 0u);  // FS Off after reset
  DecodedInsn set_fs = decode((0x300u << 20) | (1u << 15) | (2u << 12) | 0x73);  // csrs mstatus, x1
  hart.csr_write(set_fs, 0x2000);                                                 // FS Initial
  EXPECT_EQ((hart.csr_read(csr::kMstatus) >> 13) & 3, 1u);
  EXPECT_TRUE(hart.fp_decode_state().fs_on);

  Execution e;
  // fmv.w.x f1, x5 (1.0); fmv.w.x f2, x6 (3.0); fdiv.s f3, f1, f2 (rne): 1/3, inexact
  hart.write_reg(5, 0x3F800000u);
  hart.write_reg(6, 0x40400000u);
  const FpDecodeState fp = hart.fp_decode_state();
  hart.execute(decode(r_type(0x78, 0, 5, 0, 1, kOpFp), fp), 0, &e);
  hart.execute(decode(r_type(0x78, 0, 6, 0, 2, kOpFp), fp), 0, &e);
  hart.execute(decode(r_type(0x0C, 2, 1, 0, 3, kOpFp), fp), 0, &e);
  EXPECT_EQ(hart.freg(3), 0x3EAAAAABu);
  EXPECT_EQ(e.operand_b, 20u);  // an inexact quotient: 20 cycles
  EXPECT_EQ(hart.csr_read(csr::kFflags), uint32_t{f32::kInexact});
  EXPECT_EQ(hart.csr_read(csr::kMstatus) >> 31, 1u);  // FS Dirty, SD set
  // feq.s x7, f1, f1 -> 1 in an x register; fcvt.w.s x8, f3 (rtz) -> 0, NX stays
  hart.execute(decode(r_type(0x50, 1, 1, 2, 7, kOpFp), fp), 0, &e);
  EXPECT_EQ(hart.reg(7), 1u);
  EXPECT_EQ(e.rd_value, 1u);
  // fdiv.s f4, f2, f1: 3 / 1 exact, 2 significant bits: 7 + 1 cycles
  hart.execute(decode(r_type(0x0C, 1, 2, 0, 4, kOpFp), fp), 0, &e);
  EXPECT_EQ(hart.freg(4), 0x40400000u);
  EXPECT_EQ(e.operand_b, 8u);
  // fcsr: frm in bits 7:5
  DecodedInsn w_fcsr = decode((0x003u << 20) | (1u << 15) | (1u << 12) | 0x73, fp);  // csrw fcsr
  hart.csr_write(w_fcsr, (2u << 5) | 0x3);
  EXPECT_EQ(hart.csr_read(csr::kFrm), 2u);
  EXPECT_EQ(hart.csr_read(csr::kFflags), 3u);
  EXPECT_EQ(hart.fp_decode_state().frm, 2u);
}

// fdiv.s cycles (what it costs alone) against values measured on the genuine CV32E40P with
// its FPU (docs/fpu.md): the exponent difference's early end, the significands' exactness,
// the subnormal divisor's extra cycle.
TEST(Rv32fHart, DivisionCyclesFollowTheGenuineCore) {
  IssConfig config;
  config.fpu = true;
  Rv32Hart hart(config);
  DecodedInsn set_fs = decode((0x300u << 20) | (1u << 15) | (2u << 12) | 0x73);
  hart.csr_write(set_fs, 0x2000);
  const FpDecodeState fp = hart.fp_decode_state();
  const auto cycles = [&](uint32_t a, uint32_t b) {
    hart.write_reg(5, a);
    hart.write_reg(6, b);
    Execution e;
    hart.execute(decode(r_type(0x78, 0, 5, 0, 1, kOpFp), fp), 0, &e);  // fmv.w.x f1, x5
    hart.execute(decode(r_type(0x78, 0, 6, 0, 2, kOpFp), fp), 0, &e);  // fmv.w.x f2, x6
    hart.execute(decode(r_type(0x0C, 2, 1, 0, 3, kOpFp), fp), 0, &e);  // fdiv.s f3, f1, f2
    return e.operand_b;
  };
  EXPECT_EQ(cycles(0x00C00000u, 0x4C000000u), 6u);   // 1.5*2^-126 / 2^25: d = -151
  EXPECT_EQ(cycles(0x00C00000u, 0x4B800000u), 8u);   // d = -150: 1.5 exact, q = 2
  EXPECT_EQ(cycles(0x00800000u, 0x4BC00000u), 20u);  // d = -150: 1/1.5 inexact
  EXPECT_EQ(cycles(0x7F400000u, 0x3F000000u), 8u);   // d = 128: 1.5, overflows yet iterates
  EXPECT_EQ(cycles(0x7F400000u, 0x3E800000u), 6u);   // d = 129
  EXPECT_EQ(cycles(0x3F800000u, 0x00400000u), 8u);   // subnormal divisor: 7 + 1
  EXPECT_EQ(cycles(0x00400000u, 0x3F800000u), 7u);   // subnormal dividend: 7
  EXPECT_EQ(cycles(0x00000001u, 0x4B800000u), 6u);   // 2^-149 / 2^24: normalised d = -173
  EXPECT_EQ(cycles(0x3FA80000u, 0x3FC00000u), 9u);   // 1.3125 / 1.5 = 0.875: q = 3 + 1
  EXPECT_EQ(cycles(0x3F900000u, 0x3FC00000u), 8u);   // 1.125 / 1.5 = 0.75: q = 2 + 1
}

TEST(Rv32fHart, WithoutTheFpuNothingChanges) {
  Rv32Hart hart(IssConfig{});
  EXPECT_EQ(hart.csr_read(csr::kMisa), csr::kMisaValue);
  EXPECT_EQ(hart.csr_read(csr::kMimpid), 0u);
  DecodedInsn set_fs = decode((0x300u << 20) | (1u << 15) | (2u << 12) | 0x73);
  hart.csr_write(set_fs, 0x6000);
  EXPECT_EQ(hart.csr_read(csr::kMstatus), csr::kMstatusMpp);  // FS stays Off (0)
  EXPECT_EQ(hart.fp_decode_state().key(), 0u);
}

// ZFINX = 1: float instructions on the x registers; no F loads, stores or moves; no misa.F,
// no mstatus.FS (F instructions legal whatever it holds); fflags, frm, fcsr remain.
TEST(Rv32fDecode, ZfinxLegality) {
  const FpDecodeState zfinx{true, true, 0, true};
  EXPECT_EQ(decode(fadd(0), zfinx).op, Op::kFaddS);
  EXPECT_EQ(decode(test::i_type(4, 9, 2, 8, 0x07), zfinx).op, Op::kIllegal);       // flw
  EXPECT_EQ(decode(test::s_type(4, 8, 9, 2) | 0x04, zfinx).op, Op::kIllegal);      // fsw
  EXPECT_EQ(decode(r_type(0x70, 0, 1, 0, 5, kOpFp), zfinx).op, Op::kIllegal);      // fmv.x.w
  EXPECT_EQ(decode(r_type(0x78, 0, 5, 0, 1, kOpFp), zfinx).op, Op::kIllegal);      // fmv.w.x
  EXPECT_EQ(decode(r_type(0x70, 0, 1, 1, 5, kOpFp), zfinx).op, Op::kFclassS);      // fclass.s
  EXPECT_EQ(decode(0x60c0, zfinx).op, Op::kIllegal);  // c.flw
  EXPECT_EQ(decode(0xe406, zfinx).op, Op::kIllegal);  // c.fswsp
  const uint32_t csrr_fcsr = (0x003u << 20) | (2u << 12) | (10u << 7) | 0x73;
  EXPECT_EQ(decode(csrr_fcsr, zfinx).op, Op::kCsrrs);
  EXPECT_NE(zfinx.key(), (FpDecodeState{true, true, 0}.key()));
}

TEST(Rv32fHart, ZfinxComputesInTheXRegisters) {
  IssConfig config;
  config.fpu = true;
  config.zfinx = true;
  Rv32Hart hart(config);
  EXPECT_EQ(hart.csr_read(csr::kMisa), csr::kMisaValue);  // no F
  EXPECT_EQ(hart.csr_read(csr::kMimpid), 1u);
  EXPECT_TRUE(hart.fp_decode_state().fs_on);  // FS Off, yet F instructions are legal
  DecodedInsn set_fs = decode((0x300u << 20) | (1u << 15) | (2u << 12) | 0x73);  // csrs mstatus
  hart.csr_write(set_fs, 0x6000);
  EXPECT_EQ(hart.csr_read(csr::kMstatus), csr::kMstatusMpp);  // FS not written
  const FpDecodeState fp = hart.fp_decode_state();
  Execution e;
  hart.write_reg(1, 0x3F800000u);  // 1.0
  hart.write_reg(2, 0x40400000u);  // 3.0
  hart.execute(decode(r_type(0x0C, 2, 1, 0, 3, kOpFp), fp), 0, &e);  // fdiv.s x3, x1, x2
  EXPECT_EQ(hart.reg(3), 0x3EAAAAABu);
  EXPECT_EQ(e.rd_value, 0x3EAAAAABu);
  EXPECT_EQ(e.operand_b, 20u);
  EXPECT_EQ(hart.freg(3), 0u);  // no F registers
  EXPECT_EQ(hart.csr_read(csr::kFflags), uint32_t{f32::kInexact});
  EXPECT_EQ(hart.csr_read(csr::kMstatus), csr::kMstatusMpp);  // FS stays Off, SD clear
  // fmadd.s x4, x1, x2, x3 (rs3 from bits 31:27); fadd.s x0, x1, x2 writes nothing
  hart.execute(decode((3u << 27) | r_type(0x00, 2, 1, 0, 4, 0x43), fp), 0, &e);
  EXPECT_EQ(hart.reg(4), 0x40555555u);  // 1 * 3 + 1/3, rounded once
  hart.execute(decode(r_type(0x00, 2, 1, 0, 0, kOpFp), fp), 0, &e);
  EXPECT_EQ(hart.reg(0), 0u);
  // fcsr writes keep FS Off
  DecodedInsn w_fcsr = decode((0x003u << 20) | (1u << 15) | (1u << 12) | 0x73, fp);
  hart.csr_write(w_fcsr, 2u << 5);
  EXPECT_EQ(hart.csr_read(csr::kFrm), 2u);
  EXPECT_EQ(hart.csr_read(csr::kMstatus), csr::kMstatusMpp);
}

}  // namespace
}  // namespace socsim
