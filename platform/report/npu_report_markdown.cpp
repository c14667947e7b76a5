#include "platform/report/npu_report_markdown.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace socsim {

namespace {

// "1,234,567" (Python's "{:,}").
std::string grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// printf's `format` of `v` ("%.1f"); with `group`, thousands separated ("{:,.1f}").
std::string fixed(const char* format, double v, bool group = false) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  std::string text = buf;
  if (!group) return text;
  const bool negative = text[0] == '-';
  const size_t dot = std::min(text.find('.'), text.size());
  const std::string whole = text.substr(negative ? 1 : 0, dot - (negative ? 1 : 0));
  return (negative ? "-" : "") + grouped(std::stoull(whole)) + text.substr(dot);
}

std::string cores_text(uint64_t cores) {
  return std::to_string(cores) + (cores > 1 ? " cores" : " core");
}

// The layers of the last frame.
std::vector<nlohmann::json> last_frame(const nlohmann::json& report) {
  uint64_t frame = 0;
  for (const auto& l : report["layers"]) frame = std::max(frame, l["frame"].get<uint64_t>());
  std::vector<nlohmann::json> out;
  for (const auto& l : report["layers"]) {
    if (l["frame"].get<uint64_t>() == frame) out.push_back(l);
  }
  return out;
}

void per_frame(std::ostream& out, const nlohmann::json& report,
               const std::vector<nlohmann::json>& layers) {
  uint64_t elapsed = 0, macs = 0, ddr_bound = 0, dma_bound = 0, ddr_bytes = 0;
  double time_us = 0;
  for (const auto& l : layers) {
    elapsed += l["elapsed_cycles"].get<uint64_t>();
    time_us += l["time_us"].get<double>();
    macs += l["macs"].get<uint64_t>();
    ddr_bound += l["bound"] == "ddr" ? 1 : 0;
    dma_bound += l["bound"] == "on-chip-dma" ? 1 : 0;
    ddr_bytes += l["ddr_read_bytes"].get<uint64_t>() + l["ddr_write_bytes"].get<uint64_t>();
  }
  const double cores = report["cores"].get<double>();
  const double peak = report["peak_macs_per_cycle"].get<double>() / cores;  // one core's
  const double usage = elapsed ? 100.0 * static_cast<double>(macs) /
                                     (static_cast<double>(elapsed) * peak * cores)
                               : 0.0;
  out << "## Per frame\n\n| | " << cores_text(report["cores"].get<uint64_t>())
      << " |\n|---|---:|\n";
  out << "| Total Operator Elapsed Per Frame Time(us) | " << fixed("%.1f", time_us, true) << " |\n";
  out << "| NPU cycles (elapsed) | " << grouped(elapsed) << " |\n";
  out << "| MacUsage of the cores (%) | " << fixed("%.1f", usage) << " |\n";
  out << "| layers / DDR-bound / on-chip-DMA-bound | " << layers.size() << " / " << ddr_bound
      << " / " << dma_bound << " |\n";
  out << "| DDR traffic (MB) | " << fixed("%.2f", static_cast<double>(ddr_bytes) / 1e6) << " |\n";
  const nlohmann::json& e = report["frame_energy_uj"];
  if (e.is_object() && !e["total"].is_null()) {
    auto part = [&](const char* key) {
      return e[key].is_null() ? std::string("-") : fixed("%.1f", e[key].get<double>());
    };
    out << "| energy (uJ): total (MAC / buffer / DDR) | " << part("total") << " (" << part("mac")
        << " / " << part("buffer") << " / " << part("ddr") << ") |\n";
  }
}

void layer_table(std::ostream& out, const std::vector<nlohmann::json>& layers) {
  static const char* const kColumns[] = {
      "ID", "OpType", "DataType", "Target", "InputShape", "OutputShape", "DDR Cycles",
      "NPU Cycles", "Total Cycles", "Time(us)", "MacUsage(%)", "WorkLoad(0/1/2)",
      "TaskNumber", "RW(KB)", "FullName"};
  out << "|";
  for (const char* c : kColumns) out << " " << c << " |";
  out << "\n|";
  for (size_t i = 0; i < std::size(kColumns); ++i) out << "---|";
  out << "\n";
  size_t id = 0;
  for (const auto& l : layers) {
    const std::vector<std::string> cells = {
        std::to_string(++id),
        l["op_type"].get<std::string>(),
        l["data_type"].get<std::string>(),
        l["target"].get<std::string>(),
        l["input_shape"].get<std::string>(),
        l["output_shape"].get<std::string>(),
        grouped(l["ddr_cycles"].get<uint64_t>()),
        grouped(l["npu_cycles"].get<uint64_t>()),
        grouped(l["total_cycles"].get<uint64_t>()),
        fixed("%.1f", l["time_us"].get<double>()),
        fixed("%.2f", l["mac_usage_percent"].get<double>()),
        l["workload"].get<std::string>(),
        std::to_string(l["task_number"].get<uint64_t>()),
        fixed("%.1f", l["rw_kb"].get<double>()),
        "`" + l["name"].get<std::string>() + "`"};
    out << "|";
    for (const std::string& c : cells) out << " " << c << " |";
    out << "\n";
  }
}

void advice(std::ostream& out, const nlohmann::json& report) {
  const nlohmann::json findings =
      report.contains("advice") ? report["advice"] : nlohmann::json::array();
  // Rules in the order they first appear; then by total stake, largest first (stable).
  std::vector<std::string> rules;
  std::map<std::string, std::vector<nlohmann::json>> by_rule;
  for (const auto& a : findings) {
    const std::string rule = a["rule"].get<std::string>();
    if (!by_rule.count(rule)) rules.push_back(rule);
    by_rule[rule].push_back(a);
  }
  auto stake = [](const nlohmann::json& a) { return a["cycles_at_stake"].get<int64_t>(); };
  std::map<std::string, int64_t> total;
  for (const auto& [rule, items] : by_rule) {
    for (const auto& a : items) total[rule] += stake(a);
  }
  std::stable_sort(rules.begin(), rules.end(),
                   [&](const std::string& a, const std::string& b) { return total[a] > total[b]; });
  out << findings.size()
      << " findings, grouped by rule, largest total stake first (the largest three of each "
         "with their cycles at stake, and the largest one's text):\n\n"
      << "| rule | findings | cycles at stake | largest | the largest finding says |\n"
      << "|---|---:|---:|---|---|\n";
  for (const std::string& rule : rules) {
    std::vector<nlohmann::json>& items = by_rule[rule];
    std::stable_sort(items.begin(), items.end(), [&](const nlohmann::json& a,
                                                     const nlohmann::json& b) {
      return stake(a) > stake(b);
    });
    std::string top;
    for (size_t i = 0; i < items.size() && i < 3; ++i) {
      top += (i ? "; " : "") + std::string("`") + items[i]["layer"].get<std::string>() + "` " +
             grouped(static_cast<uint64_t>(stake(items[i])));
    }
    out << "| `" << rule << "` | " << items.size() << " | "
        << grouped(static_cast<uint64_t>(total[rule])) << " | " << top << " | "
        << items[0]["text"].get<std::string>() << " |\n";
  }
}

}  // namespace

void write_npu_report_markdown(std::ostream& out, const nlohmann::json& report) {
  const std::vector<nlohmann::json> layers = last_frame(report);
  const std::string cores = cores_text(report["cores"].get<uint64_t>());
  per_frame(out, report, layers);
  out << "\n## Layers, " << cores << "\n\n";
  layer_table(out, layers);
  out << "\n## Advice, " << cores << "\n\n";
  advice(out, report);
}

}  // namespace socsim
