#include "models/common/config.h"

#include <gtest/gtest.h>

#include "models/common/test/config_test_util.h"

namespace socsim {
namespace {

constexpr auto error_of = test::config_error_of;

TEST(ConfigNode, ReadsNumbersSizesAndStrings) {
  ConfigNode root = ConfigNode::load_string(
      "a: 0x80\nb: 4MiB\nc: 64 KiB\nd: 1_000\ne: 2.5\nf: hello\ng: true\nh: -7\n", "t.yaml");
  EXPECT_EQ(root.at("a").as_u64(), 0x80u);
  EXPECT_EQ(root.at("b").as_size(), 4u << 20);
  EXPECT_EQ(root.at("c").as_size(), 64u << 10);
  EXPECT_EQ(root.at("d").as_u64(), 1000u);
  EXPECT_DOUBLE_EQ(root.at("e").as_double(), 2.5);
  EXPECT_EQ(root.at("f").as_string(), "hello");
  EXPECT_TRUE(root.at("g").as_bool());
  EXPECT_EQ(root.at("h").as_i64(), -7);
  EXPECT_NO_THROW(root.reject_unknown_keys());
}

TEST(ConfigNode, UnknownKeyNamesFileLineAndKey) {
  ConfigNode root = ConfigNode::load_string("cpu:\n  clock_mhz: 400\n  clok: 3\n", "soc.yaml");
  ConfigNode cpu = root.at("cpu");
  EXPECT_EQ(cpu.at("clock_mhz").as_u64(), 400u);
  const std::string msg = error_of([&] { cpu.reject_unknown_keys(); });
  EXPECT_NE(msg.find("soc.yaml:3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cpu.clok"), std::string::npos) << msg;
}

TEST(ConfigNode, MissingKeyAndBadValueAreNamed) {
  ConfigNode root = ConfigNode::load_string("cpu:\n  clock_mhz: fast\n", "soc.yaml");
  EXPECT_NE(error_of([&] { root.at("cpu").at("clock_mhz").as_u64(); }).find("soc.yaml:2: key "
                                                                           "'cpu.clock_mhz'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { root.at("memory"); }).find("missing required key 'memory'"),
            std::string::npos);
}

TEST(ConfigNode, SyntaxErrorNamesLine) {
  const std::string msg =
      error_of([] { ConfigNode::load_string("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml"); });
  EXPECT_NE(msg.find("bad.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("syntax error"), std::string::npos) << msg;
}

TEST(ConfigNode, NegativeAndOverflowRejected) {
  ConfigNode root = ConfigNode::load_string("a: -1\nb: 0x1ffffffffffffffff\n", "t.yaml");
  EXPECT_THROW(root.at("a").as_u64(), ConfigError);
  EXPECT_THROW(root.at("b").as_u64(), ConfigError);
}

TEST(ApplyOverride, SetsExistingScalarAndNewKey) {
  ConfigNode root = ConfigNode::load_string("cpu:\n  clock_mhz: 400\n", "soc.yaml");
  YAML::Node yaml = root.yaml();
  apply_override(yaml, "cpu.clock_mhz=200");
  apply_override(yaml, "cpu.quantum_cycles=50");
  EXPECT_EQ(root.at("cpu").at("clock_mhz").as_u64(), 200u);
  EXPECT_EQ(root.at("cpu").at("quantum_cycles").as_u64(), 50u);
  EXPECT_NE(root.at("cpu").at("clock_mhz").where().find("--set"), std::string::npos);
}

TEST(ApplyOverride, RejectsBadPaths) {
  ConfigNode root = ConfigNode::load_string("cpu:\n  clock_mhz: 400\n", "soc.yaml");
  YAML::Node yaml = root.yaml();
  EXPECT_THROW(apply_override(yaml, "nosuch.key=1"), ConfigError);
  EXPECT_THROW(apply_override(yaml, "cpu=1"), ConfigError);
  EXPECT_THROW(apply_override(yaml, "cpu.clock_mhz"), ConfigError);
}

}  // namespace
}  // namespace socsim

namespace socsim {
namespace {

TEST(ConfigNode, KeysReadThroughAnotherNodeOfTheSamePathCount) {
  ConfigNode root = ConfigNode::load_string("ddr:\n  preset: x.yaml\n  size: 4KiB\n", "soc.yaml");
  root.at("ddr").at("preset").as_string();  // one reader...
  ConfigNode again = root.at("ddr");        // ...and another node for the same map
  again.at("size").as_size();
  EXPECT_NO_THROW(again.reject_unknown_keys());
  ConfigNode other = ConfigNode::load_string("ddr:\n  preset: x.yaml\n  sise: 4\n", "soc.yaml");
  other.at("ddr").at("preset").as_string();
  EXPECT_THROW(other.at("ddr").reject_unknown_keys(), ConfigError);
}

}  // namespace
}  // namespace socsim
