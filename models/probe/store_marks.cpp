#include "models/probe/store_marks.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace socsim {

StoreMarks::State& StoreMarks::state(uint32_t id) {
  auto it = index_.find(id);
  if (it != index_.end()) return states_[it->second];
  index_[id] = states_.size();
  State s;
  s.stats.id = id;
  auto named = names_.find(id);
  s.stats.name = named != names_.end() ? named->second : "mark " + std::to_string(id);
  states_.push_back(s);
  return states_.back();
}

void StoreMarks::on_store(uint32_t offset, uint32_t value, uint64_t cycle) {
  if (offset == 0) {  // BEGIN id
    State& s = state(value);
    if (s.nesting++ == 0) {
      s.start = cycle;
      s.elements = -1;
      open_.push_back(index_[value]);
    }
  } else if (offset == 4) {  // END id
    auto it = index_.find(value);
    if (it == index_.end() || states_[it->second].nesting == 0) {
      ++unmatched_ends_;
      return;
    }
    State& s = states_[it->second];
    if (--s.nesting != 0) return;
    const uint64_t cycles = cycle - s.start;
    Stats& st = s.stats;
    st.min_cycles = st.count == 0 ? cycles : std::min(st.min_cycles, cycles);
    st.max_cycles = std::max(st.max_cycles, cycles);
    st.cycles += cycles;
    ++st.count;
    if (s.elements >= 0) {
      st.has_elements = true;
      st.elements += s.elements;
    }
    open_.erase(std::find(open_.begin(), open_.end(), it->second));
  } else if (offset == 8) {  // VALUE: elements of the innermost open mark
    if (!open_.empty()) states_[open_.back()].elements = value;
  }
}

std::vector<StoreMarks::Stats> StoreMarks::stats() const {
  std::vector<Stats> out;
  for (const State& s : states_) out.push_back(s.stats);
  return out;
}

uint64_t StoreMarks::open_marks() const { return open_.size(); }

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
  if (states_.empty()) out << "(no marks: the firmware stored nothing to the probe register)\n";
  if (unmatched_ends_) out << "warning: " << unmatched_ends_ << " END mark(s) without a BEGIN\n";
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
                            {"unmatched_ends", unmatched_ends_},
                            {"open_at_end", open_marks()},
                            {"regions", regions}};
  out << j.dump(2) << "\n";
}

}  // namespace socsim
