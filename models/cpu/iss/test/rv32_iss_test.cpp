// The ISS instruction by instruction: results, traps, interrupts, CSRs, counters, and the
// cycle estimates of the CV32E40P timing table.
#include <gtest/gtest.h>

#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim {
namespace {

using namespace test;

class IssTest : public ::testing::Test {
 protected:
  IssTest() : bus_(1 << 16), iss_(config(), bus_, irq_) {}
  static IssConfig config() {
    IssConfig c;
    c.boot_addr = 0x80;
    c.mtvec_addr = 0x0;
    c.hart_id = 5;
    return c;
  }
  // Writes a program at the boot address, followed by a store of x10 to the exit address.
  void program(std::initializer_list<uint32_t> words) {
    uint32_t addr = 0x80;
    for (uint32_t w : words) {
      bus_.put32(addr, w);
      addr += 4;
    }
    end_ = addr;
  }
  // Runs until the pc reaches the end of the program (or a limit).
  Rv32Iss::Status run_to_end(uint64_t max_steps = 10000) {
    bool stop = false;
    for (uint64_t i = 0; i < max_steps && iss_.pc() != end_; ++i) {
      Rv32Iss::Status s = iss_.run(iss_.cycle() + 1, &stop);
      if (s != Rv32Iss::Status::kRunning) return s;
    }
    return Rv32Iss::Status::kRunning;
  }
  uint32_t x(unsigned i) const { return iss_.reg(i); }
  FlatBus bus_;
  IrqLines irq_;
  Rv32Iss iss_;
  uint32_t end_ = 0;
};

TEST_F(IssTest, AluAndImmediates) {
  program({addi(1, 0, 100), addi(2, 0, -3), add(3, 1, 2), r_type(0x20, 2, 1, 0, 4, 0x33),
           lui(5, 0xABCDE), i_type(0x123, 5, 6, 6, 0x13) /* ori */, r_type(0, 2, 1, 2, 7, 0x33),
           r_type(0, 2, 1, 3, 8, 0x33), i_type(4, 1, 1, 9, 0x13) /* slli */,
           i_type(0x400 | 1, 2, 5, 11, 0x13) /* srai */, i_type(1, 2, 5, 12, 0x13) /* srli */,
           0x00000097 | (13 << 7) /* auipc x13, 0 */});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(3), 97u);
  EXPECT_EQ(x(4), 103u);
  EXPECT_EQ(x(5), 0xABCDE000u);
  EXPECT_EQ(x(6), 0xABCDE123u);
  EXPECT_EQ(x(7), 0u);   // slt 100 < -3
  EXPECT_EQ(x(8), 1u);   // sltu 100 < 0xfffffffd
  EXPECT_EQ(x(9), 1600u);
  EXPECT_EQ(x(11), 0xFFFFFFFEu);
  EXPECT_EQ(x(12), 0x7FFFFFFEu);
  EXPECT_EQ(x(13), 0x80u + 4 * 11);
  EXPECT_EQ(x(0), 0u);
}

TEST_F(IssTest, LoadsStoresAndSignExtension) {
  bus_.put32(0x1000, 0x8081F2F3);
  program({lui(1, 1), lw(2, 1, 0), lh(3, 1, 0), lb(4, 1, 3), lbu(5, 1, 3), addi(6, 0, 0x55),
           sb(6, 1, 5), lw(7, 1, 4), lw(8, 1, 1) /* misaligned */});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(2), 0x8081F2F3u);
  EXPECT_EQ(x(3), 0xFFFFF2F3u);
  EXPECT_EQ(x(4), 0xFFFFFF80u);
  EXPECT_EQ(x(5), 0x80u);
  EXPECT_EQ(x(7), 0x5500u);
  EXPECT_EQ(x(8), 0x008081F2u);
}

TEST_F(IssTest, MisalignedWordIsTwoBusTransactions) {
  bus_.use_dmi = false;
  bus_.put32(0x1000, 0x44332211);
  bus_.put32(0x1004, 0x88776655);
  program({lui(1, 1), lw(2, 1, 2)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(2), 0x66554433u);
  // 2 instructions of 4 bytes (2 fetches each without DMI, by halfword window) + 2 data reads
  const unsigned data_reads = bus_.bus_reads - 4;
  EXPECT_EQ(data_reads, 2u);
}

TEST_F(IssTest, MultiplyDivideCornerCases) {
  program({lui(1, 0x80000), addi(2, 0, -1), mul_op(0, 3, 1, 2), mul_op(1, 4, 1, 2),
           mul_op(3, 5, 1, 2), mul_op(2, 6, 2, 2), mul_op(4, 7, 1, 2) /* INT_MIN / -1 */,
           mul_op(6, 8, 1, 2) /* INT_MIN % -1 */, mul_op(4, 9, 2, 0) /* -1 / 0 */,
           mul_op(5, 10, 1, 0), mul_op(6, 11, 1, 0), mul_op(7, 12, 2, 0),
           addi(13, 0, 7), addi(14, 0, -2), mul_op(4, 15, 13, 14), mul_op(6, 16, 13, 14)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(3), 0x80000000u);   // mul
  EXPECT_EQ(x(4), 0u);            // mulh INT_MIN * -1 = 2^31 -> high word 0
  EXPECT_EQ(x(5), 0x7FFFFFFFu);   // mulhu
  EXPECT_EQ(x(6), 0xFFFFFFFFu);   // mulhsu(-1, 0xffffffff) = -0xffffffff -> high -1
  EXPECT_EQ(x(7), 0x80000000u);
  EXPECT_EQ(x(8), 0u);
  EXPECT_EQ(x(9), 0xFFFFFFFFu);
  EXPECT_EQ(x(10), 0xFFFFFFFFu);
  EXPECT_EQ(x(11), 0x80000000u);
  EXPECT_EQ(x(12), 0xFFFFFFFFu);
  EXPECT_EQ(x(15), static_cast<uint32_t>(-3));
  EXPECT_EQ(x(16), 1u);
}

TEST_F(IssTest, BranchesAndJumpsLinkAndTarget) {
  program({addi(1, 0, 1),                      // 0x80
           b_type(8, 0, 1, 0),                 // 0x84 beq x1, x0: not taken
           b_type(8, 0, 1, 1),                 // 0x88 bne x1, x0: taken -> 0x90
           addi(2, 0, 99),                     // 0x8c skipped
           j_type(8, 3),                       // 0x90 jal x3, +8 -> 0x98
           addi(2, 0, 98),                     // 0x94 skipped
           i_type(12, 3, 0, 4, 0x67),          // 0x98 jalr x4, 12(x3) -> 0xa0
           addi(2, 0, 97)});                   // 0x9c skipped
  end_ = 0xA0;
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(2), 0u);
  EXPECT_EQ(x(3), 0x94u);
  EXPECT_EQ(x(4), 0x9Cu);
}

TEST_F(IssTest, IdentificationCsrs) {
  program({csrrs(1, csr::kMisa, 0), csrrs(2, csr::kMvendorid, 0), csrrs(3, csr::kMarchid, 0),
           csrrs(4, csr::kMhartid, 0), csrrs(5, csr::kMcountinhibit, 0), csrrs(6, csr::kMstatus, 0),
           csrrs(7, csr::kMtvec, 0)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(1), 0x40001104u);
  EXPECT_EQ(x(2), 0x602u);
  EXPECT_EQ(x(3), 4u);
  EXPECT_EQ(x(4), 5u);
  EXPECT_EQ(x(5), 0xDu);
  EXPECT_EQ(x(6), 0x1800u);
  EXPECT_EQ(x(7), 0x1u);  // vectored, base from mtvec_addr_i = 0
}

TEST_F(IssTest, CountersStartInhibitedThenCount) {
  program({csrrs(1, csr::kMcycle, 0), csrrs(2, csr::kMinstret, 0), csrrwi(0, csr::kMcountinhibit, 0),
           kNop, kNop, csrrs(3, csr::kMinstret, 0), csrrs(4, csr::kMcycle, 0)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(1), 0u);
  EXPECT_EQ(x(2), 0u);
  EXPECT_EQ(x(3), 3u);  // csrw mcountinhibit itself retires with counting enabled, + 2 nops
  EXPECT_GT(x(4), 3u);
}

TEST_F(IssTest, Mhpmcounter3CountsSelectedEvent) {
  // Count loads: mhpmevent3 = 1 << LD (5).
  program({addi(1, 0, 1 << 5), csrrw(0, csr::kMhpmevent3, 1), csrrwi(0, csr::kMcountinhibit, 0),
           lw(2, 0, 0x100), lw(2, 0, 0x104), lw(2, 0, 0x108), csrrs(3, csr::kMhpmcounter3, 0)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(3), 3u);
}

TEST_F(IssTest, IllegalInstructionTrapsToMtvecBase) {
  bus_.put32(0x0, csrrs(10, csr::kMcause, 0));
  bus_.put32(0x4, csrrs(11, csr::kMepc, 0));
  bus_.put32(0x8, csrrs(12, csr::kMtval, 0));
  bus_.put32(0xC, j_type(0x200 - 0xC, 0));
  program({kNop, 0xFFFFFFFF});
  end_ = 0x200;
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(10), 2u);
  EXPECT_EQ(x(11), 0x84u);
  EXPECT_EQ(x(12), 0u);
}

TEST_F(IssTest, EcallEbreakAndMret) {
  // Handler: record mcause in x10+, skip the instruction, return.
  bus_.put32(0x0, csrrs(5, csr::kMcause, 0));
  bus_.put32(0x4, add(10, 10, 5));
  bus_.put32(0x8, csrrs(6, csr::kMepc, 0));
  bus_.put32(0xC, addi(6, 6, 4));
  bus_.put32(0x10, csrrw(0, csr::kMepc, 6));
  bus_.put32(0x14, kMret);
  program({kEcall, kEbreak, addi(11, 0, 1)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(10), 11u + 3u);
  EXPECT_EQ(x(11), 1u);
}

TEST_F(IssTest, TimerInterruptIsVectoredAtTheScheduledCycle) {
  bus_.put32(0x0, j_type(0x300, 0));  // exceptions (unused)
  bus_.put32(7 * 4, csrrs(20, csr::kMcause, 0));
  bus_.put32(7 * 4 + 4, j_type(0x200 - (7 * 4 + 4), 0));
  // Enable MTIE and MIE, then spin.
  program({addi(1, 0, 1 << 7), csrrw(0, csr::kMie, 1), csrrwi(0, csr::kMstatus, 8),
           j_type(0, 0) /* j . */});
  end_ = 0x200;
  bus_.put32(0x200, kNop);
  irq_.schedule_rise(7, 100);
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(20), 0x80000007u);
  EXPECT_GE(iss_.cycle(), 100u);
  EXPECT_LT(iss_.cycle(), 100u + 12);
}

TEST_F(IssTest, WfiSleepsUntilAnEnabledInterruptIsPending) {
  program({addi(1, 0, 1 << 7), csrrw(0, csr::kMie, 1), kWfi, addi(2, 0, 42)});
  bool stop = false;
  Rv32Iss::Status s = Rv32Iss::Status::kRunning;
  for (int i = 0; i < 10 && s == Rv32Iss::Status::kRunning; ++i) s = iss_.run(iss_.cycle() + 1, &stop);
  ASSERT_EQ(s, Rv32Iss::Status::kSleep);
  EXPECT_EQ(iss_.wake_mask(iss_.cycle()), 0u);
  irq_.schedule_rise(7, 500);
  EXPECT_EQ(iss_.wake_mask(499), 0u);
  EXPECT_EQ(iss_.wake_mask(500), 1u << 7);
  iss_.wake(500);
  // mstatus.MIE is 0: the core resumes after WFI without taking the interrupt.
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(2), 42u);
  EXPECT_GE(iss_.cycle(), 500u);
}

TEST_F(IssTest, UnmappedLoadStopsWithAddressAndPc) {
  program({lui(1, 0x70000), lw(2, 1, 8)});
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kStopped);
  EXPECT_NE(iss_.fault().find("0x70000008"), std::string::npos) << iss_.fault();
  EXPECT_NE(iss_.fault().find("pc 0x00000084"), std::string::npos) << iss_.fault();
}

TEST_F(IssTest, CompressedInstructionsExecute) {
  // c.li x8, 5 ; c.addi x8, 3 ; c.mv x9, x8 ; c.add x9, x8 -> x9 = 16
  bus_.put16(0x80, 0x4415);  // c.li x8, 5
  bus_.put16(0x82, 0x040d);  // c.addi x8, 3
  bus_.put16(0x84, 0x84a2);  // c.mv x9, x8
  bus_.put16(0x86, 0x94a2);  // c.add x9, x8
  end_ = 0x88;
  ASSERT_EQ(run_to_end(), Rv32Iss::Status::kRunning);
  EXPECT_EQ(x(8), 8u);
  EXPECT_EQ(x(9), 16u);
  EXPECT_EQ(iss_.instret(), 4u);
}

// Cycle estimates follow the CV32E40P table.
class IssTiming : public IssTest {
 protected:
  uint64_t cycles_of(std::initializer_list<uint32_t> setup, uint32_t insn) {
    iss_.reset();
    std::vector<uint32_t> words(setup);
    words.push_back(insn);
    uint32_t addr = 0x80;
    for (uint32_t w : words) {
      bus_.put32(addr, w);
      addr += 4;
    }
    bool stop = false;
    for (size_t i = 0; i + 1 < words.size(); ++i) iss_.run(iss_.cycle() + 1, &stop);
    const uint64_t before = iss_.cycle();
    iss_.run(iss_.cycle() + 1, &stop);
    return iss_.cycle() - before;
  }
};

// Divider: 3 + clz(divisor); negative signed divisor: 2 + leading ones; dividend ignored.
TEST_F(IssTiming, DivideByTopBitIsThree) {
  EXPECT_EQ(cycles_of({lui(2, 0x80000), addi(1, 0, 77)}, mul_op(5, 3, 1, 2)), 3u);
}

TEST_F(IssTiming, DivideByOne) { EXPECT_EQ(cycles_of({addi(2, 0, 1)}, mul_op(5, 3, 1, 2)), 34u); }
TEST_F(IssTiming, DivideByZero) { EXPECT_EQ(cycles_of({addi(2, 0, 0)}, mul_op(4, 3, 1, 2)), 35u); }
TEST_F(IssTiming, DivideByThree) { EXPECT_EQ(cycles_of({addi(2, 0, 3)}, mul_op(7, 3, 1, 2)), 33u); }
TEST_F(IssTiming, SignedDivideByMinusOne) {
  EXPECT_EQ(cycles_of({addi(2, 0, -1)}, mul_op(4, 3, 1, 2)), 34u);
}
TEST_F(IssTiming, SignedDivideByMinusThree) {
  EXPECT_EQ(cycles_of({addi(2, 0, -3)}, mul_op(6, 3, 1, 2)), 32u);
}
TEST_F(IssTiming, SignedDivideByIntMin) {
  EXPECT_EQ(cycles_of({lui(2, 0x80000)}, mul_op(4, 3, 1, 2)), 3u);
}
TEST_F(IssTiming, MulIsOneMulhIsFive) {
  EXPECT_EQ(cycles_of({addi(1, 0, 3)}, mul_op(0, 3, 1, 1)), 1u);
  EXPECT_EQ(cycles_of({}, mul_op(1, 3, 1, 1)), 5u);
}
TEST_F(IssTiming, LoadUseAddsOneCycle) {
  EXPECT_EQ(cycles_of({lw(1, 0, 0x100)}, add(2, 1, 1)), 2u);
  EXPECT_EQ(cycles_of({lw(1, 0, 0x100)}, add(2, 3, 3)), 1u);
}
TEST_F(IssTiming, TakenBranchIsThreeNotTakenOne) {
  EXPECT_EQ(cycles_of({addi(1, 0, 1)}, b_type(8, 0, 1, 1)), 3u);
  EXPECT_EQ(cycles_of({addi(1, 0, 1)}, b_type(8, 0, 1, 0)), 1u);
}
TEST_F(IssTiming, JumpsAndCsrs) {
  EXPECT_EQ(cycles_of({}, j_type(8, 0)), 2u);
  EXPECT_EQ(cycles_of({}, csrrs(1, csr::kMstatus, 0)), 4u);
  EXPECT_EQ(cycles_of({}, csrrs(1, csr::kMscratch, 0)), 1u);
}
TEST_F(IssTiming, JalrAfterLoadOfItsBase) {
  bus_.put32(0x100, 0x200);
  bus_.put32(0x200, kNop);
  EXPECT_EQ(cycles_of({lw(1, 0, 0x100)}, i_type(0, 1, 0, 0, 0x67)), 4u);
}
TEST_F(IssTiming, JalrWritingItsBaseCostsOneMore) {
  bus_.put32(0x200, kNop);
  // jalr x1, 0(x1) after x1 was set two instructions earlier: 2 + 1 (rd == rs1)
  EXPECT_EQ(cycles_of({addi(1, 0, 0x200), kNop, kNop}, i_type(0, 1, 0, 1, 0x67)), 3u);
  // jalr x5, 0(x1): 2
  EXPECT_EQ(cycles_of({addi(1, 0, 0x200), kNop, kNop}, i_type(0, 1, 0, 5, 0x67)), 2u);
}

}  // namespace
}  // namespace socsim
