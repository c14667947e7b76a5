// The call-stack frames recorded for the timeline.
#include "models/probe/timeline.h"

#include <gtest/gtest.h>

namespace socsim {
namespace {

TEST(CallTimeline, KeepsTrapFramesAlwaysAndFunctionsWhenAsked) {
  SymbolMap symbols({{"main", 0x100, 0x20, true}, {"f", 0x200, 0x10, true}});
  CallFrame root{0, 0x100, 0, 0, 0, false, 0};
  CallFrame call{1, 0x200, 0x104, 10, 3, false, 1};
  CallFrame trap{SymbolMap::kUnknown, 0x0, 0x108, 20, 6, true, 1};
  CallTimeline traps_only(symbols, false, 10);
  CallTimeline all(symbols, true, 1);
  for (CallTimeline* t : {&traps_only, &all}) {
    t->on_leave(call, 15, 5, false);
    t->on_leave(trap, 30, 9, false);
    t->on_leave(root, 40, 12, false);  // the root frame is the run itself: never a span
  }
  ASSERT_EQ(traps_only.frames().size(), 1u);
  EXPECT_TRUE(traps_only.frames()[0].trap);
  EXPECT_EQ(traps_only.frames()[0].end_cycle, 30u);
  ASSERT_EQ(all.frames().size(), 1u);  // a bound of one span: the trap frame is dropped
  EXPECT_EQ(all.frames()[0].function, 1);
  EXPECT_EQ(all.dropped(), 1u);
}

}  // namespace
}  // namespace socsim
