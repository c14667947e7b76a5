// The ddr-trace text format.
#include "models/ddr/ddr_trace.h"

#include <gtest/gtest.h>

#include <sstream>

#include "models/common/config.h"

namespace socsim {
namespace {

std::string error_of(const std::string& text) {
  std::istringstream in(text);
  try {
    parse_ddr_trace(in, "t.trace", 1 << 20);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(DdrTrace, ParsesFieldsUnitsCommentsAndInitiators) {
  std::istringstream in(
      "# a comment\n"
      "\n"
      "0 R 0x40 64\n"
      "12.5 W 128 32   # trailing comment\n"
      "800ps r 0x1_000 8 npu\n"
      "2us w 0 64 cpu\n"
      "3 R 0 4 npu\n");
  DdrTrace trace = parse_ddr_trace(in, "t.trace", 1 << 20);
  ASSERT_EQ(trace.records.size(), 5u);
  EXPECT_EQ(trace.records[0].time_ps, 0u);
  EXPECT_FALSE(trace.records[0].is_write);
  EXPECT_EQ(trace.records[0].addr, 0x40u);
  EXPECT_EQ(trace.records[1].time_ps, 12500u);
  EXPECT_TRUE(trace.records[1].is_write);
  EXPECT_EQ(trace.records[1].bytes, 32u);
  EXPECT_EQ(trace.records[2].time_ps, 800u);
  EXPECT_EQ(trace.records[2].addr, 0x1000u);
  EXPECT_EQ(trace.records[3].time_ps, 2'000'000u);
  ASSERT_EQ(trace.initiators, (std::vector<std::string>{"trace", "npu", "cpu"}));
  EXPECT_EQ(trace.records[2].initiator, 1);
  EXPECT_EQ(trace.records[4].initiator, 1);
}

TEST(DdrTrace, BadLinesNameFileAndLine) {
  EXPECT_NE(error_of("0 R 0 64\n5 X 0 64\n").find("t.trace:2: bad command 'X'"), std::string::npos);
  EXPECT_NE(error_of("soon R 0 64\n").find("t.trace:1: bad time"), std::string::npos);
  EXPECT_NE(error_of("0 R zz 64\n").find("t.trace:1: bad address"), std::string::npos);
  EXPECT_NE(error_of("0 R 0 0\n").find("t.trace:1: bad size"), std::string::npos);
  EXPECT_NE(error_of("0 R 0\n").find("t.trace:1: expected"), std::string::npos);
  EXPECT_NE(error_of("\n\n0 R 0xFFFFF 64\n").find("t.trace:3: request"), std::string::npos);
  EXPECT_NE(error_of("-1 R 0 64\n").find("bad time"), std::string::npos);
}

TEST(DdrTrace, InitiatorNamesAreCapped) {
  std::string text;
  for (size_t i = 0; i <= kMaxTraceInitiators; ++i) text += "0 R 0 64 i" + std::to_string(i) + "\n";
  EXPECT_NE(error_of(text).find("t.trace:1025: more than 1024 initiator names"), std::string::npos);
}

}  // namespace
}  // namespace socsim
