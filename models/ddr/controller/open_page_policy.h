// Open page: rows stay open until a conflict or a refresh closes them (no auto-precharge).
#pragma once

#include "models/ddr/controller/ddr_page_policy.h"

namespace socsim {

class OpenPagePolicy : public DdrPagePolicyRule {
 public:
  bool auto_precharge(bool row_hit_queued) const override;
};

}  // namespace socsim
