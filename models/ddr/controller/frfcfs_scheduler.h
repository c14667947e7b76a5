// First ready, first come first served (Rixner et al., ISCA 2000) in the order of Ramulator
// 2.1's FRFCFS scheduler: the command the device accepts earliest; among commands ready at
// the same cycle, that of a request whose row was opened for it (Ramulator serves its active
// buffer first), then the oldest request's, a precharge or activate before a younger row
// hit. A request that waits while younger requests to its bank have been served `cap` times
// stops further overtaking in its bank: only it (and the request its bank's row was opened
// for) may then be served there, so a stream of row hits cannot starve it (FR-FCFS+Cap,
// Mutlu and Moscibroda, MICRO 2007). cap 0: no limit.
#pragma once

#include <cstdint>

#include "models/ddr/controller/ddr_scheduler.h"

namespace socsim {

class FrFcfsScheduler : public DdrScheduler {
 public:
  explicit FrFcfsScheduler(uint32_t cap) : cap_(cap) {}
  size_t pick(const DdrCandidate* candidates, size_t count) const override;
  bool orders_candidates() const override { return true; }

 private:
  bool eligible(const DdrCandidate& c) const {
    return cap_ == 0 || c.head_bypassed < cap_ || c.oldest_in_bank || c.activated;
  }
  uint32_t cap_;
};

}  // namespace socsim
