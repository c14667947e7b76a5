// The refresh modes on their own, driven by hand as the controller drives them: the factory's
// choice for each value of the configuration's enum, each mode's interval, the commands a
// refresh under way asks for (rows closed first, activated requests first), what issuing
// them does to the shared state, and each mode's closed-form catch-up of an idle rank.
#include "models/ddr/controller/ddr_refresh.h"

#include <gtest/gtest.h>

#include "models/ddr/controller/all_bank_refresh.h"
#include "models/ddr/controller/per_bank_refresh.h"
#include "models/ddr/test/ddr_test_util.h"

namespace socsim {
namespace {

using Kind = DdrRefreshCommand::Kind;

TEST(DdrRefresh, TheFactoryFollowsTheConfigEnum) {
  DdrConfig config = test::lpddr4x_4266();
  DdrDeviceTiming device(config);
  DdrControllerStats stats;
  config.controller.refresh = DdrRefreshMode::kAllBank;
  const auto all = make_ddr_refresh(config, device, stats);
  EXPECT_NE(dynamic_cast<AllBankRefresh*>(all.get()), nullptr);
  EXPECT_EQ(all->interval(), config.timing.t_refi);
  config.controller.refresh = DdrRefreshMode::kPerBank;
  const auto per = make_ddr_refresh(config, device, stats);
  EXPECT_NE(dynamic_cast<PerBankRefresh*>(per.get()), nullptr);
  EXPECT_EQ(per->interval(), config.timing.t_refi_pb);
  EXPECT_EQ(per->rank(0).due, config.timing.t_refi_pb);  // the first deadline
}

TEST(DdrRefresh, AllBankClosesTheRowsThenRefreshesTheRank) {
  const DdrConfig config = test::ddr4_3200();
  DdrDeviceTiming device(config);
  DdrControllerStats stats;
  AllBankRefresh refresh(config, device, stats);
  EXPECT_EQ(refresh.next_command(0, 0, 0).kind, Kind::kNone);  // none under way
  device.activate(3, 7, 0);
  EXPECT_FALSE(refresh.blocked(3));
  EXPECT_EQ(refresh.start(0), -1);  // the whole rank
  EXPECT_EQ(refresh.refreshing(), 1u);
  EXPECT_TRUE(refresh.blocked(3));
  EXPECT_TRUE(refresh.blocked(0));
  // A request the row was activated for finishes first.
  EXPECT_EQ(refresh.next_command(0, 1, uint64_t{1} << 3).kind, Kind::kNone);
  const DdrRefreshCommand close = refresh.next_command(0, 1, 0);
  ASSERT_EQ(close.kind, Kind::kPrechargeAll);
  EXPECT_EQ(close.cycle, device.earliest_precharge_all(0, 1));
  EXPECT_EQ(refresh.issue(0, close, close.cycle), 0u);
  const DdrRefreshCommand ref = refresh.next_command(0, close.cycle + 1, 0);
  ASSERT_EQ(ref.kind, Kind::kRefresh);
  EXPECT_EQ(ref.cycle, device.earliest_refresh(0, close.cycle + 1));
  EXPECT_EQ(refresh.issue(0, ref, ref.cycle), ref.cycle + config.timing.t_rfc);
  EXPECT_EQ(refresh.refreshing(), 0u);
  EXPECT_FALSE(refresh.blocked(3));
  EXPECT_EQ(refresh.busy_until(5), ref.cycle + config.timing.t_rfc);
  EXPECT_EQ(stats.refreshes, 1u);
  EXPECT_EQ(stats.bank_refreshes, 0u);
}

TEST(DdrRefresh, PerBankRefreshesOneBankSetRoundRobin) {
  DdrConfig config = test::lpddr4x_4266();
  config.controller.refresh = DdrRefreshMode::kPerBank;
  DdrDeviceTiming device(config);
  DdrControllerStats stats;
  PerBankRefresh refresh(config, device, stats);
  device.activate(0, 2, 0);
  EXPECT_EQ(refresh.start(0), 0);  // bank 0 first
  EXPECT_TRUE(refresh.bank_pending(0));
  EXPECT_TRUE(refresh.blocked(0));
  EXPECT_FALSE(refresh.blocked(1));                            // the rank's other banks go on
  EXPECT_EQ(refresh.next_command(0, 1, 1).kind, Kind::kNone);  // bank 0's activated request
  const DdrRefreshCommand close = refresh.next_command(0, 1, 0);
  ASSERT_EQ(close.kind, Kind::kPrecharge);
  EXPECT_EQ(close.bank, 0u);
  refresh.issue(0, close, close.cycle);
  const DdrRefreshCommand ref = refresh.next_command(0, close.cycle + 1, 0);
  ASSERT_EQ(ref.kind, Kind::kRefreshBank);
  EXPECT_EQ(refresh.issue(0, ref, ref.cycle), ref.cycle + config.timing.t_rfc_pb);
  EXPECT_FALSE(refresh.bank_pending(0));
  EXPECT_EQ(refresh.refreshing(), 0u);
  EXPECT_EQ(stats.bank_refreshes, 1u);
  EXPECT_EQ(refresh.start(0), 1);  // then bank 1
}

TEST(DdrRefresh, AnIdleRankCatchesUpInClosedForm) {
  for (DdrRefreshMode mode : {DdrRefreshMode::kAllBank, DdrRefreshMode::kPerBank}) {
    DdrConfig config = test::lpddr4x_4266();
    config.controller.refresh = mode;
    DdrDeviceTiming device(config);
    DdrControllerStats stats;
    const auto refresh = make_ddr_refresh(config, device, stats);
    const uint64_t interval = refresh->interval();
    DdrRefreshBatch batch;
    EXPECT_FALSE(refresh->catch_up_idle(0, interval, 0, batch));  // nothing due before it
    // Ten deadlines fall before 10 intervals + 1. REFab: each on time. REFpb: back to
    // back from the first bank's bound, tPBR2PBR apart (the queue would issue them so).
    const uint64_t t0 = device.earliest_refresh_bank(0, 0);
    ASSERT_TRUE(refresh->catch_up_idle(0, 10 * interval + 1, 0, batch));
    const uint64_t count =
        mode == DdrRefreshMode::kAllBank ? stats.refreshes : stats.bank_refreshes;
    EXPECT_EQ(count, 10u);
    EXPECT_EQ(refresh->rank(0).due, 11 * interval);
    EXPECT_EQ(batch.last_command,
              mode == DdrRefreshMode::kAllBank ? 10 * interval : t0 + 9 * config.timing.t_pbr2pbr);
    const uint64_t t_rfc =
        mode == DdrRefreshMode::kAllBank ? config.timing.t_rfc : config.timing.t_rfc_pb;
    EXPECT_EQ(batch.end, batch.last_command + t_rfc);
  }
}

}  // namespace
}  // namespace socsim
