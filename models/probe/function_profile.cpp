#include "models/probe/function_profile.h"

#include <algorithm>
#include <cstdio>
#include <functional>

namespace socsim {

FunctionProfile::FunctionProfile(const SymbolMap& symbols, const CallStack& stack)
    : symbols_(symbols), stack_(stack) {
  entries_.resize(symbols.function_count() + 1);
  on_stack_.resize(symbols.function_count() + 1);
  nodes_.emplace_back();
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

void FunctionProfile::on_instruction(uint32_t pc, uint64_t cycles) {
  const int f = symbols_.function_at(pc);
  Entry& e = entry(f);
  e.self_cycles += cycles;
  ++e.self_instructions;
  total_cycles_ += cycles;
  ++total_instructions_;
  size_t node = node_stack_.empty() ? 0 : node_stack_.back();
  if (node == 0 || nodes_[node].function != f) node = child(node, f);
  nodes_[node].self_cycles += cycles;
}

void FunctionProfile::on_idle(uint32_t pc, uint64_t cycles) {
  on_instruction(pc, cycles);
  --entry(symbols_.function_at(pc)).self_instructions;
  --total_instructions_;
}

void FunctionProfile::on_enter(const CallFrame& frame, const uint32_t*) {
  ++on_stack_[slot(frame.function)];
  const auto& frames = stack_.frames();
  if (frames.size() >= 2) {
    ++entry(frame.function).calls;
    ++edges_[{frames[frames.size() - 2].function, frame.function}].calls;
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
    Edge& e = edges_[{frames[frames.size() - 2].function, frame.function}];
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

void FunctionProfile::write_callgrind(std::ostream& out, const std::string& command) const {
  auto addr = [&](int f) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%x",
                  f == SymbolMap::kUnknown ? 0u : symbols_.function(f).addr);
    return std::string(buf);
  };
  std::map<int, bool> named;
  auto ref = [&](int f) {
    const std::string id = "(" + std::to_string(f + 1) + ")";
    if (named[f]) return id;
    named[f] = true;
    return id + " " + symbols_.name_of(f);
  };
  out << "# callgrind format\nversion: 1\ncreator: socsim\ncmd: " << command
      << "\npositions: instr\nevents: Cycles Instructions\n"
      << "summary: " << total_cycles_ << " " << total_instructions_ << "\n\n";
  std::map<int, std::vector<std::pair<int, Edge>>> calls_from;
  for (const auto& [key, edge] : edges_) calls_from[key.first].push_back({key.second, edge});
  for (const auto& [f, e] : entries()) {
    out << "fn=" << ref(f) << "\n"
        << addr(f) << " " << e.self_cycles << " " << e.self_instructions << "\n";
    for (const auto& [callee, edge] : calls_from[f]) {
      out << "cfn=" << ref(callee) << "\ncalls=" << edge.calls << " " << addr(callee) << "\n"
          << addr(f) << " " << edge.cycles << " " << edge.instructions << "\n";
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

}  // namespace socsim
