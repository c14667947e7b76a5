// A shadow call stack rebuilt from the retire trace.
//
// Calls are jal/jalr linking a return address (x1 or x5), returns are jalr x0 through it;
// a return pops frames up to the one whose return address it jumps to (so a frame left by
// longjmp-style code does not linger), and a return that matches no frame is counted and
// otherwise ignored. A plain jump to the first instruction of another function is a tail
// call: the top frame leaves and the callee enters in its place with the same return
// address. An exception (the record's trap flag) or an interrupt (the record's interrupt
// flag with next_pc at the handler, or a next record that is not where the previous one said
// control would go) pushes a trap frame that mret pops.
//
// Cycle convention: an instruction costs `record.cycle - previous record.cycle`. A frame
// begins after its call instruction retired and ends with its return instruction, so its
// cycles are those of every instruction it executed, callees included.
#pragma once

#include <cstdint>
#include <vector>

#include "models/cpu/retire.h"
#include "models/probe/control_flow.h"
#include "models/probe/symbols.h"

namespace socsim {

struct CallFrame {
  int function = SymbolMap::kUnknown;  ///< the function entered (index in the SymbolMap)
  uint32_t entry_pc = 0;
  uint32_t return_addr = 0;
  uint64_t start_cycle = 0;
  uint64_t start_order = 0;  ///< retire index of the frame's first instruction
  bool trap = false;         ///< a trap handler frame (left by mret)
  unsigned depth = 0;        ///< 0 for the frame execution started in
};

class CallListener {
 public:
  virtual ~CallListener() = default;
  /// `frame` was pushed; `regs` is the register file as the callee sees it on entry.
  virtual void on_enter(const CallFrame& frame, const uint32_t* regs) = 0;
  /// `frame` is left: its last instruction retired at `end_cycle`; `end_order` is one past
  /// its last instruction's retire index. `tail_call`: a callee takes its place (entered
  /// next, at the same depth, with the same return address).
  virtual void on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t end_order,
                        bool tail_call) = 0;
};

class CallStack {
 public:
  explicit CallStack(const SymbolMap& symbols) : symbols_(symbols) {}
  void add_listener(CallListener* listener) { listeners_.push_back(listener); }

  /// Called for each record before its control transfer takes effect: starts the root frame
  /// and pushes a trap frame for an interrupt taken before `record`.
  void before(const RetireRecord& record, uint64_t prev_cycle);
  /// Applies `record`'s control transfer (call, return, tail call, trap, mret).
  void after(const RetireRecord& record);
  /// True when `record` leaves the stack as it is: it executes where the previous record
  /// said control would go (no asynchronous trap entry before it) and is neither a trap, an
  /// interrupt nor a possible transfer. before() and after() then reduce to retire_plain(),
  /// which the per-instruction path calls instead, most instructions being such.
  bool plain(const RetireRecord& record) const {
    return started_ && (record.pc == expected_pc_ || prev_trap_) && !record.trap &&
           !record.interrupt && !may_transfer(record.insn);
  }
  /// before() and after() for a record plain() accepted.
  void retire_plain(const RetireRecord& record) {
    entered_handler_ = false;
    if (record.rd != 0) regs_[record.rd & 31] = record.rd_value;
    prev_trap_ = false;
    expected_pc_ = record.next_pc;
  }
  /// Leaves every open frame at `end_cycle` (the end of the run).
  void finish(uint64_t end_cycle, uint64_t end_order);

  const std::vector<CallFrame>& frames() const { return frames_; }
  unsigned depth() const { return static_cast<unsigned>(frames_.size()); }
  const uint32_t* regs() const { return regs_; }
  uint64_t unmatched_returns() const { return unmatched_returns_; }

 private:
  void push(int function, uint32_t entry, uint32_t return_addr, uint64_t cycle, uint64_t order,
            bool trap);
  void pop(uint64_t cycle, uint64_t order, bool tail_call = false);

  const SymbolMap& symbols_;
  std::vector<CallListener*> listeners_;
  std::vector<CallFrame> frames_;
  uint32_t regs_[32] = {};
  bool started_ = false;
  bool prev_trap_ = false;
  bool entered_handler_ = false;  ///< `before` pushed a trap frame for this record
  uint32_t expected_pc_ = 0;
  uint64_t unmatched_returns_ = 0;
};

}  // namespace socsim
