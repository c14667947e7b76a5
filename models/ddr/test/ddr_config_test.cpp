// Presets, overrides from the SoC YAML, and validation messages that name file and key.
#include "models/ddr/ddr_config.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <map>

#include "models/common/test/config_test_util.h"
#include "models/ddr/test/ddr_test_util.h"

namespace socsim {
namespace {

constexpr auto error_of = test::config_error_of;

// A SoC YAML region entry whose preset path is relative to the source tree's configs/.
DdrConfig load_region(const std::string& yaml) {
  ConfigNode root = ConfigNode::load_string(yaml, "soc.yaml");
  return load_ddr_config(root.at("ddr"), std::string(SOCSIM_SOURCE_DIR) + "/configs");
}

constexpr auto write_temp = test::write_temp_file;

TEST(DdrConfig, PresetsLoadWithTheirGeometry) {
  DdrConfig ddr4 = test::ddr4_3200();
  EXPECT_EQ(ddr4.capacity_bytes(), 8ull << 30);
  EXPECT_EQ(ddr4.geometry.burst_bytes(), 64u);
  EXPECT_EQ(ddr4.timing.t_rp_all, ddr4.timing.t_rp);  // tRPab defaults to tRP
  EXPECT_NEAR(ddr4.peak_bytes_per_s(), 25.6e9, 1.0);

  DdrConfig lp = test::lpddr4x_4266();
  EXPECT_EQ(lp.capacity_bytes(), 4ull << 30);
  EXPECT_EQ(lp.geometry.burst_bytes(), 32u);
  EXPECT_EQ(lp.timing.t_rp_all, 45u);

  DdrConfig ideal = load_ddr_preset(test::preset_path("ideal.yaml"));
  EXPECT_EQ(ideal.model, DdrModelKind::kIdeal);
  EXPECT_EQ(ideal.capacity_bytes(), 4ull << 30);
}

TEST(DdrConfig, SocEntryOverridesPresetFields) {
  DdrConfig c = load_region(
      "ddr:\n  type: ddr\n  base: 0x80000000\n  size: 256MiB\n"
      "  preset: ddr/ddr4-3200.yaml\n  timing:\n    tRCD: 24\n    tRC: 80\n"
      "  geometry:\n    rows: 32768\n  mapping:\n    row: [17-31]\n");
  EXPECT_EQ(c.timing.t_rcd, 24u);
  EXPECT_EQ(c.timing.t_rc, 80u);
  EXPECT_EQ(c.timing.cl, 22u);  // from the preset
  EXPECT_EQ(c.capacity_bytes(), 4ull << 30);
  EXPECT_NE(c.origin.at("timing.tRCD").find("soc.yaml:7: key 'ddr.timing.tRCD'"), std::string::npos)
      << c.origin.at("timing.tRCD");
  EXPECT_NE(c.origin.at("timing.CL").find("ddr4-3200.yaml"), std::string::npos);
}

TEST(DdrConfig, ImpossibleTimingNamesFileAndKey) {
  const std::string msg =
      error_of([] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  timing:\n    tRC: 60\n"); });
  EXPECT_NE(msg.find("soc.yaml:4: key 'ddr.timing.tRC'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tRAS + tRP"), std::string::npos) << msg;
}

TEST(DdrConfig, UnknownOverrideKeyIsAnError) {
  const std::string msg = error_of(
      [] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  timing:\n    tRCDD: 24\n"); });
  EXPECT_NE(msg.find("ddr.timing.tRCDD"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key"), std::string::npos) << msg;
}

TEST(DdrConfig, RegionLargerThanDeviceIsAnError) {
  const std::string msg =
      error_of([] { load_region("ddr:\n  preset: ddr/lpddr4x-4266.yaml\n  size: 8GiB\n"); });
  EXPECT_NE(msg.find("soc.yaml:3: key 'ddr.size'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("larger than"), std::string::npos) << msg;
}

TEST(DdrConfig, OverlappingMappingBitsNameBothFields) {
  const std::string msg = error_of(
      [] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  mapping:\n    bank: [14-15]\n"); });
  EXPECT_NE(msg.find("key 'ddr.mapping.bank'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("also used by mapping.column"), std::string::npos) << msg;
}

TEST(DdrConfig, MappingMustFitGeometryAndDevice) {
  std::string msg = error_of(
      [] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  mapping:\n    bank: [15]\n"); });
  EXPECT_NE(msg.find("needs 2 bits"), std::string::npos) << msg;
  msg = error_of(
      [] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  mapping:\n    bank: [33, 34]\n"); });
  EXPECT_NE(msg.find("beyond the device"), std::string::npos) << msg;
  msg = error_of([] {
    load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  mapping:\n    bank_group: [5-6]\n");
  });
  EXPECT_NE(msg.find("inside a burst"), std::string::npos) << msg;
}

TEST(DdrConfig, ZeroSizeIsAnError) {
  const std::string msg = error_of([] {
    load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  geometry:\n    banks_per_group: 0\n");
  });
  EXPECT_NE(msg.find("key 'ddr.geometry.banks_per_group'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("must be in 1..64, got 0"), std::string::npos) << msg;
}

TEST(DdrConfig, PresetIsStrict) {
  std::ifstream in(test::preset_path("ddr4-3200.yaml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string path = write_temp("typo.yaml", text + "timings: {}\n");
  const std::string msg = error_of([&] { load_ddr_preset(path); });
  EXPECT_NE(msg.find("typo.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("unknown key 'timings'"), std::string::npos) << msg;

  const std::string missing = write_temp("missing.yaml", "name: x\nmodel: jedec\n");
  EXPECT_NE(error_of([&] { load_ddr_preset(missing); }).find("missing required key 'tck_ps'"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              load_region("ddr:\n  preset: ddr/nope.yaml\n");
            }).find("soc.yaml:2: key 'ddr.preset'"),
            std::string::npos);
}

TEST(DdrConfig, SetOverridesApplyToPresetFile) {
  DdrConfig c = load_ddr_preset(test::preset_path("ddr4-3200.yaml"), {"timing.CL=24"});
  EXPECT_EQ(c.timing.cl, 24u);
  const std::string msg =
      error_of([] { load_ddr_preset(test::preset_path("ddr4-3200.yaml"), {"timing.tRAS=10"}); });
  EXPECT_NE(msg.find("timing.tRAS"), std::string::npos) << msg;
  EXPECT_NE(msg.find("command line"), std::string::npos) << msg;
}

TEST(DdrConfig, IdealPresetLeavesTimingOverridesUnread) {
  // The ideal model has no timing map: the key is left unread for the caller to reject.
  ConfigNode root = ConfigNode::load_string(
      "ddr:\n  preset: ddr/ideal.yaml\n  latency_ns: 5\n  timing:\n    CL: 3\n", "soc.yaml");
  ConfigNode node = root.at("ddr");
  DdrConfig c = load_ddr_config(node, std::string(SOCSIM_SOURCE_DIR) + "/configs");
  EXPECT_DOUBLE_EQ(c.ideal_latency_ns, 5.0);
  EXPECT_THROW(node.reject_unknown_keys(), ConfigError);
}

TEST(DdrConfig, ControllerFromPresetAndSocEntry) {
  const DdrConfig preset = test::ddr4_3200();
  EXPECT_EQ(preset.controller.scheduler, DdrSchedulerKind::kFrFcfs);
  EXPECT_EQ(preset.controller.read_queue, 32u);
  EXPECT_EQ(preset.controller.page_policy, DdrPagePolicy::kOpen);
  const DdrConfig c = load_region(
      "ddr:\n  preset: ddr/ddr4-3200.yaml\n  controller:\n    scheduler: fcfs\n"
      "    write_queue: 16\n    page_policy: closed_adaptive\n");
  EXPECT_EQ(c.controller.scheduler, DdrSchedulerKind::kFcfs);
  EXPECT_EQ(c.controller.write_queue, 16u);
  EXPECT_EQ(c.controller.page_policy, DdrPagePolicy::kClosedAdaptive);
  EXPECT_EQ(c.controller.read_queue, 32u);  // from the preset
  EXPECT_NE(c.origin.at("controller.scheduler").find("soc.yaml:4"), std::string::npos);
  const DdrConfig lp5 =
      load_ddr_preset(test::preset_path("lpddr5-6400.yaml"), {"controller.scheduler=fcfs"});
  EXPECT_EQ(lp5.controller.scheduler, DdrSchedulerKind::kFcfs);
  EXPECT_EQ(lp5.controller.refresh, DdrRefreshMode::kPerBank);
}

TEST(DdrConfig, BadControllerValuesNameTheirKey) {
  auto msg_of = [](const std::string& body) {
    return error_of(
        [&] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  controller:\n" + body); });
  };
  std::string msg = msg_of("    scheduler: round_robin\n");
  EXPECT_NE(msg.find("soc.yaml:4: key 'ddr.controller.scheduler'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("expected fcfs or frfcfs, got 'round_robin'"), std::string::npos) << msg;
  msg = msg_of("    refresh_postpone: 9\n");
  EXPECT_NE(msg.find("controller.refresh_postpone"), std::string::npos) << msg;
  EXPECT_NE(msg.find("must be in 0..8, got 9"), std::string::npos) << msg;
  msg = msg_of("    write_low_watermark: 0.9\n");
  EXPECT_NE(msg.find("controller.write_low_watermark"), std::string::npos) << msg;
  msg = msg_of("    read_queue: 0\n");
  EXPECT_NE(msg.find("controller.read_queue"), std::string::npos) << msg;
  msg = msg_of("    queue: 4\n");
  EXPECT_NE(msg.find("unknown key"), std::string::npos) << msg;
  // Per-bank refresh needs the device's per-bank figures; DDR4 has none.
  msg = msg_of("    refresh: per_bank\n");
  EXPECT_NE(msg.find("controller.refresh"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tRFCpb"), std::string::npos) << msg;
}

TEST(DdrConfig, RanksNeedTheirMappingBits) {
  std::string msg = error_of(
      [] { load_region("ddr:\n  preset: ddr/ddr4-3200.yaml\n  geometry:\n    ranks: 2\n"); });
  EXPECT_NE(msg.find("mapping.rank"), std::string::npos) << msg;
  EXPECT_NE(msg.find("needs 1 bits"), std::string::npos) << msg;
  const DdrConfig two = load_region(
      "ddr:\n  preset: ddr/ddr4-3200.yaml\n  geometry:\n    ranks: 2\n"
      "  mapping:\n    rank: [33]\n");
  EXPECT_EQ(two.capacity_bytes(), 16ull << 30);
  EXPECT_EQ(two.geometry.banks_per_channel(), 32u);
  EXPECT_EQ(two.timing.t_rtrs, 2u);  // the default rank-to-rank gap
}

TEST(DdrConfig, EnergyCurrentsAreChecked) {
  const DdrConfig ddr4 = test::ddr4_3200();
  ASSERT_EQ(ddr4.energy.rails.size(), 2u);
  EXPECT_EQ(ddr4.energy.devices, 8u);
  EXPECT_EQ(ddr4.energy.rails[0].name, "vdd");
  EXPECT_DOUBLE_EQ(ddr4.energy.rails[0].idd4r, 184.5);
  EXPECT_LT(ddr4.energy.rails[0].idd5pb, 0);  // not given: derived from REFab
  const std::string msg = error_of(
      [] { load_ddr_preset(test::preset_path("ddr4-3200.yaml"), {"energy.rails.vdd.idd0=10"}); });
  EXPECT_NE(msg.find("energy.rails.vdd.idd0"), std::string::npos) << msg;
  EXPECT_NE(msg.find("IDD0 x tRC"), std::string::npos) << msg;
  EXPECT_FALSE(load_ddr_preset(test::preset_path("hbm2.yaml")).energy.enabled());
}

// Each preset against the JEDEC figures (ns) it cites: a minimum must be met (cycles x tCK
// >= ns) and not exceeded by more than `slack` cycles beyond its rounding up; a maximum
// (tREFI, tREFIpb) must not be exceeded. LPDDR tRC is the preset's tRAS + tRPpb in cycles,
// one more than tRC rounded up on its own.
struct JedecFigure {
  const char* key;
  double ns;
  int slack;  // extra cycles the preset takes over ceil(ns / tCK); -1: a maximum
};
struct JedecTable {
  const char* file;
  double tck_ps;
  uint32_t cl, cwl;
  double peak_gbps;
  uint64_t capacity;
  std::vector<JedecFigure> figures;
};

TEST(DdrConfig, PresetsMatchTheirJedecTables) {
  const JedecTable tables[] = {
      // JESD79-4 DDR4-3200AA, 8 Gb x8 (tRFC1 350 ns taken as 360 ns, as DRAMSys does).
      {"ddr4-3200.yaml",
       625,
       22,
       16,
       25.6,
       8ull << 30,
       {{"tRCD", 13.75, 0},
        {"tRP", 13.75, 0},
        {"tRAS", 32, 0},
        {"tRC", 45.75, 0},
        {"tRRD_S", 2.5, 0},
        {"tRRD_L", 4.9, 0},
        {"tFAW", 21, 0},
        {"tWR", 15, 0},
        {"tRTP", 7.5, 0},
        {"tWTR_S", 2.5, 0},
        {"tWTR_L", 7.5, 0},
        {"tCCD_L", 5, 0},
        {"tRFC", 350, 16},
        {"tREFI", 7800, -1}}},
      // JESD209-4 LPDDR4X-4266 (DRAMSys JEDEC_1Gbx16_LPDDR4-4266: tRTP 17, tRFCab 380 ns).
      {"lpddr4x-4266.yaml",
       468.75,
       36,
       18,
       34.133,
       4ull << 30,
       {{"tRCD", 18, 0},
        {"tRP", 18, 0},
        {"tRPab", 21, 0},
        {"tRAS", 42, 0},
        {"tRC", 60, 1},
        {"tRRD_S", 10, 0},
        {"tFAW", 40, 0},
        {"tWR", 18, 0},
        {"tRTP", 7.5, 1},
        {"tWTR_S", 10, 0},
        {"tRFC", 380, 0},
        {"tREFI", 3904, -1},
        {"tRFCpb", 190, 0},
        {"tREFIpb", 488, -1}}},
      // JESD209-5B LPDDR5-6400, BG mode, 16 Gb x16 (tRTP 8 CK as Ramulator 2.1 has it).
      {"lpddr5-6400.yaml",
       1250,
       17,
       9,
       51.2,
       8ull << 30,
       {{"tRCD", 18, 0},
        {"tRP", 18, 0},
        {"tRPab", 21, 0},
        {"tRAS", 42, 0},
        {"tRC", 60, 1},
        {"tRRD_S", 5, 0},
        {"tFAW", 20, 0},
        {"tWR", 34, 0},
        {"tRTP", 7.5, 2},
        {"tWTR_S", 6.25, 0},
        {"tWTR_L", 12, 0},
        {"tRFC", 280, 0},
        {"tREFI", 3906.25, -1},
        {"tRFCpb", 140, 0},
        {"tREFIpb", 488, -1},
        {"tPBR2PBR", 90, 0}}},
      // JESD79-5 DDR5-4800A, 16 Gb x8.
      {"ddr5-4800.yaml",
       416.667,
       34,
       32,
       38.4,
       16ull << 30,
       {{"tRCD", 14.166, 0},
        {"tRP", 14.166, 0},
        {"tRAS", 32, 0},
        {"tRC", 46.166, 0},
        {"tRRD_L", 5, 0},
        {"tFAW", 20, 0},
        {"tWR", 30, 0},
        {"tRTP", 7.5, 0},
        {"tWTR_S", 2.5, 0},
        {"tWTR_L", 10, 0},
        {"tCCD_L", 5, 0},
        {"tCCD_L_WR", 20, 0},
        {"tRFC", 295, 0},
        {"tREFI", 3900, -1}}},
      // JESD235 HBM2 at 2 Gb/s as Ramulator 2.1's HBM2_2000Mbps encodes it, 4 Gb per PC.
      {"hbm2.yaml",
       1000,
       14,
       5,
       32,
       1ull << 30,
       {{"tRCD", 14, 0},
        {"tRCDWR", 12, 0},
        {"tRP", 14, 0},
        {"tRAS", 34, 0},
        {"tRC", 48, 0},
        {"tRRD_S", 4, 0},
        {"tFAW", 15, 0},
        {"tWR", 16, 0},
        {"tRFC", 260, 0},
        {"tREFI", 3900, -1},
        {"tRFCpb", 160, 0}}},
  };
  for (const JedecTable& table : tables) {
    SCOPED_TRACE(table.file);
    const DdrConfig c = load_ddr_preset(test::preset_path(table.file));
    EXPECT_DOUBLE_EQ(c.tck_ps, table.tck_ps);
    EXPECT_EQ(c.timing.cl, table.cl);
    EXPECT_EQ(c.timing.cwl, table.cwl);
    EXPECT_NEAR(c.peak_bytes_per_s() / 1e9, table.peak_gbps, 0.001);
    EXPECT_EQ(c.capacity_bytes(), table.capacity);
    const std::map<std::string, uint32_t> cycles = {{"tRCD", c.timing.t_rcd},
                                                    {"tRCDWR", c.timing.t_rcd_wr},
                                                    {"tRP", c.timing.t_rp},
                                                    {"tRPab", c.timing.t_rp_all},
                                                    {"tRAS", c.timing.t_ras},
                                                    {"tRC", c.timing.t_rc},
                                                    {"tRRD_S", c.timing.t_rrd_s},
                                                    {"tRRD_L", c.timing.t_rrd_l},
                                                    {"tFAW", c.timing.t_faw},
                                                    {"tWR", c.timing.t_wr},
                                                    {"tRTP", c.timing.t_rtp},
                                                    {"tWTR_S", c.timing.t_wtr_s},
                                                    {"tWTR_L", c.timing.t_wtr_l},
                                                    {"tCCD_L", c.timing.t_ccd_l},
                                                    {"tCCD_L_WR", c.timing.t_ccd_l_wr},
                                                    {"tRFC", c.timing.t_rfc},
                                                    {"tREFI", c.timing.t_refi},
                                                    {"tRFCpb", c.timing.t_rfc_pb},
                                                    {"tREFIpb", c.timing.t_refi_pb},
                                                    {"tPBR2PBR", c.timing.t_pbr2pbr}};
    for (const JedecFigure& f : table.figures) {
      const double ns = cycles.at(f.key) * c.tck_ps / 1000.0;
      if (f.slack < 0) {
        EXPECT_LE(ns, f.ns) << f.key;
      } else {
        const uint32_t least = static_cast<uint32_t>(std::ceil(f.ns * 1000.0 / c.tck_ps - 1e-6));
        EXPECT_GE(cycles.at(f.key), least) << f.key;
        EXPECT_LE(cycles.at(f.key), least + f.slack) << f.key;
      }
    }
  }
}

}  // namespace
}  // namespace socsim
