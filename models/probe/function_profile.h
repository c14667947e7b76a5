// The function profile: every retired instruction's cycles attributed to the function whose
// code it is (self), to the functions on the shadow call stack (inclusive, once per
// function however deep the recursion), to call edges, and to a calling-context tree for
// folded stacks. Self cycles sum to the run's cycles exactly.
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/probe/call_stack.h"
#include "models/probe/symbols.h"

namespace socsim {

class FunctionProfile : public CallListener {
 public:
  struct Entry {
    uint64_t self_cycles = 0, self_instructions = 0;
    uint64_t inclusive_cycles = 0, inclusive_instructions = 0;
    uint64_t calls = 0;
  };
  struct Edge {
    uint64_t calls = 0, cycles = 0, instructions = 0;
  };

  FunctionProfile(const SymbolMap& symbols, const CallStack& stack);

  /// One retired instruction at `pc` costing `cycles`, executed in the stack's top frame.
  void on_instruction(uint32_t pc, uint64_t cycles);
  /// Cycles with no retirement (after the last instruction), charged to `pc`'s function.
  void on_idle(uint32_t pc, uint64_t cycles);
  void on_enter(const CallFrame& frame, const uint32_t* regs) override;
  void on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t end_order,
                bool tail_call) override;

  /// Per function index (SymbolMap::kUnknown included), for functions that ran.
  std::vector<std::pair<int, Entry>> entries() const;
  uint64_t total_cycles() const { return total_cycles_; }
  uint64_t total_instructions() const { return total_instructions_; }

  /// Top `n` functions by self cycles as a table.
  void print_top(std::ostream& out, size_t n, bool exact) const;
  /// Callgrind format (KCachegrind): self cost per function, calls and inclusive cost per
  /// call edge, events Cycles and Instructions.
  void write_callgrind(std::ostream& out, const std::string& command) const;
  /// Folded stacks ("outer;inner;leaf cycles" per line) for flame graph tools.
  void write_folded(std::ostream& out) const;

 private:
  static size_t slot(int function) { return static_cast<size_t>(function + 1); }
  Entry& entry(int function);
  size_t child(size_t node, int function);

  struct Node {
    int function = SymbolMap::kUnknown;
    size_t parent = 0;
    uint64_t self_cycles = 0;
    std::map<int, size_t> children;
  };

  const SymbolMap& symbols_;
  const CallStack& stack_;
  std::vector<Entry> entries_;                 ///< by slot(function)
  std::vector<unsigned> on_stack_;             ///< by slot(function)
  std::map<std::pair<int, int>, Edge> edges_;  ///< (caller, callee)
  std::vector<Node> nodes_;                    ///< nodes_[0]: the virtual root
  std::vector<size_t> node_stack_;
  uint64_t total_cycles_ = 0, total_instructions_ = 0;
};

}  // namespace socsim
