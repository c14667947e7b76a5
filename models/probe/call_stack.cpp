#include "models/probe/call_stack.h"

#include "models/probe/control_flow.h"

namespace socsim {

void CallStack::push(int function, uint32_t entry, uint32_t return_addr, uint64_t cycle,
                     uint64_t order, bool trap) {
  CallFrame f;
  f.function = function;
  f.entry_pc = entry;
  f.return_addr = return_addr;
  f.start_cycle = cycle;
  f.start_order = order;
  f.trap = trap;
  f.depth = depth();
  frames_.push_back(f);
  for (CallListener* l : listeners_) l->on_enter(frames_.back(), regs_);
}

void CallStack::pop(uint64_t cycle, uint64_t order, bool tail_call) {
  for (CallListener* l : listeners_) l->on_leave(frames_.back(), cycle, order, tail_call);
  frames_.pop_back();
}

void CallStack::before(const RetireRecord& r, uint64_t prev_cycle) {
  entered_handler_ = false;
  if (!started_) {
    started_ = true;
    push(symbols_.function_at(r.pc), r.pc, 0, 0, r.order, false);
  } else if (r.pc != expected_pc_ && !prev_trap_) {
    // Asynchronous trap entry: this record is the handler's first instruction.
    push(symbols_.function_at(r.pc), r.pc, expected_pc_, prev_cycle, r.order, true);
    entered_handler_ = true;
  }
}

void CallStack::after(const RetireRecord& r) {
  if (r.rd != 0) regs_[r.rd & 31] = r.rd_value;
  prev_trap_ = r.trap;
  expected_pc_ = r.next_pc;
  if (r.trap) {
    push(symbols_.function_at(r.next_pc), r.next_pc, r.pc, r.cycle, r.order + 1, true);
    return;
  }
  if (r.interrupt && !entered_handler_) {
    // An interrupt taken after this instruction, next_pc being the handler (the record
    // convention of retire.h). This instruction's own transfer is not visible then.
    push(symbols_.function_at(r.next_pc), r.next_pc, 0, r.cycle, r.order + 1, true);
    return;
  }
  switch (classify_flow(r.insn)) {
    case FlowKind::kCall: {
      const unsigned length = (r.insn & 3) == 3 ? 4 : 2;
      push(symbols_.function_at(r.next_pc), r.next_pc, r.pc + length, r.cycle, r.order + 1, false);
      break;
    }
    case FlowKind::kReturn: {
      // The root frame (index 0) has nowhere to return to: it is never popped by a return.
      size_t match = frames_.size();
      while (match >= 2 && frames_[match - 1].return_addr != r.next_pc) --match;
      if (match < 2) {
        ++unmatched_returns_;
        break;
      }
      while (frames_.size() >= match) pop(r.cycle, r.order + 1);
      break;
    }
    case FlowKind::kJump: {
      if (frames_.empty()) break;
      const int target = symbols_.function_starting_at(r.next_pc);
      if (target == SymbolMap::kUnknown || target == symbols_.function_at(r.pc)) break;
      // Tail call: the callee takes the frame's place and returns to the same address.
      const CallFrame old = frames_.back();
      pop(r.cycle, r.order + 1, true);
      push(target, r.next_pc, old.return_addr, r.cycle, r.order + 1, old.trap);
      break;
    }
    case FlowKind::kMret: {
      size_t trap = frames_.size();
      while (trap > 0 && !frames_[trap - 1].trap) --trap;
      if (trap == 0) break;
      while (frames_.size() >= trap) pop(r.cycle, r.order + 1);
      break;
    }
    case FlowKind::kOther:
      break;
  }
}

void CallStack::finish(uint64_t end_cycle, uint64_t end_order) {
  while (!frames_.empty()) pop(end_cycle, end_order);
}

}  // namespace socsim
