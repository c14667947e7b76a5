#include "models/ddr/controller/closed_adaptive_page_policy.h"

namespace socsim {

bool ClosedAdaptivePagePolicy::auto_precharge(bool row_hit_queued) const {
  return !row_hit_queued;
}

}  // namespace socsim
