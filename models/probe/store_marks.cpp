#include "models/probe/store_marks.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "models/common/json_text.h"

namespace socsim {

std::vector<StoreMarks::Stats> StoreMarks::stats() const {
  std::vector<Stats> out;
  for (size_t i = 0; i < regions_.size(); ++i) {
    const RegionDef& d = regions_.def(i);
    const RegionStats& r = regions_.stats(i);
    Stats s;
    s.id = d.mark_id;
    s.name = d.name;
    s.count = r.count;
    s.cycles = r.cycles;
    s.min_cycles = r.min_cycles;
    s.max_cycles = r.max_cycles;
    s.has_elements = r.has_elements;
    s.elements = static_cast<int64_t>(r.elements);
    out.push_back(s);
  }
  return out;
}

void StoreMarks::print_table(std::ostream& out, uint64_t run_cycles, double clock_mhz) const {
  char line[256];
  out << "\nProbes (marks only, from the stores to the probe register: this core has no retire "
         "trace): "
      << run_cycles << " cycles @ " << clock_mhz << " MHz\n";
  std::snprintf(line, sizeof line, "%-32s %7s %12s %10s %10s %12s %6s %10s\n", "region", "count",
                "cycles", "min", "max", "time (us)", "share", "elements");
  out << line;
  const double total = run_cycles ? static_cast<double>(run_cycles) : 1.0;
  for (const Stats& s : stats()) {
    std::string name = s.name.size() > 32 ? s.name.substr(0, 29) + "..." : s.name;
    const std::string elements = s.has_elements ? std::to_string(s.elements) : "-";
    std::snprintf(line, sizeof line, "%-32s %7llu %12llu %10llu %10llu %12.3f %5.1f%% %10s\n",
                  name.c_str(), static_cast<unsigned long long>(s.count),
                  static_cast<unsigned long long>(s.cycles),
                  static_cast<unsigned long long>(s.min_cycles),
                  static_cast<unsigned long long>(s.max_cycles), s.cycles / clock_mhz,
                  100.0 * s.cycles / total, elements.c_str());
    out << line;
  }
  if (regions_.size() == 0) out << "(no marks: the firmware stored nothing to the probe register)\n";
  if (unmatched_ends()) out << "warning: " << unmatched_ends() << " END mark(s) without a BEGIN\n";
  if (open_marks()) out << "warning: " << open_marks() << " mark(s) still open at the end\n";
}

void StoreMarks::write_json(std::ostream& out, uint64_t run_cycles, double clock_mhz,
                            const std::string& cpu_description) const {
  nlohmann::json regions = nlohmann::json::array();
  for (const Stats& s : stats()) {
    regions.push_back({{"name", s.name},
                       {"mark_id", s.id},
                       {"count", s.count},
                       {"cycles", s.cycles},
                       {"min_cycles", s.min_cycles},
                       {"max_cycles", s.max_cycles},
                       {"elements", s.has_elements ? nlohmann::json(s.elements) : nlohmann::json()}});
  }
  const nlohmann::json j = {{"schema", "socsim-store-marks-1"},
                            {"source", "stores to the probe register (no retire trace)"},
                            {"cpu", cpu_description},
                            {"clock_mhz", clock_mhz},
                            {"total_cycles", run_cycles},
                            {"unmatched_ends", unmatched_ends()},
                            {"open_at_end", open_marks()},
                            {"regions", regions}};
  out << json_text(j, 2) << "\n";
}

}  // namespace socsim
