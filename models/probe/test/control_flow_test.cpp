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

// The filter may pass instructions that are no transfer, but never misses one.
TEST(ControlFlow, MayTransferPassesEveryTransfer) {
  int transfers = 0;
  auto check = [&](uint32_t insn) {
    if (classify_flow(insn) == FlowKind::kOther) return;
    ++transfers;
    EXPECT_TRUE(may_transfer(insn)) << std::hex << insn;
  };
  for (uint32_t insn = 0; insn <= 0xFFFF; ++insn) {
    if ((insn & 3) != 3) check(insn);  // every compressed encoding (zero-extended)
  }
  // Every 32-bit low half (opcode, rd, funct3, rs1 bit 0) with upper halves that give rs1
  // the link registers and mret's bits.
  for (uint32_t low = 3; low <= 0xFFFF; low += 4) {
    for (uint32_t high : {0x0000u, 0x0002u, 0x3020u, 0x8000u, 0xFFFFu}) check(high << 16 | low);
  }
  EXPECT_GT(transfers, 5000);
  EXPECT_FALSE(may_transfer(0x00000013));  // nop
  EXPECT_FALSE(may_transfer(0x00B50463));  // beq
  EXPECT_FALSE(may_transfer(0x0001));      // c.nop
  EXPECT_FALSE(may_transfer(0x852E));      // c.mv a0, a1
  EXPECT_FALSE(may_transfer(0x95B6));      // c.add a1, a3
}

}  // namespace
}  // namespace socsim
