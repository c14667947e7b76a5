// The per-layer NPU report of one run as Markdown (`npu_layers.md` in the report
// directory): the last frame's totals, its layers with RKNN eval_perf's columns and the
// advice findings grouped by rule. It is written from the same record as npu_layers.json
// (npu_report_json), so the two never disagree; scripts/npu_report_md.py puts the sections
// of two runs (one and three cores) side by side for docs/npu-reports/.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace socsim {

/// Sections "## Per frame" (one value column headed "N core(s)"), "## Layers, N core(s)"
/// and "## Advice, N core(s)" of `report` (npu_report_json's record), one blank line apart.
void write_npu_report_markdown(std::ostream& out, const nlohmann::json& report);

}  // namespace socsim
