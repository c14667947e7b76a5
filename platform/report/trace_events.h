// The run's timeline in Chrome's trace-event format (JSON), as Perfetto's UI and
// chrome://tracing load it: one process per component (the CPU, each NPU, each DDR), tracks
// (threads) of complete events ("ph": "X", time in microseconds) and counters ("ph": "C").
//
// Spans of one kind are spread over as many tracks as they need so that on every track
// they nest (a span lies inside the one it starts in, or after it): the viewers draw a track
// as one stack of spans, and overlapping spans on one track would be drawn wrongly.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

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

}  // namespace socsim
