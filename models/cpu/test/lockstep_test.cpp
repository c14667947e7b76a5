// The lockstep checker against a reference: a run of the ISS (its bus accesses, interrupt
// lines and retire records, each with its cycle) is replayed into the checker as the RTL core
// would report it; the checker's own ISS must agree, and a corrupted value, request or cycle
// must be caught.
#include "models/cpu/lockstep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim {
namespace {

using namespace test;

// Everything the reference run reported, in the order it happened.
struct Event {
  enum Kind { kAccess, kRetire } kind = kAccess;
  uint64_t cycle = 0;  // the cycle it was reported in
  BusPort port = BusPort::kInstr;
  uint32_t addr = 0, data = 0, wait = 0;
  unsigned bytes = 0;
  bool write = false;
  RetireRecord record;
};

class Reference : public RetireObserver, public BusObserver {
 public:
  explicit Reference(const Rv32Iss& iss) : iss_(iss) {}
  void on_cycle(uint64_t, uint32_t) override {}
  void on_access(BusPort port, uint64_t cycle, uint32_t addr, unsigned bytes, bool write,
                 uint32_t data, uint32_t wait) override {
    Event e;
    e.kind = Event::kAccess;
    e.cycle = cycle;
    e.port = port;
    e.addr = addr;
    e.bytes = bytes;
    e.write = write;
    e.data = data;
    e.wait = wait;
    events.push_back(e);
  }
  void on_retire(const RetireRecord& r) override {
    Event e;
    e.kind = Event::kRetire;
    e.cycle = iss_.cycle();
    e.record = r;
    events.push_back(e);
  }
  std::vector<Event> events;

 private:
  const Rv32Iss& iss_;
};

class LockstepTest : public ::testing::Test {
 protected:
  LockstepTest() : bus_(1 << 16), env_(bus_) {
    // A loop that loads, stores, multiplies, divides and reads mcycle, misaligned once.
    const uint32_t program[] = {
        csrrwi(0, csr::kMcountinhibit, 0),
        addi(1, 0, 5),          lui(2, 1),          sw(1, 2, 0),      lw(3, 2, 0),
        mul_op(0, 4, 3, 3),     sb(4, 2, 5),        lbu(5, 2, 5),     csrrs(6, csr::kMcycle, 0),
        mul_op(5, 7, 6, 1),     lw(8, 2, 2),        addi(1, 1, -1),   b_type(-40, 0, 1, 1),
        lui(7, 0x20000),        sw(0, 7, 4),        j_type(0, 0)};
    uint32_t addr = 0x80;
    for (uint32_t w : program) {
      bus_.put32(addr, w);
      addr += 4;
    }
    Rv32Iss reference(config(), env_);
    Reference ref(reference);
    reference.set_retire_observer(&ref);
    reference.timing().server().set_observer(&ref);
    reference.reset();
    reference.run(100000, &bus_.exited);
    reference.flush_retire();
    events_ = ref.events;
    end_cycle_ = reference.cycle();
  }
  static IssConfig config() { return IssConfig{}; }

  // Replays `events` into a checker as the RTL core's wrapper does: each cycle begins, its
  // accesses, then the records delivered in it.
  void replay(LockstepChecker& checker, const std::vector<Event>& events) {
    size_t i = 0;
    for (uint64_t c = 0; c < end_cycle_ && !checker.diverged(); ++c) {
      checker.on_cycle(c, 0);
      for (; i < events.size() && events[i].cycle == c; ++i) feed(checker, events[i]);
    }
    for (; i < events.size(); ++i) feed(checker, events[i]);  // the flush at the end
  }
  static void feed(LockstepChecker& checker, const Event& e) {
    if (e.kind == Event::kAccess) {
      checker.on_access(e.port, e.cycle, e.addr, e.bytes, e.write, e.data, e.wait);
    } else {
      checker.on_retire(e.record);
    }
  }
  size_t find(const std::function<bool(const Event&)>& pred, size_t from = 0) const {
    while (from < events_.size() && !pred(events_[from])) ++from;
    return from;
  }

  FlatBus bus_;
  TestEnvironment env_;
  std::vector<Event> events_;
  uint64_t end_cycle_ = 0;
};

TEST_F(LockstepTest, IdenticalRunsPass) {
  SimControl control;
  LockstepChecker checker(config(), control);
  replay(checker, events_);
  EXPECT_FALSE(checker.diverged()) << control.message();
  EXPECT_FALSE(control.stopped()) << control.message();
  const size_t records = std::count_if(events_.begin(), events_.end(),
                                       [](const Event& e) { return e.kind == Event::kRetire; });
  EXPECT_EQ(checker.checked(), records);
  EXPECT_GT(checker.checked(), 50u);
}

TEST_F(LockstepTest, WrongRegisterValueIsCaught) {
  SimControl control;
  LockstepChecker checker(config(), control);
  std::vector<Event> events = events_;
  const size_t i = find([](const Event& e) {
    return e.kind == Event::kRetire && e.record.order == 20 && e.record.rd != 0;
  });
  ASSERT_LT(i, events.size());
  events[i].record.rd_value ^= 0x10;
  replay(checker, events);
  ASSERT_TRUE(checker.diverged());
  EXPECT_EQ(control.reason(), StopReason::kFault);
  EXPECT_NE(control.message().find("destination register of instruction #20"), std::string::npos)
      << control.message();
  EXPECT_NE(control.message().find("rtl: cycle"), std::string::npos);
  EXPECT_NE(control.message().find("iss: cycle"), std::string::npos);
  EXPECT_NE(control.message().find("recent history of the RTL core"), std::string::npos);
}

TEST_F(LockstepTest, ACounterReadIsCheckedToo) {
  SimControl control;
  LockstepChecker checker(config(), control);
  std::vector<Event> events = events_;
  const size_t i = find([](const Event& e) {
    return e.kind == Event::kRetire && (e.record.insn & 0x7F) == 0x73 && e.record.rd == 6;
  });
  ASSERT_LT(i, events.size());
  events[i].record.rd_value += 1;  // a core with other timing
  replay(checker, events);
  EXPECT_TRUE(checker.diverged());
}

TEST_F(LockstepTest, ARetireCycleOffByOneIsCaught) {
  SimControl control;
  LockstepChecker checker(config(), control);
  std::vector<Event> events = events_;
  const size_t i = find([](const Event& e) { return e.kind == Event::kRetire && e.record.order == 30; });
  ASSERT_LT(i, events.size());
  events[i].record.cycle += 1;
  replay(checker, events);
  ASSERT_TRUE(checker.diverged());
  EXPECT_NE(control.message().find("retire cycle of instruction #30"), std::string::npos)
      << control.message();
}

TEST_F(LockstepTest, ARequestOneCycleLateIsCaught) {
  SimControl control;
  LockstepChecker checker(config(), control);
  std::vector<Event> events = events_;
  const size_t i = find([](const Event& e) { return e.kind == Event::kAccess && e.write; });
  ASSERT_LT(i, events.size());
  events[i].cycle += 1;  // reported with the next cycle's events
  std::stable_sort(events.begin(), events.end(),
                   [](const Event& a, const Event& b) { return a.cycle < b.cycle; });
  replay(checker, events);
  ASSERT_TRUE(checker.diverged());
  EXPECT_NE(control.message().find("bus request"), std::string::npos) << control.message();
}

TEST_F(LockstepTest, WrongStoreDataAndPcAreCaught) {
  for (int field = 0; field < 2; ++field) {
    SimControl control;
    LockstepChecker checker(config(), control);
    std::vector<Event> events = events_;
    if (field == 0) {
      const size_t i = find([](const Event& e) { return e.kind == Event::kAccess && e.write; });
      ASSERT_LT(i, events.size());
      events[i].data ^= 1;
    } else {
      const size_t i = find([](const Event& e) { return e.kind == Event::kRetire && e.record.order == 10; });
      ASSERT_LT(i, events.size());
      events[i].record.pc += 4;
    }
    replay(checker, events);
    EXPECT_TRUE(checker.diverged()) << field;
    EXPECT_NE(control.message().find(field == 0 ? "bus request" : "pc of instruction"),
              std::string::npos)
        << control.message();
  }
}

}  // namespace
}  // namespace socsim
