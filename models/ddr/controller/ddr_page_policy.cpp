#include "models/ddr/controller/ddr_page_policy.h"

#include "models/ddr/controller/closed_adaptive_page_policy.h"
#include "models/ddr/controller/closed_page_policy.h"
#include "models/ddr/controller/open_page_policy.h"

namespace socsim {

std::unique_ptr<DdrPagePolicyRule> make_ddr_page_policy(DdrPagePolicy policy) {
  switch (policy) {
    case DdrPagePolicy::kOpen:
      return std::make_unique<OpenPagePolicy>();
    case DdrPagePolicy::kClosed:
      return std::make_unique<ClosedPagePolicy>();
    case DdrPagePolicy::kClosedAdaptive:
      return std::make_unique<ClosedAdaptivePagePolicy>();
  }
  return nullptr;
}

}  // namespace socsim
