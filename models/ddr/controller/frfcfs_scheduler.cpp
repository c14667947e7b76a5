#include "models/ddr/controller/frfcfs_scheduler.h"

namespace socsim {

size_t FrFcfsScheduler::pick(const DdrCandidate* c, size_t count) const {
  size_t best = count;
  for (size_t i = 0; i < count; ++i) {
    if (!eligible(c[i])) continue;
    if (best == count) {
      best = i;
      continue;
    }
    const DdrCandidate& a = c[i];
    const DdrCandidate& b = c[best];
    if (a.ready != b.ready) {
      if (a.ready < b.ready) best = i;
    } else if (a.activated != b.activated) {
      if (a.activated) best = i;
    } else if (a.seq < b.seq) {
      best = i;
    }
  }
  return best;  // a bank's oldest request is always eligible, so there is one
}

}  // namespace socsim
