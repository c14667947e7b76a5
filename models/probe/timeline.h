// The run's timeline in Chrome's trace-event format (JSON), as Perfetto's UI and
// chrome://tracing load it: one process per component (the CPU, each NPU, each DDR), tracks
// (threads) of complete events ("ph": "X", time in microseconds) and counters ("ph": "C").
//
// Spans of one kind are spread over as many tracks as they need so that on every track
// they nest (a span lies inside the one it starts in, or after it): the viewers draw a track
// as one stack of spans, and overlapping spans on one track would be drawn wrongly.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "models/probe/call_stack.h"

namespace socsim {

class Timeline {
 public:
  /// Start and end are both given (not a duration), so that spans ending at one cycle end
  /// at exactly one time and nest as their cycles do.
  struct Span {
    std::string name;
    double start_us = 0, end_us = 0;
    nlohmann::json args = nlohmann::json::object();
  };

  /// A process (a component); returns its id.
  int add_process(const std::string& name);
  /// Spans on tracks named `track` (then `track 2`, `track 3`, ... when they overlap).
  void add_spans(int pid, const std::string& track, const std::string& category,
                 std::vector<Span> spans);
  /// A counter track: (time, value) points, the value holding until the next point.
  void add_counter(int pid, const std::string& name,
                   const std::vector<std::pair<double, double>>& points);

  void write(std::ostream& out, const nlohmann::json& other_data) const;

 private:
  nlohmann::json events_ = nlohmann::json::array();
  int next_pid_ = 1;
  std::vector<int> next_tid_ = {0};  ///< by pid
};

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
