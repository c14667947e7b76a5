#include "models/probe/timeline.h"

namespace socsim {

void CallTimeline::on_leave(const CallFrame& frame, uint64_t end_cycle, uint64_t, bool) {
  if (!frame.trap && (!functions_ || frame.depth == 0)) return;
  if (frames_.size() >= max_spans_) {
    ++dropped_;
    return;
  }
  frames_.push_back({frame.function, frame.start_cycle, end_cycle, frame.trap});
}

}  // namespace socsim
