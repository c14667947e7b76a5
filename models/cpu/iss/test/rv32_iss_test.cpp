// The ISS instruction by instruction: results, traps, interrupts, CSRs, counters, sleep and
// faults, on a flat memory behind the pipeline model.
#include <gtest/gtest.h>

#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim {
namespace {

using namespace test;

class IssTest : public ::testing::Test {
 protected:
  IssTest() : bus_(1 << 16), env_(bus_), iss_(config(), env_) {}
  static IssConfig config() {
    IssConfig c;
    c.boot_addr = 0x80;
    c.mtvec_addr = 0x0;
    c.hart_id = 5;
    return c;
  }
  // Writes a program at the boot address, followed by a store to the exit address.
  void program(std::initializer_list<uint32_t> words) {
    uint32_t addr = 0x80;
    for (uint32_t w : words) {
      bus_.put32(addr, w);
      addr += 4;
    }
    put_exit(addr);
  }
  void put_exit(uint32_t addr) {
    bus_.put32(addr, lui(31, 0x20000));
    bus_.put32(addr + 4, sw(0, 31, 4));
    bus_.put32(addr + 8, j_type(0, 0));
  }
  // Runs until the exit store (or a limit); a sleeping core is woken by env_'s rise.
  Rv32Iss::Status run(uint64_t max_cycles = 20000) {
    Rv32Iss::Status s = Rv32Iss::Status::kRunning;
    while (!bus_.exited && iss_.cycle() < max_cycles) {
      s = iss_.run(max_cycles, &bus_.exited);
      if (s == Rv32Iss::Status::kStopped) return s;
      if (s == Rv32Iss::Status::kSleep) {
        if (env_.rise_at == ~uint64_t(0)) return s;
        iss_.skip_sleep_cycles(env_.rise_at - iss_.cycle());
      }
    }
    return s;
  }
  uint32_t x(unsigned i) const { return iss_.reg(i); }
  FlatBus bus_;
  TestEnvironment env_;
  Rv32Iss iss_;
};

TEST_F(IssTest, AluAndImmediates) {
  program({addi(1, 0, 100), addi(2, 0, -3), add(3, 1, 2), r_type(0x20, 2, 1, 0, 4, 0x33),
           lui(5, 0xABCDE), i_type(0x123, 5, 6, 6, 0x13) /* ori */, r_type(0, 2, 1, 2, 7, 0x33),
           r_type(0, 2, 1, 3, 8, 0x33), i_type(4, 1, 1, 9, 0x13) /* slli */,
           i_type(0x400 | 1, 2, 5, 11, 0x13) /* srai */, i_type(1, 2, 5, 12, 0x13) /* srli */,
           0x00000097 | (13 << 7) /* auipc x13, 0 */});
  run();
  ASSERT_TRUE(bus_.exited);
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
  run();
  ASSERT_TRUE(bus_.exited);
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
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(2), 0x66554433u);
  EXPECT_EQ(bus_.data_reads, 2u);  // one per word, lower address first
  EXPECT_EQ(bus_.bus_writes, 1u);  // the exit store
}

TEST_F(IssTest, MultiplyDivideCornerCases) {
  program({lui(1, 0x80000), addi(2, 0, -1), mul_op(0, 3, 1, 2), mul_op(1, 4, 1, 2),
           mul_op(3, 5, 1, 2), mul_op(2, 6, 2, 2), mul_op(4, 7, 1, 2) /* INT_MIN / -1 */,
           mul_op(6, 8, 1, 2) /* INT_MIN % -1 */, mul_op(4, 9, 2, 0) /* -1 / 0 */,
           mul_op(5, 10, 1, 0), mul_op(6, 11, 1, 0), mul_op(7, 12, 2, 0),
           addi(13, 0, 7), addi(14, 0, -2), mul_op(4, 15, 13, 14), mul_op(6, 16, 13, 14)});
  run();
  ASSERT_TRUE(bus_.exited);
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
  bus_.put32(0x80, addi(1, 0, 1));
  bus_.put32(0x84, b_type(8, 0, 1, 0));  // beq x1, x0: not taken
  bus_.put32(0x88, b_type(8, 0, 1, 1));  // bne x1, x0: taken -> 0x90
  bus_.put32(0x8c, addi(2, 0, 99));      // skipped
  bus_.put32(0x90, j_type(8, 3));        // jal x3, +8 -> 0x98
  bus_.put32(0x94, addi(2, 0, 98));      // skipped
  bus_.put32(0x98, i_type(12, 3, 0, 4, 0x67));  // jalr x4, 12(x3) -> 0xa0
  bus_.put32(0x9c, addi(2, 0, 97));      // skipped
  put_exit(0xa0);
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(2), 0u);
  EXPECT_EQ(x(3), 0x94u);
  EXPECT_EQ(x(4), 0x9Cu);
}

TEST_F(IssTest, IdentificationCsrs) {
  program({csrrs(1, csr::kMisa, 0), csrrs(2, csr::kMvendorid, 0), csrrs(3, csr::kMarchid, 0),
           csrrs(4, csr::kMhartid, 0), csrrs(5, csr::kMcountinhibit, 0), csrrs(6, csr::kMstatus, 0),
           csrrs(7, csr::kMtvec, 0)});
  run();
  ASSERT_TRUE(bus_.exited);
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
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(1), 0u);
  EXPECT_EQ(x(2), 0u);
  // The events are registered: the write of mcountinhibit takes effect after its own
  // instruction was counted, so minstret counts the 2 nops; csrr minstret reads in its first
  // EX cycle, before it counts itself. mcycle: the cycles since the write took effect up to
  // the first EX cycle of csrr mcycle (the same figures on the RTL core in the bare harness).
  EXPECT_EQ(x(3), 2u);
  EXPECT_EQ(x(4), 9u);
}

TEST_F(IssTest, Mhpmcounter3CountsSelectedEvent) {
  // Count loads: mhpmevent3 = 1 << LD (5).
  program({addi(1, 0, 1 << 5), csrrw(0, csr::kMhpmevent3, 1), csrrwi(0, csr::kMcountinhibit, 0),
           lw(2, 0, 0x100), lw(2, 0, 0x104), lw(2, 0, 0x108), csrrs(3, csr::kMhpmcounter3, 0)});
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(3), 3u);
}

TEST_F(IssTest, IllegalInstructionTrapsToMtvecBase) {
  bus_.put32(0x0, csrrs(10, csr::kMcause, 0));
  bus_.put32(0x4, csrrs(11, csr::kMepc, 0));
  bus_.put32(0x8, csrrs(12, csr::kMtval, 0));
  bus_.put32(0xC, j_type(0x200 - 0xC, 0));
  program({kNop, 0xFFFFFFFF});
  put_exit(0x200);
  run();
  ASSERT_TRUE(bus_.exited);
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
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(10), 11u + 3u);
  EXPECT_EQ(x(11), 1u);
}

// Records every retired instruction.
struct Recorder : RetireObserver {
  std::vector<RetireRecord> records;
  void on_retire(const RetireRecord& r) override { records.push_back(r); }
};

TEST_F(IssTest, TimerInterruptIsVectoredAndMarkedInTheTrace) {
  bus_.put32(0x0, j_type(0x300, 0));  // exceptions (unused)
  bus_.put32(7 * 4, csrrs(20, csr::kMcause, 0));
  bus_.put32(7 * 4 + 4, j_type(0x200 - (7 * 4 + 4), 0));
  // Enable MTIE and MIE, then spin.
  program({addi(1, 0, 1 << 7), csrrw(0, csr::kMie, 1), csrrwi(0, csr::kMstatus, 8),
           j_type(0, 0) /* j . */});
  put_exit(0x200);
  env_.rise_mask = 1u << 7;
  env_.rise_at = 100;
  Recorder rec;
  iss_.set_retire_observer(&rec);
  run();
  iss_.flush_retire();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(20), 0x80000007u);
  // The instruction after which it was taken carries the mark; its successor is the handler.
  size_t i = 0;
  while (i < rec.records.size() && !rec.records[i].interrupt) ++i;
  ASSERT_LT(i + 1, rec.records.size());
  EXPECT_EQ(rec.records[i].cause, 0x80000007u);
  EXPECT_EQ(rec.records[i].next_pc, 7u * 4);
  EXPECT_EQ(rec.records[i + 1].pc, 7u * 4);
  EXPECT_GT(rec.records[i + 1].cycle, 100u);
  for (size_t k = 1; k < rec.records.size(); ++k) {
    EXPECT_GE(rec.records[k].cycle, rec.records[k - 1].cycle);
    EXPECT_EQ(rec.records[k].order, k);
  }
}

TEST_F(IssTest, WfiSleepsUntilAnEnabledInterruptIsPending) {
  program({addi(1, 0, 1 << 7), csrrw(0, csr::kMie, 1), kWfi, addi(2, 0, 42)});
  ASSERT_EQ(run(), Rv32Iss::Status::kSleep);
  const uint64_t asleep_at = iss_.cycle();
  EXPECT_LT(asleep_at, 100u);
  env_.rise_mask = 1u << 7;
  env_.rise_at = 500;
  // mstatus.MIE is 0: the core resumes after WFI without taking the interrupt.
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(2), 42u);
  EXPECT_GT(iss_.cycle(), 500u);
}

TEST_F(IssTest, UnmappedLoadStopsWithTheAddress) {
  program({lui(1, 0x70000), lw(2, 1, 8)});
  ASSERT_EQ(run(), Rv32Iss::Status::kStopped);
  EXPECT_NE(iss_.fault().find("bus error: load of 4 byte(s) at 0x70000008"), std::string::npos)
      << iss_.fault();
}

TEST_F(IssTest, CompressedInstructionsExecute) {
  // c.li x8, 5 ; c.addi x8, 3 ; c.mv x9, x8 ; c.add x9, x8 -> x9 = 16
  bus_.put16(0x80, 0x4415);  // c.li x8, 5
  bus_.put16(0x82, 0x040d);  // c.addi x8, 3
  bus_.put16(0x84, 0x84a2);  // c.mv x9, x8
  bus_.put16(0x86, 0x94a2);  // c.add x9, x8
  put_exit(0x88);
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(x(8), 8u);
  EXPECT_EQ(x(9), 16u);
}

TEST_F(IssTest, ExitStoreCycleAsOnTheRtlCore) {
  // The program of the RTL core's harness test (models/cpu/rtl/test/rtl_core_test.cpp):
  // lui, addi, sw to the exit register; the store is granted in cycle 7 (8 cycles).
  bus_.put32(0x80, lui(5, 0x20000));
  bus_.put32(0x84, addi(10, 0, 42));
  bus_.put32(0x88, sw(10, 5, 4));
  bus_.put32(0x8c, j_type(0, 0));
  run();
  ASSERT_TRUE(bus_.exited);
  EXPECT_EQ(bus_.exit_value, 42);
  EXPECT_EQ(iss_.cycle(), 8u);
}

}  // namespace
}  // namespace socsim
