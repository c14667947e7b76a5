#include "models/ddr/controller/fcfs_scheduler.h"

namespace socsim {

size_t FcfsScheduler::pick(const DdrCandidate* c, size_t count) const {
  // The oldest request whose row has been opened for it, and the oldest other request: the
  // first goes first when it is ready no later.
  const size_t none = count;
  size_t activated = none, oldest = none;
  for (size_t i = 0; i < count; ++i) {
    size_t& slot = c[i].activated ? activated : oldest;
    if (slot == none || c[i].seq < c[slot].seq) slot = i;
  }
  if (oldest == none) return activated;
  if (activated != none && c[activated].ready <= c[oldest].ready) return activated;
  return oldest;
}

}  // namespace socsim
