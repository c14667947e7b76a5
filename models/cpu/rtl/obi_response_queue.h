// The responses of one OBI port waiting for their cycle, in order, for the drivers of RtlCore
// (the SoC wrapper and the bare harness). The core keeps at most 2 transactions outstanding.
#pragma once

#include <cstdint>

namespace socsim {

struct ObiResponseQueue {
  struct Response {
    uint64_t due;  ///< the cycle whose begin_cycle() delivers it (rvalid)
    uint32_t data;
  };
  Response slots[4];
  unsigned head = 0, count = 0;
  uint64_t last_due = 0;

  /// Queues a response due in cycle `due`, or later: in order, at most one per cycle.
  void push(uint64_t due, uint32_t data) {
    if (count != 0 && due <= last_due) due = last_due + 1;
    slots[(head + count) % 4] = Response{due, data};
    ++count;
    last_due = due;
  }
  /// The response due in cycle `now`, if any.
  bool pop_due(uint64_t now, uint32_t* data) {
    if (count == 0 || slots[head].due != now) return false;
    *data = slots[head].data;
    head = (head + 1) % 4;
    --count;
    return true;
  }
};

}  // namespace socsim
