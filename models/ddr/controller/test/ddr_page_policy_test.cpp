// The page policies on their own: each one's answer with and without another queued request
// to the same row, and the factory's choice for each value of the configuration's enum.
#include "models/ddr/controller/ddr_page_policy.h"

#include <gtest/gtest.h>

namespace socsim {
namespace {

TEST(DdrPagePolicy, EachPolicyClosesTheRowWhenItSays) {
  const auto open = make_ddr_page_policy(DdrPagePolicy::kOpen);
  EXPECT_FALSE(open->auto_precharge(false));
  EXPECT_FALSE(open->auto_precharge(true));
  EXPECT_FALSE(open->depends_on_queue());

  const auto closed = make_ddr_page_policy(DdrPagePolicy::kClosed);
  EXPECT_TRUE(closed->auto_precharge(false));
  EXPECT_TRUE(closed->auto_precharge(true));
  EXPECT_FALSE(closed->depends_on_queue());

  // closed_adaptive keeps the row open for a queued request that hits it.
  const auto adaptive = make_ddr_page_policy(DdrPagePolicy::kClosedAdaptive);
  EXPECT_TRUE(adaptive->auto_precharge(false));
  EXPECT_FALSE(adaptive->auto_precharge(true));
  EXPECT_TRUE(adaptive->depends_on_queue());
}

}  // namespace
}  // namespace socsim
