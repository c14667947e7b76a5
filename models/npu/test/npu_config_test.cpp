// NPU presets, overrides from a SoC YAML's `npu:` section, and messages naming file and key.
#include "models/npu/npu_config.h"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>

#include "models/common/test/config_test_util.h"

namespace socsim {
namespace {

const std::string kConfigs = std::string(SOCSIM_SOURCE_DIR) + "/configs";

constexpr auto error_of = test::config_error_of;

NpuConfig load_section(const std::string& yaml) {
  ConfigNode root = ConfigNode::load_string(yaml, "soc.yaml");
  return load_npu_config(root.at("npu"), kConfigs + "/soc");
}

constexpr auto write_temp = test::write_temp_file;

TEST(NpuConfig, Rk3588LikePreset) {
  const NpuConfig c = load_npu_preset(kConfigs + "/npu/rk3588-like.yaml");
  EXPECT_EQ(c.name, "rk3588-like");
  EXPECT_EQ(c.cores, 3u);
  EXPECT_EQ(c.rows * c.columns, 1024u);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 1000.0);
  EXPECT_DOUBLE_EQ(c.peak_macs_per_cycle(NpuDataType::kInt8), 3072.0);
  EXPECT_DOUBLE_EQ(c.peak_macs_per_cycle(NpuDataType::kInt16), 1536.0);
  EXPECT_EQ(c.buffer_bytes, 384u * 1024);
  EXPECT_EQ(c.dataflow, NpuDataflow::kWeightStationary);
  // RKNN's RK3588 table: int8 32/32/64/16, int16 32/16/32/8, fp16 32/16/32/8.
  const NpuAlignment& i8 = c.alignment[0];
  EXPECT_EQ(i8.conv_input, 32u);
  EXPECT_EQ(i8.conv_output, 32u);
  EXPECT_EQ(i8.depthwise, 64u);
  EXPECT_EQ(i8.other, 16u);
  for (size_t t : {1, 2}) {
    EXPECT_EQ(c.alignment[t].conv_input, 32u);
    EXPECT_EQ(c.alignment[t].conv_output, 16u);
    EXPECT_EQ(c.alignment[t].depthwise, 32u);
    EXPECT_EQ(c.alignment[t].other, 8u);
  }
  EXPECT_TRUE(c.split_output_channels);
  EXPECT_TRUE(c.fold_overlap);
  EXPECT_TRUE(c.small_cin_packing);
  EXPECT_EQ(c.pointwise_channels_per_cycle, 0u);  // the 1x1 floor of newer firmware: off
  EXPECT_EQ(c.depthwise_mapping, NpuDepthwiseMapping::kChannelLanes);
  EXPECT_EQ(c.operators.count("depthwise_conv2d"), 1u);
  EXPECT_EQ(c.fusions.count("relu"), 1u);
}

TEST(NpuConfig, SmallPresetsLoad) {
  const NpuConfig a = load_npu_preset(kConfigs + "/npu/npu-16x16.yaml");
  EXPECT_EQ(a.rows, 16u);
  EXPECT_EQ(a.columns, 16u);
  EXPECT_EQ(a.cores, 1u);
  const NpuConfig b = load_npu_preset(kConfigs + "/npu/npu-32x32.yaml");
  EXPECT_EQ(b.rows, 32u);
  EXPECT_EQ(b.dataflow, NpuDataflow::kOutputStationary);
  const NpuConfig s = load_npu_preset(kConfigs + "/npu/scalesim-32x32.yaml");
  EXPECT_FALSE(s.tiling);
  EXPECT_FALSE(s.fold_overlap);
  EXPECT_EQ(s.depthwise_mapping, NpuDepthwiseMapping::kChannelPerLayer);
  EXPECT_EQ(s.alignment[0].conv_input, 1u);
}

TEST(NpuConfig, SectionOverridesPreset) {
  const NpuConfig c = load_section(
      "npu:\n  preset: ../npu/rk3588-like.yaml\n  cores: 1\n  mac_array: {rows: 16}\n"
      "  alignment: {int8: {conv_output: 16}}\n");
  EXPECT_EQ(c.cores, 1u);
  EXPECT_EQ(c.rows, 16u);
  EXPECT_EQ(c.columns, 32u);  // from the preset
  EXPECT_EQ(c.alignment[0].conv_output, 16u);
  EXPECT_EQ(c.alignment[0].depthwise, 64u);
}

TEST(NpuConfig, CommandLineOverridesReachThePresetsMaps) {
  ConfigNode node = ConfigNode::load_string("npu:\n  preset: ../npu/rk3588-like.yaml\n", "soc.yaml");
  resolve_config(node, {"npu.mac_array.rows=16", "npu.cores=2"}, kConfigs + "/soc");
  const NpuConfig c = load_npu_config(node.at("npu"), kConfigs + "/soc");
  EXPECT_EQ(c.rows, 16u);
  EXPECT_EQ(c.cores, 2u);
}

TEST(NpuConfig, ErrorsNameFileAndKey) {
  std::string e = error_of([] { load_section("npu:\n  preset: ../npu/rk3588-like.yaml\n  cores: 0\n"); });
  EXPECT_NE(e.find("soc.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("npu.cores"), std::string::npos) << e;

  e = error_of([] {
    load_section("npu:\n  preset: ../npu/rk3588-like.yaml\n  mac_array: {colums: 8}\n");
  });
  EXPECT_NE(e.find("colums"), std::string::npos) << e;

  e = error_of([] {
    load_section("npu:\n  preset: ../npu/rk3588-like.yaml\n  alignment: {int8: {other: 12}}\n");
  });
  EXPECT_NE(e.find("npu.alignment.int8.other"), std::string::npos) << e;
  EXPECT_NE(e.find("power of two"), std::string::npos) << e;

  e = error_of([] {
    load_section("npu:\n  preset: ../npu/rk3588-like.yaml\n  mac_array: {dataflow: diagonal}\n");
  });
  EXPECT_NE(e.find("npu.mac_array.dataflow"), std::string::npos) << e;
  EXPECT_NE(e.find("expected weight_stationary or output_stationary or input_stationary, got "
                   "'diagonal'"),
            std::string::npos)
      << e;

  e = error_of([] {
    load_section(
        "npu:\n  preset: ../npu/rk3588-like.yaml\n  mac_array: {throughput: {int8: 0}}\n");
  });
  EXPECT_NE(e.find("soc.yaml:3: key 'npu.mac_array.throughput.int8': must be a number in (0, 16], "
                   "got 0"),
            std::string::npos)
      << e;

  e = error_of([] {
    load_section(
        "npu:\n  preset: ../npu/rk3588-like.yaml\n"
        "  mac_array: {pointwise_channels_per_cycle: 5000}\n");
  });
  EXPECT_NE(e.find("soc.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("npu.mac_array.pointwise_channels_per_cycle"), std::string::npos) << e;
  EXPECT_NE(e.find("must be in 0..4096, got 5000"), std::string::npos) << e;
  e = error_of([] {
    load_section(
        "npu:\n  preset: ../npu/rk3588-like.yaml\n"
        "  mac_array: {pointwise_channels_per_cycle: eight}\n");
  });
  EXPECT_NE(e.find("npu.mac_array.pointwise_channels_per_cycle"), std::string::npos) << e;
  EXPECT_EQ(load_section("npu:\n  preset: ../npu/rk3588-like.yaml\n"
                         "  mac_array: {pointwise_channels_per_cycle: 8}\n")
                .pointwise_channels_per_cycle,
            8u);

  e = error_of([] { load_section("npu:\n  preset: ../npu/missing.yaml\n"); });
  EXPECT_NE(e.find("soc.yaml:2"), std::string::npos) << e;
  EXPECT_NE(e.find("missing.yaml"), std::string::npos) << e;

  e = error_of([] {
    load_section("npu:\n  preset: ../npu/rk3588-like.yaml\n  operators: [conv2d, softmax]\n");
  });
  EXPECT_NE(e.find("soc.yaml:3: key 'npu.operators[1]': unknown name 'softmax'"),
            std::string::npos)
      << e;
}

TEST(NpuConfig, PresetErrorsNameThePresetFile) {
  const std::string text =
      "name: broken\nclock_mhz: 1000\ncores: 1\n"
      "mac_array: {rows: 8, columns: 8, throughput: {int8: 1, int16: 0.5, fp16: 0.5},"
      " dataflow: weight_stationary, fold_overlap: false, small_cin_packing: false,"
      " pointwise_channels_per_cycle: 0, depthwise_mapping: channel_lanes}\n"
      "alignment:\n  int8: {conv_input: 8, conv_output: 8, depthwise: 8, other: 8}\n"
      "  int16: {conv_input: 8, conv_output: 8, depthwise: 8, other: 8}\n"
      "  fp16: {conv_input: 8, conv_output: 8, depthwise: 8, other: 8}\n"
      "buffer_per_core: 64KiB\ndma: {bytes_per_cycle: 8, outstanding: 2, burst_bytes: 64}\n"
      "tiling: true\nsetup_cycles: 10\nwriteback_cycles: 0\nlut_cycles: 0\n"
      "core_split: none\noperators: [conv2d]\nfusions: [relu]\n";
  const std::string good = write_temp("npu_good.yaml", text);
  EXPECT_EQ(load_npu_preset(good).rows, 8u);
  const std::string bad = write_temp("npu_bad.yaml", text + "extra_key: 1\n");
  const std::string e = error_of([&] { load_npu_preset(bad); });
  EXPECT_NE(e.find("npu_bad.yaml"), std::string::npos) << e;
  EXPECT_NE(e.find("extra_key"), std::string::npos) << e;
  // The 1x1 floor's divisor: a count in [0, 4096], named with the preset file.
  std::string floor_text = text;
  floor_text.replace(floor_text.find("pointwise_channels_per_cycle: 0"), 31,
                     "pointwise_channels_per_cycle: 8");
  EXPECT_EQ(load_npu_preset(write_temp("npu_floor.yaml", floor_text)).pointwise_channels_per_cycle,
            8u);
  floor_text.replace(floor_text.find("pointwise_channels_per_cycle: 8"), 31,
                     "pointwise_channels_per_cycle: -8");
  const std::string fe =
      error_of([&] { load_npu_preset(write_temp("npu_floor_bad.yaml", floor_text)); });
  EXPECT_NE(fe.find("npu_floor_bad.yaml:4"), std::string::npos) << fe;
  EXPECT_NE(fe.find("pointwise_channels_per_cycle"), std::string::npos) << fe;
  const std::string missing = write_temp("npu_missing.yaml", "name: x\n");
  EXPECT_NE(error_of([&] { load_npu_preset(missing); }).find("clock_mhz"), std::string::npos);
}

}  // namespace
}  // namespace socsim
