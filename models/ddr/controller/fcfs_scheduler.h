// First come, first served: requests are served in arrival order. The oldest request's
// next command issues as soon as the device accepts it, and nothing overtakes it, except
// the column command of a request whose row has already been opened (it finishes first, so
// opening the next request's row may overlap the previous one's column access).
#pragma once

#include "models/ddr/controller/ddr_scheduler.h"

namespace socsim {

class FcfsScheduler : public DdrScheduler {
 public:
  size_t pick(const DdrCandidate* candidates, size_t count) const override;
};

}  // namespace socsim
