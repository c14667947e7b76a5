// The function profile: every retired instruction's cycles attributed to the function whose
// code it is (self), to the functions on the shadow call stack (inclusive, once per
// function however deep the recursion), to call edges by call site, to its address (for
// source lines), and to a calling-context tree for folded stacks. Self cycles sum to the
// run's cycles exactly.
//
// Self cost goes to the function of the frame that executes the instruction: code reached by
// a jump into the middle of another function or by falling through into it (the shared
// bodies of the __riscv_save_N / __riscv_restore_N millicode, a function's .cold part) is
// the cost of the function that was called, so every function's self cost lies inside its
// own frames and inclusive (frame time) is never below self, in the table and in what
// callgrind_annotate adds up from the call edges. Code without a symbol, and code run
// before any frame, counts as the function its address is in. A tail call leaves the
// caller's frame and enters the callee's at the caller's call site (call_stack.h).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "models/probe/call_stack.h"
#include "models/probe/source_lines.h"
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

  /// Cycles and instructions charged to one place.
  struct Cost {
    uint64_t cycles = 0, instructions = 0;
  };
  /// Self cost per instruction address, by the function charged (see the top of the file),
  /// addresses ascending; functions ascending.
  std::map<int, std::vector<std::pair<uint32_t, Cost>>> self_costs() const;
  /// A call edge: caller, callee and an address inside the call instruction.
  struct CallSite {
    int caller, callee;
    uint32_t site;
    bool operator<(const CallSite& o) const {
      return caller != o.caller ? caller < o.caller
                                : callee != o.callee ? callee < o.callee : site < o.site;
    }
  };
  /// Calls, and the callee's inclusive cost, per call site, in CallSite order.
  const std::map<CallSite, Edge>& call_sites() const { return edges_; }
  /// A node of the calling-context tree: the function, its self cycles in this context and
  /// its callees' nodes by function.
  struct Context {
    int function = SymbolMap::kUnknown;
    size_t parent = 0;
    uint64_t self_cycles = 0;
    std::map<int, size_t> children;
  };
  /// The calling-context tree; node 0 is the virtual root.
  const std::vector<Context>& contexts() const { return nodes_; }
  const SymbolMap& symbols() const { return symbols_; }

  // The writers of these figures (table, callgrind, folded stacks, speedscope) are in
  // platform/report/profile_report.h.

 private:
  static size_t slot(int function) { return static_cast<size_t>(function + 1); }
  Entry& entry(int function);
  size_t child(size_t node, int function);


  const SymbolMap& symbols_;
  const CallStack& stack_;
  std::vector<Entry> entries_;                 ///< by slot(function)
  std::vector<unsigned> on_stack_;             ///< by slot(function)
  Edge& edge(const CallFrame& frame);
  /// The function charged for code of function `code` run now (see the top of the file).
  int owner(int code) const;
  Cost& cost_at(uint32_t pc);

  std::map<CallSite, Edge> edges_;
  uint32_t code_base_ = 0;          ///< pc_costs_[(pc - code_base_) / 2]
  std::vector<Cost> pc_costs_;      ///< self cost per halfword address of the functions
  std::map<uint32_t, Cost> other_costs_;  ///< pcs outside every function
  std::map<std::pair<int, uint32_t>, Cost> foreign_costs_;  ///< (owner, pc) of another's code
  std::vector<Context> nodes_;                   ///< nodes_[0]: the virtual root
  std::vector<size_t> node_stack_;
  uint64_t total_cycles_ = 0, total_instructions_ = 0;
};

}  // namespace socsim
