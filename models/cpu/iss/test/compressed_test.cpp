// RVC expansion against encodings produced by the GNU assembler (compressed vs
// `.option norvc` assembly of the same instructions).
#include <gtest/gtest.h>

#include "models/cpu/iss/test/iss_test_support.h"

namespace socsim {
namespace {

struct Pair {
  uint16_t compressed;
  uint32_t expanded;
  const char* text;
};

const Pair kPairs[] = {
    {0x0800, 0x01010413, "c.addi4spn x8, x2, 16"},
    {0x4144, 0x00452483, "c.lw x9, 4(x10)"},
    {0xdfec, 0x06b7ae23, "c.sw x11, 124(x15)"},
    {0x0001, 0x00000013, "c.nop"},
    {0x12f5, 0xffd28293, "c.addi x5, -3"},
    {0x437d, 0x01f00313, "c.li x6, 31"},
    {0x7139, 0xfc010113, "c.addi16sp x2, -64"},
    {0x7385, 0xfffe13b7, "c.lui x7, 0xfffe1"},
    {0x800d, 0x00345413, "c.srli x8, 3"},
    {0x84fd, 0x41f4d493, "c.srai x9, 31"},
    {0x997d, 0xfff57513, "c.andi x10, -1"},
    {0x8c05, 0x40940433, "c.sub x8, x9"},
    {0x8d2d, 0x00b54533, "c.xor x10, x11"},
    {0x8e55, 0x00d66633, "c.or x12, x13"},
    {0x8f7d, 0x00f77733, "c.and x14, x15"},
    {0x02fe, 0x01f29293, "c.slli x5, 31"},
    {0x537e, 0x0fc12303, "c.lwsp x6, 252(x2)"},
    {0x8382, 0x00038067, "c.jr x7"},
    {0x8426, 0x00900433, "c.mv x8, x9"},
    {0x9002, 0x00100073, "c.ebreak"},
    {0x9502, 0x000500e7, "c.jalr x10"},
    {0x95b2, 0x00c585b3, "c.add x11, x12"},
    {0xdf36, 0x0ad12e23, "c.swsp x13, 188(x2)"},
};

TEST(ExpandCompressed, MatchesAssembler) {
  for (const Pair& p : kPairs) {
    EXPECT_EQ(expand_compressed(p.compressed), p.expanded) << p.text;
  }
}

TEST(ExpandCompressed, JumpsAndBranches) {
  EXPECT_EQ(expand_compressed(0xa041), test::j_type(128, 0));          // c.j +128
  EXPECT_EQ(expand_compressed(0x3ffd), test::j_type(-2, 1));           // c.jal -2
  EXPECT_EQ(expand_compressed(0xdc75), test::b_type(-4, 0, 8, 0));     // c.beqz x8, -4
  EXPECT_EQ(expand_compressed(0xefad), test::b_type(122, 0, 15, 1));   // c.bnez x15, +122
}

TEST(ExpandCompressed, IllegalEncodings) {
  EXPECT_EQ(expand_compressed(0x0000), 0u);  // c.illegal
  EXPECT_EQ(expand_compressed(0x2000), 0u);  // c.fld (no D extension)
  EXPECT_EQ(expand_compressed(0x6101), 0u);  // c.addi16sp with imm 0
  EXPECT_EQ(expand_compressed(0x4002), 0u);  // c.lwsp x0
  EXPECT_EQ(expand_compressed(0x8002), 0u);  // c.jr x0
  EXPECT_EQ(expand_compressed(0x9c01), 0u);  // c.subw (RV64 only)
}

}  // namespace
}  // namespace socsim
