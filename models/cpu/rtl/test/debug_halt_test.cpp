// The debugger's halt (DebugHalt, models/cpu/retire.h) on both CPU models in the bare harness:
// the core halts before the instruction the hook names, with every older instruction complete
// (a load in flight included) and nothing younger executed; a register written there and a pc
// to resume at change the program as if it had them at that boundary; the ISS halts in the
// same cycles as the RTL core (rtl/rv_core.sv) and ends the run in the same cycle.
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

#include "models/cpu/bare/iss_bare_harness.h"
#include "models/cpu/rtl/bare_harness.h"

namespace socsim {
namespace {

uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc) {
  return (static_cast<uint32_t>(imm & 0xFFF) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | opc;
}
uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 0, rd, 0x13); }
uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return i_type(imm, rs1, 2, rd, 0x03); }
uint32_t add(uint32_t rd, uint32_t rs1, uint32_t rs2) {
  return (rs2 << 20) | (rs1 << 15) | (rd << 7) | 0x33;
}
uint32_t lui(uint32_t rd, uint32_t imm20) { return (imm20 << 12) | (rd << 7) | 0x37; }
uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm) & 0xFFF;
  return ((u >> 5) << 25) | (rs2 << 20) | (rs1 << 15) | (2u << 12) | ((u & 0x1F) << 7) | 0x23;
}
constexpr uint32_t kJalSelf = 0x6F;  // jal x0, 0
constexpr uint32_t kT0 = 5, kA0 = 10, kA1 = 11, kA2 = 12;

// 0x80 a2 = mem[0x200] (7); a0 = 1; a1 = 2; a0 += a1; a0 += a2; exit(a0): 10.
const std::vector<uint32_t> kProgram = {lw(kA2, 0, 0x200),  addi(kA0, 0, 1),   addi(kA1, 0, 2),
                                        add(kA0, kA0, kA1), add(kA0, kA0, kA2), lui(kT0, 0x20000),
                                        sw(kA0, kT0, 4),    kJalSelf};
constexpr uint32_t kAddPc = 0x8C;  // add a0, a0, a1
constexpr uint32_t kSecondAddPc = 0x90;

// Halts once before the instruction at `at`; there reads the registers, writes `writes`, and
// resumes at `resume` (0: where it halted).
class Hook : public DebugHalt {
 public:
  Hook(uint32_t at, std::vector<std::pair<unsigned, uint32_t>> writes, uint32_t resume,
       std::function<uint32_t(unsigned)> read, std::function<void(unsigned, uint32_t)> write)
      : at_(at), writes_(std::move(writes)), resume_(resume), read_(std::move(read)),
        write_(std::move(write)) {}
  bool halt_before(uint32_t pc, uint32_t insn, uint32_t rs1_value, bool issued) override {
    (void)rs1_value;
    if (pc == at_ && !done_) {
      EXPECT_TRUE(issued);
      EXPECT_EQ(insn, add(kA0, kA0, kA1));
      return true;
    }
    return false;
  }
  uint32_t halted(uint32_t pc, uint64_t cycle, uint64_t retired) override {
    done_ = true;
    halted_pc = pc;
    halted_cycle = cycle;
    halted_retired = retired;
    for (unsigned r : {kA0, kA1, kA2}) seen.push_back(read_(r));
    for (const auto& w : writes_) write_(w.first, w.second);
    return resume_ != 0 ? resume_ : pc;
  }
  void cycle_done() override {}
  uint32_t halted_pc = 0;
  uint64_t halted_cycle = 0, halted_retired = 0;
  std::vector<uint32_t> seen;

 private:
  uint32_t at_;
  std::vector<std::pair<unsigned, uint32_t>> writes_;
  uint32_t resume_;
  std::function<uint32_t(unsigned)> read_;
  std::function<void(unsigned, uint32_t)> write_;
  bool done_ = false;
};

struct Outcome {
  RunResult run;
  uint32_t pc = 0;
  uint64_t cycle = 0, retired = 0;
  std::vector<uint32_t> seen;
};

Outcome run_rtl(bool hooked, std::vector<std::pair<unsigned, uint32_t>> writes, uint32_t resume) {
  BareHarness h(BareHarnessOptions{});
  h.write_words(0x80, kProgram);
  h.write_words(0x200, {7});
  RtlCore& core = h.core();
  Hook hook(kAddPc, std::move(writes), resume,
            [&core](unsigned r) { return core.read_register(r); },
            [&core](unsigned r, uint32_t v) { core.write_register(r, v); });
  if (hooked) {
    EXPECT_TRUE(core.set_debug_halt(&hook));
  }
  Outcome o;
  o.run = h.run();
  o.pc = hook.halted_pc;
  o.cycle = hook.halted_cycle;
  o.retired = hook.halted_retired;
  o.seen = hook.seen;
  core.set_debug_halt(nullptr);
  return o;
}

Outcome run_iss(bool hooked, std::vector<std::pair<unsigned, uint32_t>> writes, uint32_t resume) {
  IssBareHarness h(BareHarnessOptions{});
  h.write_words(0x80, kProgram);
  h.write_words(0x200, {7});
  Rv32Iss& iss = h.iss();
  Hook hook(kAddPc, std::move(writes), resume, [&iss](unsigned r) { return iss.reg(r); },
            [&iss](unsigned r, uint32_t v) { iss.hart().write_reg(r, v); });
  if (hooked) iss.timing().set_debug_halt(&hook);
  Outcome o;
  o.run = h.run();
  o.pc = hook.halted_pc;
  o.cycle = hook.halted_cycle;
  o.retired = hook.halted_retired;
  o.seen = hook.seen;
  return o;
}

TEST(DebugHalt, HaltsAtAnExactBoundaryOnBothModels) {
  for (const Outcome& o : {run_rtl(true, {}, 0), run_iss(true, {}, 0)}) {
    ASSERT_TRUE(o.run.exited);
    EXPECT_EQ(o.run.exit_value, 10u);  // a halt alone changes nothing but cycles
    EXPECT_EQ(o.pc, kAddPc);
    EXPECT_EQ(o.retired, 3u);  // the load (drained), a0 = 1, a1 = 2
    // The older instructions complete (the load's value is in a2), nothing younger ran.
    EXPECT_EQ(o.seen, (std::vector<uint32_t>{1, 2, 7}));
  }
}

TEST(DebugHalt, TheIssHaltsInTheRtlCoresCycles) {
  const Outcome rtl = run_rtl(true, {}, 0), iss = run_iss(true, {}, 0);
  EXPECT_EQ(iss.cycle, rtl.cycle);
  EXPECT_EQ(iss.run.cycles, rtl.run.cycles);
  const Outcome rtl_free = run_rtl(false, {}, 0), iss_free = run_iss(false, {}, 0);
  EXPECT_EQ(iss_free.run.cycles, rtl_free.run.cycles);
  // What one halt costs with nothing to drain and zero-wait memory: the cycle the add is
  // killed in, the cycle the core is halted in (the debugger's turn), the cycle it resumes in
  // (the fetch redirected, as by mret), and the fetch's request and response: 5 cycles.
  EXPECT_EQ(rtl.run.cycles, rtl_free.run.cycles + 5);
  std::printf("halt before 0x%x: at cycle %llu; run %llu cycles, %llu without the halt\n", kAddPc,
              static_cast<unsigned long long>(rtl.cycle),
              static_cast<unsigned long long>(rtl.run.cycles),
              static_cast<unsigned long long>(rtl_free.run.cycles));
}

TEST(DebugHalt, RegisterWritesActAtTheBoundary) {
  // a1, which the halted add reads next, set to 30: 1 + 30 + 7.
  for (const Outcome& o : {run_rtl(true, {{kA1, 30}}, 0), run_iss(true, {{kA1, 30}}, 0)}) {
    ASSERT_TRUE(o.run.exited);
    EXPECT_EQ(o.run.exit_value, 38u);
  }
  EXPECT_EQ(run_rtl(true, {{kA1, 30}}, 0).run.cycles, run_iss(true, {{kA1, 30}}, 0).run.cycles);
}

TEST(DebugHalt, APcWriteRedirectsTheFetch) {
  // Resume past the first add: a0 = 1 + 7.
  for (const Outcome& o : {run_rtl(true, {}, kSecondAddPc), run_iss(true, {}, kSecondAddPc)}) {
    ASSERT_TRUE(o.run.exited);
    EXPECT_EQ(o.run.exit_value, 8u);
  }
  EXPECT_EQ(run_rtl(true, {}, kSecondAddPc).run.cycles,
            run_iss(true, {}, kSecondAddPc).run.cycles);
}

}  // namespace
}  // namespace socsim
