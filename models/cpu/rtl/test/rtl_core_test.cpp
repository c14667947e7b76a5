// Unit tests of RtlCore and the bare harness with small hand-encoded programs: exit and cycle
// counting, interrupt acknowledge timing, the retire trace (including interrupt attachment).
#include <gtest/gtest.h>

#include <vector>

#include "models/cpu/rtl/bare_harness.h"
#include "models/cpu/rtl/rtl_core.h"

namespace socsim {
namespace {

// RV32I encoders (RISC-V unprivileged spec, base formats)
uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return (static_cast<uint32_t>(imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x13); }
uint32_t lui(uint32_t rd, uint32_t imm20) { return (imm20 << 12) | (rd << 7) | 0x37; }
uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm) & 0xFFF;
  return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) | ((u & 0x1F) << 7) | 0x23;
}
uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) { return i_type(csr, rs1, 1, rd, 0x73); }
uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) { return i_type(csr, rs1, 2, rd, 0x73); }
uint32_t jal(uint32_t rd, int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3FF) << 21) | (((u >> 11) & 1) << 20) |
         (((u >> 12) & 0xFF) << 12) | (rd << 7) | 0x6F;
}
constexpr uint32_t kNop = 0x13;
constexpr uint32_t kT0 = 5, kT1 = 6, kA0 = 10, kA1 = 11;

TEST(BareHarness, ExitValueAndCycleCount) {
  BareHarness h(BareHarnessOptions{});
  h.write_words(0x80, {lui(kT0, 0x20000), addi(kA0, 0, 42), sw(kA0, kT0, 4), jal(0, 0)});
  const RunResult r = h.run();
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_value, 42u);
  // Boot: 2 cycles to leave reset (fetch_enable_i is registered first, as in the CV32E40P's
  // sleep unit), 1 for the boot redirect, 1 fetch latency, then lui, addi, sw each 1 cycle in
  // ID, sw's request 1 cycle later from EX.
  EXPECT_EQ(r.cycles, 8u);
}

class Collector : public RetireObserver {
 public:
  void on_retire(const RetireRecord& r) override { records.push_back(r); }
  std::vector<RetireRecord> records;
};

TEST(BareHarness, RetireTraceOfStore) {
  BareHarness h(BareHarnessOptions{});
  Collector c;
  h.core().set_retire_observer(&c);
  h.write_words(0x80, {lui(kT0, 0x20000), addi(kA0, 0, 7), sw(kA0, kT0, 4), jal(0, 0)});
  ASSERT_TRUE(h.run().exited);
  ASSERT_EQ(c.records.size(), 2u);  // the store retires after the exit cycle
  EXPECT_EQ(c.records[0].pc, 0x80u);
  EXPECT_EQ(c.records[0].rd, kT0);
  EXPECT_EQ(c.records[0].rd_value, 0x2000'0000u);
  EXPECT_EQ(c.records[0].next_pc, 0x84u);
  EXPECT_EQ(c.records[1].rd_value, 7u);
  EXPECT_EQ(c.records[1].order, 1u);
}

TEST(BareHarness, IllegalInstructionRetiresAsTrap) {
  BareHarness h(BareHarnessOptions{});
  Collector c;
  h.core().set_retire_observer(&c);
  // mtvec resets to {mtvec_addr_i[31:8], 0, 01} = 0x1: exceptions go to 0.
  h.write_words(0x0, {lui(kT0, 0x20000), addi(kA0, 0, 5), sw(kA0, kT0, 4), jal(0, 0)});
  h.write_words(0x80, {addi(kA0, 0, 1), 0xFFFF'FFFFu});
  const RunResult r = h.run();
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_value, 5u);
  ASSERT_GE(c.records.size(), 3u);
  const RetireRecord& trap = c.records[1];
  EXPECT_EQ(trap.pc, 0x84u);
  EXPECT_EQ(trap.insn, 0xFFFF'FFFFu);
  EXPECT_TRUE(trap.trap);
  EXPECT_EQ(trap.cause, 2u);
  EXPECT_EQ(trap.next_pc, 0x0u);
  EXPECT_EQ(trap.rd, 0u);
  EXPECT_EQ(c.records[2].pc, 0x0u);
  // in order, one record per retired instruction
  for (size_t i = 0; i < c.records.size(); ++i) EXPECT_EQ(c.records[i].order, i);
}

TEST(BareHarness, RandomWaitStatesKeepTheProtocolAndTheResult) {
  BareHarnessOptions options;
  options.random_waits = true;
  options.seed = 99;
  BareHarness h(options);
  h.write_words(0x80, {lui(kT0, 0x20000), addi(kA0, 0, 42), sw(kA0, kT0, 4), jal(0, 0)});
  const RunResult r = h.run();
  EXPECT_TRUE(r.protocol_error.empty()) << r.protocol_error;
  ASSERT_TRUE(r.exited);
  EXPECT_EQ(r.exit_value, 42u);
  EXPECT_GT(r.cycles, 7u);
}

uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 2, rd, 0x03); }
uint32_t bne(uint32_t rs1, uint32_t rs2, int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3F) << 25) | (rs2 << 20) | (rs1 << 15) |
         (1u << 12) | (((u >> 1) & 0xF) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}

// Under wait states a conditional branch leaves EX while WB still waits for a load's response
// (rvfi_br_*); the trace must still be in program order, every record's next pc the next one's
// pc, and each instruction reported once.
TEST(BareHarness, BranchesThatSkipWbRetireInOrderUnderWaitStates) {
  // t1 = 8; loop: addi t1, t1, -1; lw a1, 0x200(x0); bne t1, x0, loop; exit with a1
  const std::vector<uint32_t> program = {addi(kT1, 0, 8), addi(kT1, kT1, -1), lw(kA1, 0, 0x200),
                                         bne(kT1, 0, -8), lui(kT0, 0x20000), sw(kA1, kT0, 4),
                                         jal(0, 0)};
  for (uint32_t seed : {1u, 2u, 3u, 4u, 5u}) {
    BareHarnessOptions options;
    options.random_waits = true;
    options.seed = seed;
    BareHarness h(options);
    Collector c;
    h.core().set_retire_observer(&c);
    h.write_words(0x80, program);
    h.write_words(0x200, {11});
    const RunResult r = h.run();
    ASSERT_TRUE(r.exited) << "seed " << seed;
    EXPECT_EQ(r.exit_value, 11u);
    h.core().flush_retire();
    // addi, 8 x (lw, addi, bne), lui, sw: the store retires after the exit cycle or not at all
    ASSERT_GE(c.records.size(), 1u + 8 * 3 + 1) << "seed " << seed;
    for (size_t i = 0; i + 1 < c.records.size(); ++i) {
      EXPECT_EQ(c.records[i].next_pc, c.records[i + 1].pc) << "seed " << seed << " record " << i;
      EXPECT_EQ(c.records[i].order, i);
      EXPECT_LE(c.records[i].cycle, c.records[i + 1].cycle);
    }
  }
}

// Drives RtlCore directly on a zero-wait memory so that irq_i can change at an exact cycle.
class Driver {
 public:
  explicit Driver(const std::vector<uint32_t>& program, uint32_t mtvec = 0x100)
      : mem_(1 << 14, kNop), core_(RtlCoreConfig{0x80, mtvec, 0, 0, 0}) {
    for (size_t i = 0; i < program.size(); ++i) mem_[0x80 / 4 + i] = program[i];
    core_.reset();
  }
  void step() {
    ObiInputs iin{true, ipend_, irdata_};
    ObiInputs din{true, dpend_, 0};
    core_.begin_cycle(iin, din);
    const ObiRequest ir = core_.instr_request();
    ipend_ = ir.req;
    irdata_ = mem_[(ir.addr / 4) % mem_.size()];
    dpend_ = core_.data_request().req;
    ack_ = core_.irq_ack();
    ack_id_ = core_.irq_ack_id();
    core_.end_cycle();
  }
  RtlCore& core() { return core_; }
  bool ack() const { return ack_; }
  uint32_t ack_id() const { return ack_id_; }

 private:
  std::vector<uint32_t> mem_;
  RtlCore core_;
  bool ipend_ = false, dpend_ = false, ack_ = false;
  uint32_t irdata_ = 0, ack_id_ = 0;
};

TEST(RtlCore, InterruptAcknowledgedOneCycleAfterLevel) {
  // mie = 1 << 16 (fast interrupt 0), mstatus.MIE = 1, then an endless stream of nops.
  Driver d({lui(kT0, 0x10), csrrw(0, 0x304, kT0), addi(kT1, 0, 8), csrrs(0, 0x300, kT1)});
  for (int i = 0; i < 30; ++i) d.step();
  Collector c;
  d.core().set_retire_observer(&c);
  d.core().set_irq(1u << 16);
  d.step();  // the level is seen in this cycle
  EXPECT_FALSE(d.ack());
  d.step();
  EXPECT_TRUE(d.ack());
  EXPECT_EQ(d.ack_id(), 16u);
  for (int i = 0; i < 10; ++i) d.step();
  d.core().flush_retire();
  // Vectored mtvec at 0x100: the handler of line 16 is at 0x140.
  bool found = false;
  for (const RetireRecord& r : c.records) {
    if (r.interrupt) {
      found = true;
      EXPECT_EQ(r.cause, 0x8000'0010u);
      EXPECT_EQ(r.next_pc, 0x140u);
    }
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace socsim
