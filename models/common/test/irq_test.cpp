#include "models/common/irq.h"

#include <gtest/gtest.h>

namespace socsim {
namespace {

TEST(IrqLines, ScheduledRiseIsSeenFromItsCycleOn) {
  IrqLines irq;
  irq.schedule_rise(7, 1000);
  EXPECT_EQ(irq.next_rise(), 1000u);
  EXPECT_EQ(irq.pending(999), 0u);
  EXPECT_EQ(irq.pending(1000), 1u << 7);
  EXPECT_EQ(irq.pending(5000), 1u << 7);
  irq.set_level(7, false);
  EXPECT_EQ(irq.pending(5000), 0u);
  EXPECT_EQ(irq.next_rise(), IrqLines::kNever);
}

TEST(IrqLines, LevelsCombineWithScheduledLines) {
  IrqLines irq;
  irq.set_level(16, true);
  irq.schedule_rise(3, 10);
  EXPECT_EQ(irq.pending(0), 1u << 16);
  EXPECT_EQ(irq.pending(10), (1u << 16) | (1u << 3));
  irq.schedule_rise(3, 20);  // moving the compare later lowers the line until then
  EXPECT_EQ(irq.pending(15), 1u << 16);
}

TEST(IrqLines, StableUntilTheNextScheduledRise) {
  IrqLines irq;
  uint64_t until = 0;
  EXPECT_EQ(irq.pending(5, &until), 0u);
  EXPECT_EQ(until, IrqLines::kNever);
  irq.schedule_rise(7, 100);
  irq.schedule_rise(3, 200);
  EXPECT_EQ(irq.pending(5, &until), 0u);
  EXPECT_EQ(until, 99u);
  EXPECT_EQ(irq.pending(100, &until), 1u << 7);
  EXPECT_EQ(until, 199u);
  EXPECT_EQ(irq.pending(250, &until), (1u << 7) | (1u << 3));
  EXPECT_EQ(until, IrqLines::kNever);
}

}  // namespace
}  // namespace socsim
