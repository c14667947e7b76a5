// Closed page: every column access precharges its bank (auto-precharge), whatever is queued.
#pragma once

#include "models/ddr/controller/ddr_page_policy.h"

namespace socsim {

class ClosedPagePolicy : public DdrPagePolicyRule {
 public:
  bool auto_precharge(bool row_hit_queued) const override;
};

}  // namespace socsim
