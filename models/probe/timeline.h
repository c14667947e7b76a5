// The call-stack frames the run's timeline shows (trap handlers, and with
// --timeline-functions every call), recorded from a probe engine's CallStack. The timeline
// itself, in Chrome's trace-event format, is written by platform/report/trace_events.h.
#pragma once

#include <cstdint>
#include <vector>

#include "models/probe/call_stack.h"

namespace socsim {

/// Records the call stack's frames as spans, from a probe engine's CallStack: trap handler
/// frames (exceptions and interrupts) always, function frames when asked. At most
/// `max_spans` are kept (the count of those dropped is told).
class CallTimeline final : public CallListener {
 public:
  CallTimeline(const SymbolMap& symbols, bool functions, size_t max_spans)
      : symbols_(symbols), functions_(functions), max_spans_(max_spans) {}
  void on_enter(const CallFrame&, const uint32_t*) override {}
  void on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t end_order,
                bool tail_call) override;

  struct Frame {
    int function;
    uint64_t start_cycle, end_cycle;
    bool trap;
  };
  const std::vector<Frame>& frames() const { return frames_; }
  uint64_t dropped() const { return dropped_; }
  bool functions() const { return functions_; }
  const SymbolMap& symbols() const { return symbols_; }

 private:
  const SymbolMap& symbols_;
  bool functions_;
  size_t max_spans_;
  std::vector<Frame> frames_;
  uint64_t dropped_ = 0;
};

}  // namespace socsim
