// The lockstep checker against a reference: records of one ISS run are replayed into the
// checker (which re-executes them on its own ISS); a corrupted record must be caught.
#include "models/cpu/lockstep.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim {
namespace {

using namespace test;

struct Recorder : RetireObserver {
  std::vector<RetireRecord> records;
  void on_retire(const RetireRecord& r) override { records.push_back(r); }
};

class LockstepTest : public ::testing::Test {
 protected:
  LockstepTest() : bus_(1 << 16) {
    // A loop that loads, stores, multiplies and reads mcycle.
    const uint32_t program[] = {
        addi(1, 0, 5),          lui(2, 1),          sw(1, 2, 0),      lw(3, 2, 0),
        mul_op(0, 4, 3, 3),     sb(4, 2, 5),        lbu(5, 2, 5),     csrrs(6, csr::kMcycle, 0),
        addi(1, 1, -1),         b_type(-36, 0, 1, 1), lui(7, 0x20000), sw(0, 7, 4)};
    uint32_t addr = 0x80;
    for (uint32_t w : program) {
      bus_.put32(addr, w);
      addr += 4;
    }
    IrqLines irq;
    Rv32Iss reference(config(), bus_, irq);
    reference.set_retire_observer(&recorded_);
    bool stop = false;
    while (bus_.exit_value < 0 && recorded_.records.size() < 1000) {
      reference.run(reference.cycle() + 1, &stop);
    }
  }
  static IssConfig config() { return IssConfig{}; }

  FlatBus bus_;
  Recorder recorded_;
};

TEST_F(LockstepTest, IdenticalRecordsPass) {
  SimControl control;
  LockstepChecker checker(config(), bus_, control);
  for (const RetireRecord& r : recorded_.records) checker.on_retire(r);
  EXPECT_FALSE(checker.diverged());
  EXPECT_FALSE(control.stopped()) << control.message();
  EXPECT_EQ(checker.checked(), recorded_.records.size());
  EXPECT_GT(checker.checked(), 40u);
}

TEST_F(LockstepTest, CounterReadsTakeTheHardwareValue) {
  SimControl control;
  LockstepChecker checker(config(), bus_, control);
  for (RetireRecord r : recorded_.records) {
    if ((r.insn & 0x7F) == 0x73) r.rd_value += 1000;  // a core with other timing
    checker.on_retire(r);
  }
  EXPECT_FALSE(checker.diverged()) << control.message();
}

TEST_F(LockstepTest, WrongRegisterValueIsCaught) {
  SimControl control;
  LockstepChecker checker(config(), bus_, control);
  std::vector<RetireRecord> records = recorded_.records;
  records[20].rd_value ^= 0x10;
  for (const RetireRecord& r : records) checker.on_retire(r);
  ASSERT_TRUE(checker.diverged());
  EXPECT_EQ(control.reason(), StopReason::kFault);
  EXPECT_NE(control.message().find("instruction #20"), std::string::npos) << control.message();
  EXPECT_NE(control.message().find("destination register"), std::string::npos);
  EXPECT_NE(control.message().find("rtl: pc"), std::string::npos);
  EXPECT_NE(control.message().find("iss: pc"), std::string::npos);
}

TEST_F(LockstepTest, WrongStoreAndPcAreCaught) {
  for (int field = 0; field < 2; ++field) {
    SimControl control;
    LockstepChecker checker(config(), bus_, control);
    std::vector<RetireRecord> records = recorded_.records;
    size_t i = 0;
    while (!(records[i].mem_valid && records[i].mem_write)) ++i;
    if (field == 0) {
      records[i].mem_data ^= 1;
    } else {
      records[i].pc += 4;
    }
    for (const RetireRecord& r : records) checker.on_retire(r);
    EXPECT_TRUE(checker.diverged()) << field;
    EXPECT_NE(control.message().find(field == 0 ? "store data" : "pc"), std::string::npos)
        << control.message();
  }
}

}  // namespace
}  // namespace socsim
