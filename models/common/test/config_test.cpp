#include "models/common/config.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

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
  apply_override(root, "cpu.clock_mhz=200");
  apply_override(root, "cpu.quantum_cycles=50");
  EXPECT_EQ(root.at("cpu").at("clock_mhz").as_u64(), 200u);
  EXPECT_EQ(root.at("cpu").at("quantum_cycles").as_u64(), 50u);
  EXPECT_NE(root.at("cpu").at("clock_mhz").where().find("--set"), std::string::npos);
}

TEST(ApplyOverride, RejectsBadPaths) {
  ConfigNode root = ConfigNode::load_string("cpu:\n  clock_mhz: 400\n", "soc.yaml");
  // A key on a new path is added; the reader that does not know it rejects it, naming --set.
  apply_override(root, "nosuch.key=1");
  root.at("cpu").at("clock_mhz").as_double();
  const std::string msg = error_of([&] { root.reject_unknown_keys(); });
  EXPECT_NE(msg.find("--set nosuch.key=1: 'nosuch' is not a map"), std::string::npos) << msg;
  EXPECT_THROW(apply_override(root, "cpu=1"), ConfigError);
  EXPECT_THROW(apply_override(root, "cpu.clock_mhz"), ConfigError);
  EXPECT_THROW(apply_override(root, "cpu.clock_mhz.x=1"), ConfigError);
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

namespace socsim {
namespace {

constexpr auto write_temp = test::write_temp_file;

TEST(ConfigNode, DuplicateKeysAreErrorsNamingBothLines) {
  const std::string msg = error_of(
      [] { ConfigNode::load_string("cpu:\n  clock_mhz: 100\n  clock_mhz: 200\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:3: key 'cpu.clock_mhz': duplicate key 'clock_mhz' (first given "
                     "at line 2)"),
            std::string::npos)
      << msg;
}

TEST(ConfigNode, ComplexKeysAreErrors) {
  const std::string msg =
      error_of([] { ConfigNode::load_string("name: x\n? [a, b]\n: 1\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("a key must be a single plain value"), std::string::npos) << msg;
}

TEST(ConfigNode, TextMustBeUtf8) {
  const std::string msg =
      error_of([] { ConfigNode::load_string("name: ok\ndescription: caf\xe9\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:2:17: not UTF-8 text (byte 0xE9)"), std::string::npos) << msg;
  EXPECT_EQ(error_of([] { ConfigNode::load_string("description: caf\xc3\xa9\n", "soc.yaml"); }),
            "");
  // Overlong encodings and surrogates are not UTF-8 either.
  EXPECT_NE(error_of([] { ConfigNode::load_string("a: \xc0\xaf\n", "t.yaml"); }), "");
  EXPECT_NE(error_of([] { ConfigNode::load_string("a: \xed\xa0\x80\n", "t.yaml"); }), "");
  EXPECT_NE(error_of([] { apply_override(ConfigNode::load_string("a: 1\n", "t"), "a=\xff"); })
                .find("not UTF-8"),
            std::string::npos);
}

TEST(ConfigNode, RecursiveAliasIsAnError) {
  const std::string msg = error_of([] { ConfigNode::load_string("x: &r {y: *r}\n", "t.yaml"); });
  EXPECT_NE(msg.find("nested more than"), std::string::npos) << msg;
}

TEST(ConfigNode, AliasesOfAliasesAreBounded) {
  // Nine levels of ten aliases each name 10^9 values in 400 bytes; the reader used to expand
  // them all (a hang). Found by the hardening campaign's YAML cases.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  const std::string msg = error_of([&] { ConfigNode::load_string(text, "laughs.yaml"); });
  EXPECT_NE(msg.find("laughs.yaml:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("more than 100000 values once aliases are expanded"), std::string::npos)
      << msg;
}

TEST(ConfigNode, OnlyRegularFilesOfBoundedSizeAreRead) {
  EXPECT_NE(error_of([] { ConfigNode::load_file("/dev/zero"); }).find("not a regular file"),
            std::string::npos);
  EXPECT_NE(error_of([] { ConfigNode::load_file(testing::TempDir()); }).find("not a regular file"),
            std::string::npos);
  const std::string big = write_temp("big.yaml", std::string(ConfigNode::kMaxFileBytes + 1, '#'));
  EXPECT_NE(error_of([&] { ConfigNode::load_file(big); }).find("larger than 4 MiB"),
            std::string::npos);
}

TEST(ConfigNode, HexSizesEndingInBAreHex) {
  ConfigNode root = ConfigNode::load_string("a: 0x40000B\nb: 16B\nc: 0x10K\n", "t.yaml");
  EXPECT_EQ(root.at("a").as_size(), 0x40000Bu);
  EXPECT_EQ(root.at("b").as_size(), 16u);
  EXPECT_EQ(root.at("c").as_size(), 16u << 10);
}

TEST(ConfigNode, SizesThatOverflowAreErrors) {
  ConfigNode root = ConfigNode::load_string("a: 17179869184GiB\n", "t.yaml");
  EXPECT_NE(error_of([&] { root.at("a").as_size(); }).find("expected a size below 2^64"),
            std::string::npos);
}

TEST(ConfigNode, UnknownKeySuggestsTheNearestKnownOne) {
  ConfigNode root = ConfigNode::load_string("cpu:\n  clok_mhz: 3\n", "soc.yaml");
  ConfigNode cpu = root.at("cpu");
  cpu.double_or("clock_mhz", 400);
  cpu.u64_or("hart_id", 0);
  const std::string msg = error_of([&] { cpu.reject_unknown_keys(); });
  EXPECT_NE(msg.find("soc.yaml:2: key 'cpu.clok_mhz': unknown key 'clok_mhz' (did you mean "
                     "'clock_mhz'?)"),
            std::string::npos)
      << msg;
}

TEST(ConfigKey, RangesAreCheckedOnTheFull64BitValue) {
  const ConfigKey counters = ConfigKey::unsigned_in("n", 0, 29, "1", "");
  ConfigNode root = ConfigNode::load_string("n: 4294967296\n", "t.yaml");
  const std::string msg = error_of([&] { root.read(counters); });
  EXPECT_NE(msg.find("t.yaml:1: key 'n': must be in 0..29, got 0x100000000"), std::string::npos)
      << msg;
  EXPECT_EQ(ConfigNode::load_string("{}", "t.yaml").read(counters).u, 1u);  // the default
  const ConfigKey mhz = ConfigKey::number_in("f", 1, 10000, "400", "");
  EXPECT_NE(error_of([] {
              ConfigNode::load_string("f: 1e308\n", "t.yaml")
                  .read(ConfigKey::number_in("f", 1, 10000, "400", ""));
            }).find("must be a number in [1, 10000], got 1e308"),
            std::string::npos);
  EXPECT_EQ(mhz.describe(), "number 1..10000, default 400");
  const ConfigKey model = ConfigKey::choice("model", {"iss", "rtl"}, "iss", "");
  EXPECT_NE(error_of([&] { ConfigNode::load_string("model: rtll\n", "t").read(model); })
                .find("(did you mean 'rtl'?)"),
            std::string::npos);
}

TEST(ConfigPresets, SectionKeysOverrideThePresetAndNameTheirFiles) {
  write_temp("base.yaml", "name: base\ngeometry:\n  rows: 8\n  columns: 8\nlist: [1, 2]\n");
  ConfigNode root = ConfigNode::load_string(
      "dev:\n  preset: base.yaml\n  geometry: {rows: 16}\n", "soc.yaml");
  resolve_config(root, {"dev.geometry.columns=4"}, testing::TempDir());
  const ConfigNode dev = root.at("dev");
  EXPECT_EQ(dev.at("geometry").at("rows").as_u64(), 16u);
  EXPECT_EQ(dev.at("geometry").at("columns").as_u64(), 4u);
  EXPECT_EQ(dev.at("name").as_string(), "base");
  EXPECT_EQ(dev.at("list").items().size(), 2u);
  EXPECT_NE(dev.at("name").where().find("base.yaml:1: key 'dev.name'"), std::string::npos)
      << dev.at("name").where();
  EXPECT_EQ(dev.at("name").origin().kind, ConfigOrigin::Kind::kPreset);
  EXPECT_NE(dev.at("geometry").at("rows").where().find("soc.yaml:3"), std::string::npos);
  EXPECT_NE(dev.at("geometry").at("columns").where().find("command line --set"),
            std::string::npos);
  EXPECT_EQ(dev.preset_file(), testing::TempDir() + "base.yaml");
}

TEST(ConfigPresets, MissingOrSelfIncludingPresetsAreNamed) {
  ConfigNode missing = ConfigNode::load_string("dev:\n  preset: nowhere.yaml\n", "soc.yaml");
  std::string msg = error_of([&] { missing.merge_presets(testing::TempDir()); });
  EXPECT_NE(msg.find("soc.yaml:2: key 'dev.preset': preset"), std::string::npos) << msg;
  EXPECT_NE(msg.find("nowhere.yaml: cannot open file"), std::string::npos) << msg;
  write_temp("loop.yaml", "preset: loop.yaml\n");
  ConfigNode loop = ConfigNode::load_string("dev:\n  preset: loop.yaml\n", "soc.yaml");
  msg = error_of([&] { loop.merge_presets(testing::TempDir()); });
  EXPECT_NE(msg.find("includes itself"), std::string::npos) << msg;
}

TEST(ConfigPresets, OverrideOfThePresetKeyIsAppliedBeforeMerging) {
  write_temp("one.yaml", "value: 1\n");
  write_temp("two.yaml", "value: 2\n");
  ConfigNode root = ConfigNode::load_string("dev:\n  preset: one.yaml\n", "soc.yaml");
  resolve_config(root, {"dev.preset=two.yaml"}, testing::TempDir());
  EXPECT_EQ(root.at("dev").at("value").as_u64(), 2u);
}

TEST(ApplyOverride, ListsReplaceListsAndTextStaysText) {
  ConfigNode root = ConfigNode::load_string("ops: [a, b]\nname: x\n", "soc.yaml");
  apply_override(root, "ops=[c]");
  apply_override(root, "name=[y]");
  ASSERT_EQ(root.at("ops").items().size(), 1u);
  EXPECT_EQ(root.at("ops").items()[0].as_string(), "c");
  EXPECT_EQ(root.at("name").as_string(), "[y]");
}

TEST(ConfigDump, PrintsOriginsAndReadsBackTheSame) {
  write_temp("dump_base.yaml", "name: base\nrows: 8\n");
  ConfigNode root = ConfigNode::load_string(
      "dev:\n  preset: dump_base.yaml\n  label: \"a: b # c\"\n", "soc.yaml");
  resolve_config(root, {"dev.rows=16"}, testing::TempDir());
  root.at("dev").u64_or("depth", 3);
  const std::string annotated = root.dump(true);
  EXPECT_NE(annotated.find("preset: dump_base.yaml"), std::string::npos) << annotated;
  EXPECT_NE(annotated.find("# soc.yaml:2"), std::string::npos) << annotated;
  EXPECT_NE(annotated.find("name: base"), std::string::npos) << annotated;
  EXPECT_NE(annotated.find("# preset " + testing::TempDir() + "dump_base.yaml:1"),
            std::string::npos)
      << annotated;
  EXPECT_NE(annotated.find("# --set dev.rows=16"), std::string::npos) << annotated;
  EXPECT_NE(annotated.find("depth: 3"), std::string::npos) << annotated;
  EXPECT_NE(annotated.find("# default"), std::string::npos) << annotated;
  // The dump is YAML that reads back to the same values (origins aside).
  ConfigNode again = ConfigNode::load_string(annotated, "again.yaml");
  again.merge_presets(testing::TempDir());
  EXPECT_EQ(again.dump(false), root.dump(false));
  EXPECT_EQ(again.at("dev").at("label").as_string(), "a: b # c");
}

}  // namespace
}  // namespace socsim

namespace socsim {
namespace {

TEST(ConfigYaml, TagsAreRefusedNamingFileLineAndKey) {
  // Read as plain values they would pass for 400.
  std::string msg =
      error_of([] { ConfigNode::load_string("cpu:\n  clock_mhz: !!binary 400\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:2: key 'cpu.clock_mhz': YAML tag '!!binary' not supported"),
            std::string::npos)
      << msg;
  msg = error_of([] { ConfigNode::load_string("cpu:\n  clock_mhz: !foo 400\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:2: key 'cpu.clock_mhz': YAML tag '!foo' not supported"),
            std::string::npos)
      << msg;
  // Quoted strings carry the non-specific tag "!": still plain values.
  EXPECT_EQ(ConfigNode::load_string("name: \"x\"\n", "soc.yaml").at("name").as_string(), "x");
}

TEST(ConfigYaml, ASecondDocumentIsRefusedNamingItsLine) {
  std::string msg = error_of([] { ConfigNode::load_string("a: 1\n---\nb: 2\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:2: a second YAML document"), std::string::npos) << msg;
  msg = error_of([] { ConfigNode::load_string("---\na: 1\n---\n", "soc.yaml"); });
  EXPECT_NE(msg.find("soc.yaml:3: a second YAML document"), std::string::npos) << msg;
  // One document, with its optional markers, is fine.
  EXPECT_EQ(ConfigNode::load_string("---\na: 1\n...\n", "soc.yaml").at("a").as_u64(), 1u);
}

TEST(ConfigPresets, ABareNameIsFoundInTheProjectsConfigs) {
  // A SoC file copied elsewhere: `preset: ddr4-3200` names configs/ddr/ddr4-3200.yaml.
  ConfigNode root = ConfigNode::load_string("ddr:\n  preset: ddr4-3200\n", "soc.yaml");
  root.merge_presets(testing::TempDir() + "/nowhere");
  EXPECT_NE(root.at("ddr").preset_file().find("configs/ddr/ddr4-3200.yaml"), std::string::npos)
      << root.at("ddr").preset_file();
  // Next to the file first.
  write_temp("ddr4-3200.yaml", "mine: 1\n");
  ConfigNode local = ConfigNode::load_string("ddr:\n  preset: ddr4-3200\n", "soc.yaml");
  local.merge_presets(testing::TempDir());
  EXPECT_EQ(local.at("ddr").preset_file(), testing::TempDir() + "ddr4-3200.yaml");
}

TEST(ConfigPresets, TheSearchPathComesFromTheEnvironmentFirst) {
  const std::string dir = testing::TempDir() + "presets_a";
  std::filesystem::create_directories(dir);
  write_temp("presets_a/custom.yaml", "mine: 2\n");
  setenv("SOCSIM_PRESET_PATH", (testing::TempDir() + "presets_none:" + dir).c_str(), 1);
  const std::vector<std::string> path = preset_search_path();
  ASSERT_GE(path.size(), 2u);
  EXPECT_EQ(path[1], dir);
  ConfigNode root = ConfigNode::load_string("dev:\n  preset: custom\n", "soc.yaml");
  root.merge_presets(testing::TempDir() + "elsewhere");
  EXPECT_EQ(root.at("dev").preset_file(), dir + "/custom.yaml");
  unsetenv("SOCSIM_PRESET_PATH");
  // Not found anywhere: the message names the path next to the file.
  ConfigNode missing = ConfigNode::load_string("dev:\n  preset: custom\n", "soc.yaml");
  const std::string msg = error_of([&] { missing.merge_presets(testing::TempDir() + "x"); });
  EXPECT_NE(msg.find("custom: cannot open file"), std::string::npos) << msg;
}

}  // namespace
}  // namespace socsim
