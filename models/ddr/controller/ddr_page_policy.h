// The page policy of a channel controller (`controller.page_policy`): whether a column
// command closes its row with an auto-precharge. One class per policy (open_page_policy.h,
// closed_page_policy.h, closed_adaptive_page_policy.h), chosen by make_ddr_page_policy() on
// the configuration's enum: a new policy is one enum value, one file pair and one case.
//
// A policy answers from one fact about the queues: whether another queued request hits the
// same row. The controller (ddr_channel_controller.h) asks each policy once, when it is
// built, and keeps the two answers in a table for its hot paths; it looks at the queues
// only for a policy whose answer depends on them (depends_on_queue()).
#pragma once

#include <memory>

#include "models/ddr/controller/ddr_controller_config.h"

namespace socsim {

class DdrPagePolicyRule {
 public:
  virtual ~DdrPagePolicyRule() = default;
  /// Whether a column access closes its row, when another queued request
  /// (`row_hit_queued`) does or does not hit the same row.
  virtual bool auto_precharge(bool row_hit_queued) const = 0;
  /// Whether auto_precharge()'s answer depends on `row_hit_queued`.
  bool depends_on_queue() const { return auto_precharge(true) != auto_precharge(false); }
};

/// The rule of `policy`.
std::unique_ptr<DdrPagePolicyRule> make_ddr_page_policy(DdrPagePolicy policy);

}  // namespace socsim
