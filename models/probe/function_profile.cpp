#include "models/probe/function_profile.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>

namespace socsim {

FunctionProfile::FunctionProfile(const SymbolMap& symbols, const CallStack& stack)
    : symbols_(symbols), stack_(stack) {
  entries_.resize(symbols.function_count() + 1);
  on_stack_.resize(symbols.function_count() + 1);
  nodes_.emplace_back();
  if (symbols.function_count() != 0) {
    code_base_ = symbols.function(0).addr;
    const uint32_t end = symbols.function(static_cast<int>(symbols.function_count()) - 1).end;
    pc_costs_.resize((end - code_base_ + 1) / 2);
  }
}

FunctionProfile::Cost& FunctionProfile::cost_at(uint32_t pc) {
  const uint32_t index = (pc - code_base_) / 2;
  if (pc >= code_base_ && index < pc_costs_.size()) return pc_costs_[index];
  return other_costs_[pc];
}

FunctionProfile::Edge& FunctionProfile::edge(const CallFrame& frame) {
  const auto& frames = stack_.frames();
  // The return address follows the call instruction: 2 bytes before it is inside it.
  return edges_[{frames[frames.size() - 2].function, frame.function, frame.return_addr - 2}];
}

FunctionProfile::Entry& FunctionProfile::entry(int function) {
  return entries_[slot(function)];
}

size_t FunctionProfile::child(size_t node, int function) {
  auto it = nodes_[node].children.find(function);
  if (it != nodes_[node].children.end()) return it->second;
  const size_t id = nodes_.size();
  Node n;
  n.function = function;
  n.parent = node;
  nodes_.push_back(n);
  nodes_[node].children[function] = id;
  return id;
}

int FunctionProfile::owner(int code) const {
  if (code == SymbolMap::kUnknown || stack_.frames().empty()) return code;
  const int top = stack_.frames().back().function;
  return top == SymbolMap::kUnknown ? code : top;
}

void FunctionProfile::on_instruction(uint32_t pc, uint64_t cycles) {
  const int code = symbols_.function_at(pc);
  const int f = owner(code);
  Entry& e = entry(f);
  e.self_cycles += cycles;
  ++e.self_instructions;
  if (on_stack_[slot(f)] == 0) {
    // Its code runs without a frame of its own (reached by a jump into its middle).
    e.inclusive_cycles += cycles;
    ++e.inclusive_instructions;
  }
  Cost& c = f == code ? cost_at(pc) : foreign_costs_[{f, pc}];
  c.cycles += cycles;
  ++c.instructions;
  total_cycles_ += cycles;
  ++total_instructions_;
  size_t node = node_stack_.empty() ? 0 : node_stack_.back();
  if (node == 0 || nodes_[node].function != f) node = child(node, f);
  nodes_[node].self_cycles += cycles;
}

void FunctionProfile::on_idle(uint32_t pc, uint64_t cycles) {
  on_instruction(pc, cycles);
  const int code = symbols_.function_at(pc);
  const int f = owner(code);
  Entry& e = entry(f);
  --e.self_instructions;
  if (on_stack_[slot(f)] == 0) --e.inclusive_instructions;
  --(f == code ? cost_at(pc) : foreign_costs_[{f, pc}]).instructions;
  --total_instructions_;
}

void FunctionProfile::on_enter(const CallFrame& frame, const uint32_t*) {
  ++on_stack_[slot(frame.function)];
  const auto& frames = stack_.frames();
  if (frames.size() >= 2) {
    ++entry(frame.function).calls;
    ++edge(frame).calls;
  }
  node_stack_.push_back(child(node_stack_.empty() ? 0 : node_stack_.back(), frame.function));
}

void FunctionProfile::on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t end_order,
                               bool) {
  const uint64_t cycles = end_cycle - frame.start_cycle;
  const uint64_t instructions = end_order > frame.start_order ? end_order - frame.start_order : 0;
  if (--on_stack_[slot(frame.function)] == 0) {
    entry(frame.function).inclusive_cycles += cycles;
    entry(frame.function).inclusive_instructions += instructions;
  }
  const auto& frames = stack_.frames();
  if (frames.size() >= 2) {
    Edge& e = edge(frame);
    e.cycles += cycles;
    e.instructions += instructions;
  }
  node_stack_.pop_back();
}

std::vector<std::pair<int, FunctionProfile::Entry>> FunctionProfile::entries() const {
  std::vector<std::pair<int, Entry>> out;
  for (size_t s = 0; s < entries_.size(); ++s) {
    const Entry& e = entries_[s];
    if (e.self_instructions || e.calls || e.inclusive_cycles) {
      out.emplace_back(static_cast<int>(s) - 1, e);
    }
  }
  return out;
}

void FunctionProfile::print_top(std::ostream& out, size_t n, bool exact) const {
  auto rows = entries();
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.self_cycles != b.second.self_cycles
               ? a.second.self_cycles > b.second.self_cycles
               : a.first < b.first;
  });
  const double total = total_cycles_ ? static_cast<double>(total_cycles_) : 1.0;
  char line[256];
  out << "\nFunction profile" << (exact ? "" : " [iss: estimated cycles]") << ": " << total_cycles_
      << " cycles, " << total_instructions_ << " instructions, " << rows.size()
      << " functions (top " << std::min(n, rows.size()) << " by self cycles)\n";
  std::snprintf(line, sizeof line, "%12s %6s %12s %6s %12s %6s %9s  %s\n", "self cycles", "self%",
                "incl cycles", "incl%", "self instrs", "CPI", "calls", "function");
  out << line;
  for (size_t i = 0; i < rows.size() && i < n; ++i) {
    const Entry& e = rows[i].second;
    std::string name = symbols_.name_of(rows[i].first);
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

void FunctionProfile::write_callgrind(std::ostream& out, const std::string& command,
                                      const SourceLines* lines) const {
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
    return id + " " + symbols_.name_of(f);
  };
  auto line_of = [&](uint32_t pc) {
    SourceLine l;
    if (lines == nullptr || !lines->lookup(pc, &l)) l = {"???", 0};
    return l;
  };
  auto entry_of = [&](int f) { return f == SymbolMap::kUnknown ? 0u : symbols_.function(f).addr; };
  char buf[96];
  auto position = [&](uint32_t pc, unsigned line) {
    std::snprintf(buf, sizeof buf, "0x%x %u", pc, line);
    return std::string(buf);
  };

  // Self cost per address, grouped by function.
  std::map<int, std::vector<std::pair<uint32_t, Cost>>> costs;
  for (size_t i = 0; i < pc_costs_.size(); ++i) {
    if (pc_costs_[i].cycles == 0 && pc_costs_[i].instructions == 0) continue;
    const uint32_t pc = code_base_ + static_cast<uint32_t>(2 * i);
    costs[symbols_.function_at(pc)].push_back({pc, pc_costs_[i]});
  }
  for (const auto& [pc, c] : other_costs_) costs[symbols_.function_at(pc)].push_back({pc, c});
  for (const auto& [key, c] : foreign_costs_) costs[key.first].push_back({key.second, c});
  for (auto& [f, list] : costs) {
    std::sort(list.begin(), list.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  std::map<int, std::vector<std::pair<EdgeKey, Edge>>> calls_from;
  for (const auto& [key, e] : edges_) calls_from[key.caller].push_back({key, e});

  out << "# callgrind format\nversion: 1\ncreator: socsim\ncmd: " << command
      << "\npositions: instr line\nevents: Cycles Instructions\n"
      << "summary: " << total_cycles_ << " " << total_instructions_ << "\n\n";
  for (const auto& [f, e] : entries()) {
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
  out << "totals: " << total_cycles_ << " " << total_instructions_ << "\n";
}

void FunctionProfile::write_folded(std::ostream& out) const {
  std::function<void(size_t, const std::string&)> walk = [&](size_t id, const std::string& path) {
    const Node& n = nodes_[id];
    std::string here = path;
    if (id != 0) {
      std::string name = symbols_.name_of(n.function);
      std::replace(name.begin(), name.end(), ';', ':');
      here = path.empty() ? name : path + ";" + name;
      if (n.self_cycles) out << here << " " << n.self_cycles << "\n";
    }
    for (const auto& [f, child_id] : n.children) walk(child_id, here);
  };
  walk(0, "");
}

void FunctionProfile::write_speedscope(std::ostream& out, const std::string& name) const {
  // One frame per function that appears in the tree; one sample per node with self cycles.
  nlohmann::json frames = nlohmann::json::array();
  std::map<int, size_t> frame_of;
  nlohmann::json samples = nlohmann::json::array(), weights = nlohmann::json::array();
  std::vector<size_t> path;
  std::function<void(size_t)> walk = [&](size_t id) {
    const Node& n = nodes_[id];
    if (id != 0) {
      auto it = frame_of.find(n.function);
      if (it == frame_of.end()) {
        it = frame_of.emplace(n.function, frames.size()).first;
        frames.push_back({{"name", symbols_.name_of(n.function)}});
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
         {"endValue", total_cycles_},
         {"samples", samples},
         {"weights", weights}}}}};
  out << doc.dump() << "\n";
}

}  // namespace socsim
