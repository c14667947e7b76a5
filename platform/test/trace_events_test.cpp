// The timeline's track assignment (spans nest on every track) and its trace-event output.
#include "platform/report/trace_events.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace socsim {
namespace {

struct Placed {
  std::string name;
  int tid;
};

std::vector<Placed> spans_of(const nlohmann::json& doc) {
  std::vector<Placed> out;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "X") out.push_back({e["name"], e["tid"]});
  }
  return out;
}

TEST(Timeline, NestedSpansShareATrackOverlappingOnesGetAnother) {
  Timeline t;
  const int pid = t.add_process("cpu");
  // outer [0,10) holds inner [2,5) and [5,8); crossing [7,12) overlaps inner's end and
  // outer's end, so it needs a second track; after [0,10) ends, [10,11) fits the first.
  t.add_spans(pid, "regions", "r",
              {{"crossing", 7, 12}, {"inner", 2, 5}, {"outer", 0, 10}, {"second", 5, 8},
               {"later", 10, 11}});
  std::ostringstream out;
  t.write(out, {});
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  std::map<std::string, int> tid;
  for (const Placed& p : spans_of(doc)) tid[p.name] = p.tid;
  EXPECT_EQ(tid["outer"], tid["inner"]);
  EXPECT_EQ(tid["outer"], tid["second"]);
  EXPECT_EQ(tid["outer"], tid["later"]);
  EXPECT_NE(tid["outer"], tid["crossing"]);
  std::map<int, std::string> names;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") names[e["tid"]] = e["args"]["name"];
  }
  EXPECT_EQ(names[tid["outer"]], "regions");
  EXPECT_EQ(names[tid["crossing"]], "regions 2");
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "X" && e["name"] == "crossing") {
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 7);
      EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 5);
    }
  }
}

TEST(Timeline, CountersAndProcesses) {
  Timeline t;
  const int a = t.add_process("ddr");
  const int b = t.add_process("npu");
  EXPECT_NE(a, b);
  t.add_counter(a, "bandwidth (GB/s)", {{0, 1.5}, {0.1, 0}});
  std::ostringstream out;
  t.write(out, {{"clock_mhz", 400}});
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  int counters = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] == "C") {
      ++counters;
      EXPECT_EQ(e["pid"], a);
      EXPECT_EQ(e["name"], "bandwidth (GB/s)");
    }
  }
  EXPECT_EQ(counters, 2);
  EXPECT_EQ(doc["otherData"]["clock_mhz"], 400);
  EXPECT_EQ(doc["displayTimeUnit"], "ns");
}

}  // namespace
}  // namespace socsim
