#include "models/probe/function_profile.h"

#include <algorithm>

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
  Context n;
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

std::map<int, std::vector<std::pair<uint32_t, FunctionProfile::Cost>>>
FunctionProfile::self_costs() const {
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
  return costs;
}

}  // namespace socsim
