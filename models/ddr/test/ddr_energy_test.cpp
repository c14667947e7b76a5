// DDR energy against a hand computation from the preset's currents (DRAMPower's formulas,
// docs/ddr.md) for a short trace.
#include "models/ddr/ddr_energy.h"

#include <gtest/gtest.h>

#include "models/ddr/ddr_timing.h"
#include "models/ddr/test/ddr_test_util.h"
#include "platform/report/ddr_report.h"

namespace socsim {
namespace {

using test::ddr4_addr;

TEST(DdrEnergy, ShortTraceMatchesTheHandComputation) {
  // DDR4-3200, 8 x8 devices; rails VDD 1.2 V (IDD0 60.75, IDD2N 38.25, IDD3N 44,
  // IDD4R 184.5, IDD4W 168.75, IDD5B 118 mA) and VPP 2.5 V (IPP0 4.05 mA); tCK 0.625 ns,
  // tRC 74, tRAS 52, burst 4, tRFC 576 tCK.
  const double tck = 0.625, devices = 8;
  const double act =
      devices * tck * (1.2 * (60.75 * 74 - 44.0 * 52 - 38.25 * 22) + 2.5 * (4.05 * 74));
  const double rd = devices * tck * 1.2 * (184.5 - 44.0) * 4;
  const double wr = devices * tck * 1.2 * (168.75 - 44.0) * 4;
  const double ref = devices * tck * 1.2 * (118.0 - 44.0) * 576;
  const double active_mw = devices * 1.2 * 44.0, precharge_mw = devices * 1.2 * 38.25;

  const DdrConfig config = test::ddr4_3200();
  const DdrEnergyModel model(config);
  ASSERT_TRUE(model.enabled());
  EXPECT_NEAR(model.activate_pj(), act, 1e-6);
  EXPECT_NEAR(model.read_burst_pj(), rd, 1e-6);
  EXPECT_NEAR(model.write_burst_pj(), wr, 1e-6);
  EXPECT_NEAR(model.refresh_pj(), ref, 1e-6);
  EXPECT_NEAR(model.bank_refresh_pj(), ref / 16, 1e-6);  // no IDD5PB: a REFab's share

  // Activate at cycle 0 (miss), read at 22 (data to 48), a read hit at 100 (data to 126),
  // a write hit at 200 (data to 220): the row stays open from 0 to the end, 220.
  DdrTiming ddr(config);
  ddr.access(0, false, ddr4_addr(0, 0, 1, 0), 64);
  ddr.access(100 * 625, false, ddr4_addr(0, 0, 1, 1), 64);
  ddr.access(200 * 625, true, ddr4_addr(0, 0, 1, 2), 64);
  ddr.finish();
  ASSERT_TRUE(ddr.stats().has_energy());
  const DdrEnergy& e = ddr.stats().energy();
  EXPECT_NEAR(e.activate_pj, act, 1e-6);
  EXPECT_NEAR(e.read_pj, 2 * rd, 1e-6);
  EXPECT_NEAR(e.write_pj, wr, 1e-6);
  EXPECT_NEAR(e.refresh_pj, 0, 1e-9);
  EXPECT_NEAR(e.background_pj, 220 * tck * active_mw, 1e-6);
  EXPECT_NEAR(e.total_pj(), act + 2 * rd + wr + 220 * tck * active_mw, 1e-6);

  // A refresh: at tREFI (12480) the open row is closed (PREA) and refreshed 22 cycles
  // later. Standby: active 0..12480, precharged after; the run ends with the refresh.
  DdrTiming refreshed(config);
  refreshed.access(0, false, ddr4_addr(0, 0, 1, 0), 64);
  refreshed.access(12480ull * 625, false, ddr4_addr(0, 0, 1, 0), 64);
  refreshed.finish();
  const DdrEnergy& f = refreshed.stats().energy();
  EXPECT_NEAR(f.refresh_pj, ref, 1e-6);
  EXPECT_NEAR(f.activate_pj, 2 * act, 1e-6);
  // After the refresh (REF at 12502, tRFC 576) the row opens again at 13078, the read's
  // data ends at 13126: active 12480 + 48 cycles, precharged 598.
  EXPECT_NEAR(f.background_pj, (12528 * active_mw + 598 * precharge_mw) * tck, 1e-3);
}

TEST(DdrEnergy, PresetsWithoutCurrentsReportNone) {
  const DdrConfig config = load_ddr_preset(test::preset_path("ddr5-4800.yaml"));
  DdrTiming ddr(config);
  ddr.access(0, false, 0, 64);
  ddr.finish();
  EXPECT_FALSE(ddr.stats().has_energy());
  EXPECT_TRUE(ddr_stats_json(ddr.stats())["energy"].is_null());
}

}  // namespace
}  // namespace socsim
