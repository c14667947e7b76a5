// The ddr-trace text format.
#include "models/ddr/ddr_trace.h"

#include <gtest/gtest.h>

#include <sstream>

#include "models/common/config.h"
#include "models/ddr/ddr_address.h"
#include "models/ddr/test/ddr_test_util.h"

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

std::string error_of_format(const std::string& text, const DdrTraceContext& context) {
  std::istringstream in(text);
  try {
    parse_ddr_trace(in, "t", context.device->capacity_bytes(), context);
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

DdrTrace parse(const std::string& text, const DdrTraceContext& context) {
  std::istringstream in(text);
  return parse_ddr_trace(in, "t", context.device->capacity_bytes(), context);
}

std::string write(const DdrTrace& trace, const DdrTraceContext& context) {
  std::ostringstream out;
  write_ddr_trace(out, trace, context);
  return out.str();
}

TEST(DdrTrace, RamulatorLoadStoreLinesAreBursts) {
  const DdrConfig lp = test::lpddr4x_4266();  // 32-byte bursts
  const DdrTraceContext ls{DdrTraceFormat::kRamulatorLoadStore, &lp, 1000};
  DdrTrace t = parse("LD 0x40\nST 4096\n", ls);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_FALSE(t.records[0].is_write);
  EXPECT_EQ(t.records[0].bytes, 32u);
  EXPECT_EQ(t.records[1].addr, 4096u);
  EXPECT_TRUE(t.records[1].is_write);
  // Writing splits a 64-byte request into its two bursts.
  DdrTrace one;
  one.initiators = {"trace"};
  one.records = {{0, false, 0x80, 64, 0}};
  EXPECT_EQ(write(one, ls), "LD 0x80\nLD 0xa0\n");
  one.records[0].addr = 0x90;
  EXPECT_THROW(write(one, ls), ConfigError);  // not at a burst boundary
}

TEST(DdrTrace, RamulatorReadWriteVectorsRoundTripThroughTheMapping) {
  const DdrConfig ddr4 = test::ddr4_3200();
  const DdrTraceContext rw{DdrTraceFormat::kRamulatorReadWrite, &ddr4, 1000};
  // bank group 2, bank 1, row 5, burst 3 of the row: column 3 x BL8 = 24.
  const uint64_t addr = test::ddr4_addr(2, 1, 5, 3);
  DdrTrace t;
  t.initiators = {"trace"};
  t.records = {{0, true, addr, 64, 0}};
  const std::string text = write(t, rw);
  EXPECT_EQ(text, "W 0,0,2,1,5,24\n");
  DdrTrace back = parse(text, rw);
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(back.records[0].addr, addr);
  EXPECT_TRUE(back.records[0].is_write);
  EXPECT_NE(error_of_format("R 0,0,4,0,0,0\n", rw).find("t:1: bank group 4 is beyond"),
            std::string::npos);
  EXPECT_NE(error_of_format("R 0,0,0\n", rw).find("six address fields"), std::string::npos);
}

TEST(DdrTrace, DramsysStlTimesAreCyclesOfThePlayerClock) {
  const DdrConfig ddr4 = test::ddr4_3200();
  const DdrTraceContext stl{DdrTraceFormat::kDramsys, &ddr4, 800};  // 1.25 ns per cycle
  DdrTrace t = parse("# c\n0:\tread\t0x400140\n8: (128) write 1f00\n", stl);
  ASSERT_EQ(t.records.size(), 2u);
  EXPECT_EQ(t.records[0].addr, 0x400140u);
  EXPECT_EQ(t.records[0].bytes, 64u);  // a burst when no length is given
  EXPECT_EQ(t.records[1].time_ps, 10'000u);
  EXPECT_EQ(t.records[1].bytes, 128u);
  EXPECT_EQ(t.records[1].addr, 0x1f00u);
  EXPECT_EQ(write(t, stl), "0:\t(64)\tread\t0x400140\n8:\t(128)\twrite\t0x1f00\n");
  EXPECT_NE(error_of_format("5 read 0x0\n", stl).find("t:1: expected"), std::string::npos);
  EXPECT_NE(error_of_format("5: fetch 0x0\n", stl).find("bad command 'fetch'"), std::string::npos);
}

TEST(DdrTrace, SocsimFormatRoundTrips) {
  const DdrConfig ddr4 = test::ddr4_3200();
  const DdrTraceContext socsim{DdrTraceFormat::kSocsim, &ddr4, 1000};
  const DdrTrace t = parse("0 R 0x40 64 cpu\n1.5ns W 0x80 8 npu\n", socsim);
  const DdrTrace back = parse(write(t, socsim), socsim);
  ASSERT_EQ(back.records.size(), 2u);
  EXPECT_EQ(back.records[1].time_ps, 1500u);
  EXPECT_EQ(back.records[1].bytes, 8u);
  EXPECT_EQ(back.initiators, t.initiators);
  EXPECT_THROW(parse_ddr_trace_format("ramulator", "--format"), ConfigError);
}

TEST(DdrTrace, InitiatorNamesAreCapped) {
  std::string text;
  for (size_t i = 0; i <= kMaxTraceInitiators; ++i) text += "0 R 0 64 i" + std::to_string(i) + "\n";
  EXPECT_NE(error_of(text).find("t.trace:1025: more than 1024 initiator names"), std::string::npos);
}

}  // namespace
}  // namespace socsim
