// The CV32E40P decoder's view of instructions (what the pipeline control uses) and the
// divider's latency rule, against the CV32E40P facts (rtl/README.md, timing table).
#include "models/cpu/iss_timing/cv32e40p_control.h"

#include <gtest/gtest.h>

#include "models/cpu/iss/rv32_csr.h"
#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim::cv32e40p {
namespace {

using namespace socsim::test;

Control of(uint32_t raw) { return control_of(decode(raw)); }

TEST(Cv32e40pControl, DividerLatency) {
  // unsigned, or a non-negative divisor: 3 + clz(divisor)
  EXPECT_EQ(divide_cycles(0x80000000u, false), 3u);
  EXPECT_EQ(divide_cycles(3, false), 33u);
  EXPECT_EQ(divide_cycles(1, true), 34u);
  EXPECT_EQ(divide_cycles(0, true), 35u);
  // a negative signed divisor: 2 + leading ones
  EXPECT_EQ(divide_cycles(static_cast<uint32_t>(-1), true), 34u);
  EXPECT_EQ(divide_cycles(static_cast<uint32_t>(-3), true), 32u);
  EXPECT_EQ(divide_cycles(0x80000000u, true), 3u);
  // ... but unsigned division by the same bits: 3 + clz
  EXPECT_EQ(divide_cycles(static_cast<uint32_t>(-1), false), 3u);
}

TEST(Cv32e40pControl, StatusCsrsFlush) {
  EXPECT_EQ(of(csrrs(1, csr::kMstatus, 0)).sys, Sys::kCsrStatus);
  EXPECT_EQ(of(csrrs(1, csr::kMcycle, 0)).sys, Sys::kCsrStatus);
  EXPECT_EQ(of(csrrs(1, csr::kCycle, 0)).sys, Sys::kCsrStatus);
  EXPECT_EQ(of(csrrw(0, csr::kMhpmevent3, 1)).sys, Sys::kCsrStatus);
  EXPECT_EQ(of(csrrs(1, csr::kMscratch, 0)).sys, Sys::kNone);
  EXPECT_EQ(of(csrrs(1, csr::kMie, 0)).sys, Sys::kNone);
  EXPECT_EQ(of(csrrs(1, csr::kMhartid, 0)).unit, Unit::kCsr);
}

TEST(Cv32e40pControl, IllegalOnesReadNothing) {
  // dcsr exists only in debug mode; a write to a read-only CSR; time is not implemented
  for (uint32_t raw : {csrrs(1, 0x7B0, 0), csrrw(0, csr::kMhartid, 1), csrrs(1, csr::kTime, 0),
                       0xFFFFFFFFu}) {
    const Control c = of(raw);
    EXPECT_EQ(c.sys, Sys::kIllegal) << std::hex << raw;
    EXPECT_EQ(c.reads, 0u);
    EXPECT_FALSE(c.rd_we);
    EXPECT_FALSE(c.counts);
  }
  EXPECT_TRUE(of(csrrs(1, 0x7B0, 0)).csr_access);  // an illegal CSR access is still one
  EXPECT_FALSE(of(0xFFFFFFFFu).csr_access);
}

TEST(Cv32e40pControl, OperandUse) {
  const Control jalr = of(i_type(0, 5, 0, 1, 0x67));
  EXPECT_EQ(jalr.xfer, Xfer::kJalr);
  EXPECT_EQ(jalr.reads, 1u << 5);
  EXPECT_TRUE(jalr.rd_we);
  const Control cjr = of(0x8282);  // c.jr x5
  EXPECT_EQ(cjr.xfer, Xfer::kJalr);
  EXPECT_EQ(cjr.reads, 1u << 5);
  EXPECT_TRUE(cjr.compressed);
  EXPECT_EQ(of(sw(7, 6, 0)).reads, (1u << 6) | (1u << 7));
  EXPECT_FALSE(of(sw(7, 6, 0)).rd_we);
  EXPECT_EQ(of(csrrwi(1, csr::kMscratch, 3)).reads, 0u);  // the immediate is not a register
  EXPECT_TRUE(of(kNop).rd_we);                           // x0 too: the write-after-write rule
  EXPECT_EQ(of(kNop).reads, 0u);                         // x0 is never a dependency
  EXPECT_TRUE(of(mul_op(1, 3, 1, 2)).mulh);
  EXPECT_EQ(of(mul_op(5, 3, 1, 2)).unit, Unit::kDiv);
  EXPECT_EQ(of(kWfi).sys, Sys::kWfi);
  EXPECT_FALSE(of(kEcall).counts);
  EXPECT_TRUE(of(kMret).counts);
}


// F operations go to the APU with the genuine decoder's latency class (apu_lat): ADDMUL and
// the others by their FPU_*_LAT (0 -> 1, 1 -> 2, 2 -> 3), fdiv.s/fsqrt.s always 3; the
// dispatcher's dependence check sees the rs2 field of OP-FP instructions but fmv.
TEST(Cv32e40pControl, FloatOperationsHaveTheirApuClass) {
  const FpDecodeState fp{true, true, 0};
  const uint32_t fadd = r_type(0x00, 2, 1, 0, 3, 0x53);   // fadd.s f3, f1, f2
  const uint32_t fsqrt = r_type(0x2C, 0, 1, 0, 3, 0x53);  // fsqrt.s f3, f1
  const uint32_t feq = r_type(0x50, 2, 1, 2, 7, 0x53);    // feq.s x7, f1, f2
  for (unsigned lat = 0; lat < 3; ++lat) {
    const Control a = control_of(decode(fadd, fp), {lat, 0});
    EXPECT_EQ(a.unit, Unit::kApu);
    EXPECT_EQ(a.apu_class, lat + 1);
    EXPECT_EQ(a.apu_cycles, lat);
    EXPECT_EQ(control_of(decode(feq, fp), {0, lat}).apu_class, lat + 1);
    EXPECT_EQ(control_of(decode(fsqrt, fp), {lat, lat}).apu_class, 3);
  }
  const Control a = control_of(decode(fadd, fp));
  EXPECT_TRUE(a.we6);
  EXPECT_EQ(a.waddr6, 32 + 3);
  EXPECT_FALSE(a.alu_port);  // the dispatcher writes APU results, not regfile_alu_we
  // f1, f2 (fadd.s takes rs2 as its third operand: no address 0)
  EXPECT_EQ(a.apu_reads6, (uint64_t{1} << 33) | (uint64_t{1} << 34));
  const Control s = control_of(decode(fsqrt, fp));
  EXPECT_EQ(s.reads6, uint64_t{1} << 33);
  EXPECT_EQ(s.apu_reads6, (uint64_t{1} << 33) | (uint64_t{1} << 32) | 1);  // rs2 field 0: f0
  const Control e = control_of(decode(feq, fp));
  EXPECT_EQ(e.waddr6, 7);
  EXPECT_FALSE(e.alu_port);
}

// ZFINX = 1: the F register fields name x registers; results go to x rd (an APU write, not
// the ALU port), operands are x registers for the load-use stall and the dispatcher.
TEST(Cv32e40pControl, ZfinxUsesTheXRegisters) {
  const FpDecodeState fp{true, true, 0, true};
  const FpuLatency zfinx{1, 1, true};
  const uint32_t fadd = r_type(0x00, 2, 1, 0, 3, 0x53);      // fadd.s x3, x1, x2
  const uint32_t fsqrt = r_type(0x2C, 0, 1, 0, 3, 0x53);     // fsqrt.s x3, x1
  const uint32_t fcvt_swu = r_type(0x68, 1, 5, 0, 3, 0x53);  // fcvt.s.wu x3, x5 (rs2 field 1)
  const Control a = control_of(decode(fadd, fp), zfinx);
  EXPECT_EQ(a.unit, Unit::kApu);
  EXPECT_EQ(a.apu_class, 2);
  EXPECT_TRUE(a.we6);
  EXPECT_TRUE(a.rd_we);
  EXPECT_EQ(a.rd, 3);
  EXPECT_EQ(a.waddr6, 3);
  EXPECT_EQ(a.wb_rd, 3);
  EXPECT_FALSE(a.alu_port);
  EXPECT_EQ(a.reads, 0x6u);
  EXPECT_EQ(a.reads6, 0x6u);
  EXPECT_EQ(a.freads, 0u);
  EXPECT_EQ(a.apu_reads6, 0x6u);  // x1, x2
  const uint32_t fmul = r_type(0x08, 2, 1, 0, 3, 0x53);  // fmul.s x3, x1, x2
  EXPECT_EQ(control_of(decode(fmul, fp), zfinx).apu_reads6, 0x7u);  // and address 0
  EXPECT_EQ(control_of(decode(fsqrt, fp), zfinx).apu_reads6, 0x3u);  // x1; rs2 field 0: x0
  EXPECT_EQ(control_of(decode(fcvt_swu, fp), zfinx).apu_reads6, 0x23u);  // x5, x1, x0
  // fadd.s x3, x0, x2: x0 is no load-use dependence, but the dispatcher sees it read
  const Control z = control_of(decode(r_type(0x00, 2, 0, 0, 3, 0x53), fp), zfinx);
  EXPECT_EQ(z.reads, 0x4u);
  EXPECT_EQ(z.reads6, 0x4u);
  EXPECT_EQ(z.apu_reads6, 0x5u);
}

// The dispatcher's read set of integer instructions (apu_read_regs): address 0 for every
// instruction whose third operand is left at its default, not for stores, branches, jumps.
TEST(Cv32e40pControl, DispatcherSeesAddressZeroRead) {
  EXPECT_EQ(of(i_type(1, 5, 0, 6, 0x13)).apu_reads6, (1u << 5) | 1u);  // addi x6, x5, 1
  EXPECT_EQ(of(s_type(0, 5, 6, 2)).apu_reads6, (1u << 5) | (1u << 6));  // sw x5, 0(x6)
  EXPECT_EQ(of(s_type(0, 0, 6, 2)).apu_reads6, (1u << 6) | 1u);         // sw x0, 0(x6)
  EXPECT_EQ(of(b_type(8, 6, 5, 1)).apu_reads6, (1u << 5) | (1u << 6));  // bne x5, x6
  EXPECT_EQ(of(0x30200073).apu_reads6, (1u << 2) | 1u);  // mret: its rs2 field (2), address 0
}

}  // namespace
}  // namespace socsim::cv32e40p
