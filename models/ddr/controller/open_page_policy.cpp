#include "models/ddr/controller/open_page_policy.h"

namespace socsim {

bool OpenPagePolicy::auto_precharge(bool) const { return false; }

}  // namespace socsim
