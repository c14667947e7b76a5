#include "platform/report/trace_events.h"

#include <algorithm>

#include "models/common/json_text.h"

namespace socsim {

int Timeline::add_process(const std::string& name) {
  const int pid = next_pid_++;
  next_tid_.push_back(1);
  events_.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid},
                     {"args", {{"name", name}}}});
  events_.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", pid},
                     {"args", {{"sort_index", pid}}}});
  return pid;
}

void Timeline::add_spans(int pid, const std::string& track, const std::string& category,
                         std::vector<Span> spans) {
  // By start; at one start the longer span first (it is the outer one).
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return a.start_us != b.start_us ? a.start_us < b.start_us : a.end_us > b.end_us;
  });
  // Each track keeps the ends of its open spans; a span goes on the first track where it
  // nests inside the innermost one still open (or where none is).
  std::vector<std::vector<double>> open;
  std::vector<int> tids;
  for (const Span& s : spans) {
    const double end = s.end_us;
    size_t t = 0;
    for (; t < open.size(); ++t) {
      auto& stack = open[t];
      while (!stack.empty() && stack.back() <= s.start_us) stack.pop_back();
      if (stack.empty() || end <= stack.back()) break;
    }
    if (t == open.size()) {
      open.emplace_back();
      const int tid = next_tid_[pid]++;
      tids.push_back(tid);
      const std::string name = t == 0 ? track : track + " " + std::to_string(t + 1);
      events_.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", pid}, {"tid", tid},
                         {"args", {{"name", name}}}});
      events_.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", pid},
                         {"tid", tid}, {"args", {{"sort_index", tid}}}});
    }
    open[t].push_back(end);
    events_.push_back({{"name", s.name}, {"cat", category}, {"ph", "X"}, {"ts", s.start_us},
                       {"dur", s.end_us - s.start_us}, {"pid", pid}, {"tid", tids[t]}, {"args", s.args}});
  }
}

void Timeline::add_counter(int pid, const std::string& name,
                           const std::vector<std::pair<double, double>>& points) {
  for (const auto& [ts, value] : points) {
    events_.push_back({{"name", name}, {"ph", "C"}, {"ts", ts}, {"pid", pid},
                       {"args", {{"value", value}}}});
  }
}

void Timeline::write(std::ostream& out, const nlohmann::json& other_data) const {
  const nlohmann::json doc = {
      {"traceEvents", events_}, {"displayTimeUnit", "ns"}, {"otherData", other_data}};
  out << json_text(doc) << "\n";
}

}  // namespace socsim
