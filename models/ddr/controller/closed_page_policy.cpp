#include "models/ddr/controller/closed_page_policy.h"

namespace socsim {

bool ClosedPagePolicy::auto_precharge(bool) const { return true; }

}  // namespace socsim
