// Classification of control transfers, 32-bit and compressed.
#include "models/probe/control_flow.h"

#include <gtest/gtest.h>

namespace socsim {
namespace {

TEST(ControlFlow, ThirtyTwoBit) {
  EXPECT_EQ(classify_flow(0x000000EF), FlowKind::kCall);    // jal ra, .
  EXPECT_EQ(classify_flow(0x000002EF), FlowKind::kCall);    // jal t0, .
  EXPECT_EQ(classify_flow(0x0000006F), FlowKind::kJump);    // j .
  EXPECT_EQ(classify_flow(0x00008067), FlowKind::kReturn);  // ret
  EXPECT_EQ(classify_flow(0x000280E7), FlowKind::kCall);    // jalr ra, 0(t0)
  EXPECT_EQ(classify_flow(0x00030067), FlowKind::kJump);    // jr t1
  EXPECT_EQ(classify_flow(0x00028067), FlowKind::kReturn);  // jr t0 (alternate link)
  EXPECT_EQ(classify_flow(0x30200073), FlowKind::kMret);
  EXPECT_EQ(classify_flow(0x00000013), FlowKind::kOther);  // nop
  EXPECT_EQ(classify_flow(0x00B50463), FlowKind::kOther);  // beq a0, a1, .+8
}

TEST(ControlFlow, Compressed) {
  EXPECT_EQ(classify_flow(0x2001), FlowKind::kCall);    // c.jal
  EXPECT_EQ(classify_flow(0xA001), FlowKind::kJump);    // c.j
  EXPECT_EQ(classify_flow(0x8082), FlowKind::kReturn);  // c.jr ra (ret)
  EXPECT_EQ(classify_flow(0x8302), FlowKind::kJump);    // c.jr t1
  EXPECT_EQ(classify_flow(0x9302), FlowKind::kCall);    // c.jalr t1
  EXPECT_EQ(classify_flow(0x852E), FlowKind::kOther);   // c.mv a0, a1
  EXPECT_EQ(classify_flow(0x9002), FlowKind::kOther);   // c.ebreak
  EXPECT_EQ(classify_flow(0x0001), FlowKind::kOther);   // c.nop
}

}  // namespace
}  // namespace socsim
