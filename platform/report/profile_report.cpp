#include "platform/report/profile_report.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace socsim {

void print_function_profile(std::ostream& out, const FunctionProfile& profile, size_t n,
                            bool exact) {
  using Entry = FunctionProfile::Entry;
  const SymbolMap& symbols = profile.symbols();
  const uint64_t total_cycles = profile.total_cycles();
  auto rows = profile.entries();
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.self_cycles != b.second.self_cycles
               ? a.second.self_cycles > b.second.self_cycles
               : a.first < b.first;
  });
  const double total = total_cycles ? static_cast<double>(total_cycles) : 1.0;
  char line[256];
  out << "\nFunction profile" << (exact ? "" : " [iss: estimated cycles]") << ": " << total_cycles
      << " cycles, " << profile.total_instructions() << " instructions, " << rows.size()
      << " functions (top " << std::min(n, rows.size()) << " by self cycles)\n";
  std::snprintf(line, sizeof line, "%12s %6s %12s %6s %12s %6s %9s  %s\n", "self cycles", "self%",
                "incl cycles", "incl%", "self instrs", "CPI", "calls", "function");
  out << line;
  for (size_t i = 0; i < rows.size() && i < n; ++i) {
    const Entry& e = rows[i].second;
    std::string name = symbols.name_of(rows[i].first);
    if (name.size() > 60) name = name.substr(0, 57) + "...";
    std::snprintf(line, sizeof line, "%12llu %5.1f%% %12llu %5.1f%% %12llu %6.2f %9llu  %s\n",
                  static_cast<unsigned long long>(e.self_cycles), 100.0 * e.self_cycles / total,
                  static_cast<unsigned long long>(e.inclusive_cycles),
                  100.0 * e.inclusive_cycles / total,
                  static_cast<unsigned long long>(e.self_instructions),
                  e.self_instructions ? double(e.self_cycles) / e.self_instructions : 0.0,
                  static_cast<unsigned long long>(e.calls), name.c_str());
    out << line;
  }
}

void write_callgrind(std::ostream& out, const FunctionProfile& profile,
                     const std::string& command, const SourceLines* lines) {
  const SymbolMap& symbols = profile.symbols();
  // Name compression: "(id) name" the first time, "(id)" after; files and functions apart.
  std::map<std::string, int> file_ids;
  auto file_ref = [&](const std::string& file) {
    auto it = file_ids.find(file);
    if (it != file_ids.end()) return "(" + std::to_string(it->second) + ")";
    const int id = static_cast<int>(file_ids.size()) + 1;
    file_ids[file] = id;
    return "(" + std::to_string(id) + ") " + file;
  };
  std::map<int, bool> named;
  auto fn_ref = [&](int f) {
    const std::string id = "(" + std::to_string(f + 1) + ")";
    if (named[f]) return id;
    named[f] = true;
    return id + " " + symbols.name_of(f);
  };
  auto line_of = [&](uint32_t pc) {
    SourceLine l;
    if (lines == nullptr || !lines->lookup(pc, &l)) l = {"???", 0};
    return l;
  };
  auto entry_of = [&](int f) { return f == SymbolMap::kUnknown ? 0u : symbols.function(f).addr; };
  char buf[96];
  auto position = [&](uint32_t pc, unsigned line) {
    std::snprintf(buf, sizeof buf, "0x%x %u", pc, line);
    return std::string(buf);
  };

  // Self cost per address, grouped by function.
  std::map<int, std::vector<std::pair<uint32_t, FunctionProfile::Cost>>> costs =
      profile.self_costs();
  std::map<int, std::vector<std::pair<FunctionProfile::CallSite, FunctionProfile::Edge>>>
      calls_from;
  for (const auto& [key, e] : profile.call_sites()) calls_from[key.caller].push_back({key, e});

  out << "# callgrind format\nversion: 1\ncreator: socsim\ncmd: " << command
      << "\npositions: instr line\nevents: Cycles Instructions\n"
      << "summary: " << profile.total_cycles() << " " << profile.total_instructions() << "\n\n";
  for (const auto& [f, e] : profile.entries()) {
    const std::string home = line_of(entry_of(f)).file;
    out << "fl=" << file_ref(home) << "\nfn=" << fn_ref(f) << "\n";
    std::string current = home;
    for (const auto& [pc, c] : costs[f]) {
      const SourceLine l = line_of(pc);
      if (l.file != current) {
        out << (l.file == home ? "fe=" : "fi=") << file_ref(l.file) << "\n";
        current = l.file;
      }
      out << position(pc, l.line) << " " << c.cycles << " " << c.instructions << "\n";
    }
    for (const auto& [key, edge] : calls_from[f]) {
      const SourceLine site = line_of(key.site);
      if (site.file != current) {
        out << (site.file == home ? "fe=" : "fi=") << file_ref(site.file) << "\n";
        current = site.file;
      }
      const uint32_t target = entry_of(key.callee);
      out << "cfl=" << file_ref(line_of(target).file) << "\ncfn=" << fn_ref(key.callee)
          << "\ncalls=" << edge.calls << " " << position(target, line_of(target).line) << "\n"
          << position(key.site, site.line) << " " << edge.cycles << " " << edge.instructions
          << "\n";
    }
    out << "\n";
  }
  out << "totals: " << profile.total_cycles() << " " << profile.total_instructions() << "\n";
}

void write_folded_stacks(std::ostream& out, const FunctionProfile& profile) {
  const std::vector<FunctionProfile::Context>& nodes = profile.contexts();
  std::function<void(size_t, const std::string&)> walk = [&](size_t id, const std::string& path) {
    const FunctionProfile::Context& n = nodes[id];
    std::string here = path;
    if (id != 0) {
      std::string name = profile.symbols().name_of(n.function);
      std::replace(name.begin(), name.end(), ';', ':');
      here = path.empty() ? name : path + ";" + name;
      if (n.self_cycles) out << here << " " << n.self_cycles << "\n";
    }
    for (const auto& [f, child_id] : n.children) walk(child_id, here);
  };
  walk(0, "");
}

void write_speedscope(std::ostream& out, const FunctionProfile& profile, const std::string& name) {
  const std::vector<FunctionProfile::Context>& nodes = profile.contexts();
  // One frame per function that appears in the tree; one sample per node with self cycles.
  nlohmann::json frames = nlohmann::json::array();
  std::map<int, size_t> frame_of;
  nlohmann::json samples = nlohmann::json::array(), weights = nlohmann::json::array();
  std::vector<size_t> path;
  std::function<void(size_t)> walk = [&](size_t id) {
    const FunctionProfile::Context& n = nodes[id];
    if (id != 0) {
      auto it = frame_of.find(n.function);
      if (it == frame_of.end()) {
        it = frame_of.emplace(n.function, frames.size()).first;
        frames.push_back({{"name", profile.symbols().name_of(n.function)}});
      }
      path.push_back(it->second);
      if (n.self_cycles) {
        samples.push_back(path);
        weights.push_back(n.self_cycles);
      }
    }
    for (const auto& [f, child_id] : n.children) walk(child_id);
    if (id != 0) path.pop_back();
  };
  walk(0);
  const nlohmann::json doc = {
      {"$schema", "https://www.speedscope.app/file-format-schema.json"},
      {"exporter", "socsim"},
      {"name", name},
      {"activeProfileIndex", 0},
      {"shared", {{"frames", frames}}},
      {"profiles",
       {{{"type", "sampled"},
         {"name", name},
         {"unit", "none"},
         {"startValue", 0},
         {"endValue", profile.total_cycles()},
         {"samples", samples},
         {"weights", weights}}}}};
  out << doc.dump() << "\n";
}

}  // namespace socsim
