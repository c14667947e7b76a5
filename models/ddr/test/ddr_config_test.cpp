// Presets, overrides from the SoC YAML, and validation messages that name file and key.
#include "models/ddr/ddr_config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

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
  EXPECT_NE(msg.find("must not be zero"), std::string::npos) << msg;
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

}  // namespace
}  // namespace socsim
