// Closed adaptive page: a column access precharges its bank unless another queued request
// hits the same row, which then finds it open.
#pragma once

#include "models/ddr/controller/ddr_page_policy.h"

namespace socsim {

class ClosedAdaptivePagePolicy : public DdrPagePolicyRule {
 public:
  bool auto_precharge(bool row_hit_queued) const override;
};

}  // namespace socsim
