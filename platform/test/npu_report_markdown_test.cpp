// The markdown NPU report (npu_layers.md) of a hand-made record: the last frame only,
// thousands separators, the per-frame sums, the advice grouped by rule, largest stake first.
#include "platform/report/npu_report_markdown.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace socsim {
namespace {

nlohmann::json layer(int frame, const std::string& name, uint64_t elapsed, uint64_t macs,
                     const char* bound) {
  return {{"frame", frame},           {"name", name},
          {"op_type", "Conv"},        {"data_type", "INT8"},
          {"target", "NPU"},          {"input_shape", "(1,8,4,4)"},
          {"output_shape", "(1,8,4,4)"}, {"ddr_cycles", 1500},
          {"npu_cycles", elapsed},    {"total_cycles", elapsed},
          {"elapsed_cycles", elapsed}, {"time_us", elapsed / 1000.0},
          {"macs", macs},             {"mac_usage_percent", 12.5},
          {"workload", "100%"},       {"task_number", 1},
          {"rw_kb", 2.25},            {"ddr_read_bytes", 1000000},
          {"ddr_write_bytes", 500000}, {"bound", bound}};
}

TEST(NpuReportMarkdown, LastFrameTotalsLayersAndGroupedAdvice) {
  const nlohmann::json report = {
      {"cores", 3},
      {"peak_macs_per_cycle", 3072.0},
      {"layers", {layer(0, "old", 99, 1, "compute"), layer(1, "a", 2000, 3072000, "ddr"),
                  layer(1, "b", 1000, 0, "compute")}},
      {"frame_energy_uj", {{"mac", 1.25}, {"buffer", 2.0}, {"ddr", nullptr}, {"total", 3.25}}},
      {"advice",
       {{{"rule", "small"}, {"layer", "a"}, {"cycles_at_stake", 10}, {"text", "s"}},
        {{"rule", "big"}, {"layer", "b"}, {"cycles_at_stake", 1200}, {"text", "b1"}},
        {{"rule", "big"}, {"layer", "a"}, {"cycles_at_stake", 3400}, {"text", "b2"}}}}};
  std::ostringstream out;
  write_npu_report_markdown(out, report);
  const std::string md = out.str();
  EXPECT_EQ(md.find("## Per frame\n\n| | 3 cores |\n|---|---:|\n"), 0u) << md;
  EXPECT_NE(md.find("| Total Operator Elapsed Per Frame Time(us) | 3.0 |\n"), std::string::npos);
  EXPECT_NE(md.find("| NPU cycles (elapsed) | 3,000 |\n"), std::string::npos) << md;
  // 3,072,000 MACs over 3,000 cycles of three cores of 1,024 MACs: a third.
  EXPECT_NE(md.find("| MacUsage of the cores (%) | 33.3 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| layers / DDR-bound / on-chip-DMA-bound | 2 / 1 / 0 |\n"),
            std::string::npos);
  EXPECT_NE(md.find("| DDR traffic (MB) | 3.00 |\n"), std::string::npos);
  EXPECT_NE(md.find("| energy (uJ): total (MAC / buffer / DDR) | 3.2 (1.2 / 2.0 / -) |\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("\n## Layers, 3 cores\n\n| ID | OpType |"), std::string::npos);
  EXPECT_NE(md.find("| 1 | Conv | INT8 | NPU | (1,8,4,4) | (1,8,4,4) | 1,500 | 2,000 | 2,000 | "
                    "2.0 | 12.50 | 100% | 1 | 2.2 | `a` |\n"),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("`old`"), std::string::npos);  // not of the last frame
  EXPECT_NE(md.find("\n## Advice, 3 cores\n\n3 findings, grouped by rule"), std::string::npos);
  const size_t big = md.find("| `big` | 2 | 4,600 | `a` 3,400; `b` 1,200 | b2 |\n");
  const size_t small = md.find("| `small` | 1 | 10 | `a` 10 | s |\n");
  ASSERT_NE(big, std::string::npos) << md;
  ASSERT_NE(small, std::string::npos) << md;
  EXPECT_LT(big, small);
}

}  // namespace
}  // namespace socsim
