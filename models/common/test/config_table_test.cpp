// The key-table reader (config_table.h): paths, types, defaults, derived defaults, optional
// keys and maps, unknown keys, range checks of structures built in code, documentation.
#include "models/common/config_table.h"

#include <gtest/gtest.h>

#include <sstream>

#include "models/common/test/config_test_util.h"

namespace socsim {
namespace {

constexpr auto error_of = test::config_error_of;

enum class Shape { kRound, kSquare };

struct Thing {
  std::string name;
  Shape shape = Shape::kRound;
  uint32_t rows = 0;
  uint32_t spare = 7;  // optional, no default: kept when absent
  uint32_t slow = 0;
  uint32_t fast = 0;  // defaults to `slow`
  double gain = 0;
  bool tiled = false;
  std::set<std::string> tags;
  std::vector<uint32_t> bits;
};

const ConfigEnum<Shape> kShapes = {{"round", Shape::kRound}, {"square", Shape::kSquare}};

const ConfigTable<Thing>& thing_keys() {
  static const ConfigTable<Thing> keys = {
      config_field(ConfigKey::text("name", nullptr, "its name"), &Thing::name),
      config_enum("shape", kShapes, "round", "its shape", &Thing::shape),
      config_field(ConfigKey::unsigned_in("array.rows", 1, 64, nullptr, "rows").powers_of_two(),
                   &Thing::rows),
      config_field(ConfigKey::unsigned_in("array.spare", 0, 9, nullptr, "spare").may_be_absent(),
                   &Thing::spare),
      config_field(ConfigKey::unsigned_in("timing.slow", 1, 100, "10", "slow"), &Thing::slow),
      config_field(ConfigKey::unsigned_in("timing.fast", 1, 100, nullptr, "fast")
                       .defaults_to("slow"),
                   &Thing::fast),
      config_field(ConfigKey::number_in("gain", 0, 2, nullptr, "gain").above_min(), &Thing::gain),
      config_field(ConfigKey::boolean("tiled", "false", "tiled"), &Thing::tiled),
      config_field(ConfigKey::choice_list("tags", {"red", "blue"}, "tags"), &Thing::tags),
      config_field(ConfigKey::bit_list("map.bits", 31, "bits").may_be_absent(), &Thing::bits),
  };
  return keys;
}

Thing read_thing(const std::string& text, ConfigNode* root_out = nullptr) {
  ConfigNode root = ConfigNode::load_string(text, "t.yaml");
  Thing thing;
  read_config_table(root, thing_keys(), thing);
  root.reject_unknown_keys();
  if (root_out != nullptr) *root_out = root;
  return thing;
}

constexpr const char* kGood =
    "name: a\narray: {rows: 8}\ngain: 0.5\ntags: [red]\n";

TEST(ConfigTable, ReadsPathsTypesAndDefaults) {
  ConfigNode root = ConfigNode::load_string("", "unused.yaml");
  const Thing t = read_thing(std::string(kGood) + "shape: square\ntiled: yes\n"
                             "map: {bits: [3, 5-7]}\n", &root);
  EXPECT_EQ(t.name, "a");
  EXPECT_EQ(t.shape, Shape::kSquare);
  EXPECT_EQ(t.rows, 8u);
  EXPECT_EQ(t.spare, 7u);  // absent, no default: kept
  EXPECT_EQ(t.slow, 10u);  // default
  EXPECT_EQ(t.fast, 10u);  // defaults to slow
  EXPECT_DOUBLE_EQ(t.gain, 0.5);
  EXPECT_TRUE(t.tiled);
  EXPECT_EQ(t.tags, std::set<std::string>{"red"});
  EXPECT_EQ(t.bits, (std::vector<uint32_t>{3, 5, 6, 7}));
  // Defaults show in the dump; the absent optional key and its map do not.
  const std::string dump = root.dump(true);
  EXPECT_NE(dump.find("slow: 10"), std::string::npos) << dump;
  EXPECT_NE(dump.find("fast: 10"), std::string::npos) << dump;
  EXPECT_EQ(dump.find("spare"), std::string::npos) << dump;
}

TEST(ConfigTable, DerivedDefaultFollowsTheOverriddenKey) {
  const Thing t = read_thing(std::string(kGood) + "timing: {slow: 40}\n");
  EXPECT_EQ(t.fast, 40u);
  EXPECT_EQ(read_thing(std::string(kGood) + "timing: {slow: 40, fast: 3}\n").fast, 3u);
}

TEST(ConfigTable, ErrorsNameFileLineAndKey) {
  auto msg = [](const std::string& extra) {
    return error_of([&] { read_thing(std::string(kGood) + extra); });
  };
  EXPECT_NE(msg("shape: oval\n").find("t.yaml:5: key 'shape': expected round or square, got "
                                      "'oval'"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_thing("name: a\narray: {rows: 6}\ngain: 1\ntags: []\n"); })
                .find("t.yaml:2: key 'array.rows': must be a power of two in 1..64, got 6"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_thing("name: a\narray: {rows: 8}\ngain: 0\ntags: []\n"); })
                .find("t.yaml:3: key 'gain': must be a number in (0, 2], got 0"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_thing("name: a\narray: {rows: 8}\ngain: 1\ntags: [red, bleu]\n"); })
                .find("t.yaml:4: key 'tags[1]': unknown name 'bleu' (known: red, blue); did you "
                      "mean 'blue'?"),
            std::string::npos);
  EXPECT_NE(msg("map: {bits: [9-3]}\n").find("key 'map.bits[0]': expected a bit number or a "
                                             "range 'lo-hi' of bits 0..31, got '9-3'"),
            std::string::npos);
  EXPECT_NE(msg("tiled: maybe\n").find("key 'tiled': expected true or false"), std::string::npos);
  // A map the table reaches is strict; a missing map of a required key is named.
  EXPECT_NE(msg("timing: {slw: 1}\n").find("unknown key 'slw' (did you mean 'slow'?)"),
            std::string::npos);
  EXPECT_NE(error_of([] { read_thing("name: a\ngain: 1\ntags: []\n"); })
                .find("missing required key 'array'"),
            std::string::npos);
  EXPECT_NE(msg("timing: 3\n").find("key 'timing': expected a map"), std::string::npos);
}

TEST(ConfigTable, ChecksStructuresBuiltInCode) {
  Thing t = read_thing(kGood);
  std::string failed;
  auto fail = [&](const std::string& key, const std::string& message) {
    failed = key + ": " + message;
  };
  check_config_table(thing_keys(), t, fail);
  EXPECT_EQ(failed, "");
  t.rows = 12;
  check_config_table(thing_keys(), t, fail);
  EXPECT_EQ(failed, "array.rows: must be a power of two in 1..64, got 12");
  t.rows = 8;
  t.gain = 3;
  check_config_table(thing_keys(), t, fail);
  EXPECT_EQ(failed, "gain: must be a number in (0, 2], got 3");
}

TEST(ConfigTable, DocumentsEveryKey) {
  std::ostringstream out;
  write_config_key_docs(out, "thing key", keys_of(thing_keys()));
  const std::string doc = out.str();
  EXPECT_NE(doc.find("| thing key | type, range, default | meaning |"), std::string::npos);
  EXPECT_NE(doc.find("| `array.rows` | power of two 1..64, required | rows |"), std::string::npos)
      << doc;
  EXPECT_NE(doc.find("| `array.spare` | integer 0..9, optional | spare |"), std::string::npos);
  EXPECT_NE(doc.find("| `timing.fast` | integer 1..100, default `slow` | fast |"),
            std::string::npos);
  EXPECT_NE(doc.find("| `shape` | round or square, default round | its shape |"),
            std::string::npos);
  EXPECT_NE(doc.find("| `gain` | number above 0, up to 2, required | gain |"), std::string::npos);
}

TEST(ConfigTable, ATableWhoseRangeDoesNotFitItsFieldIsRefused) {
  struct Small {
    uint8_t x = 0;
  };
  EXPECT_THROW(config_field(ConfigKey::unsigned_in("x", 0, 1000, nullptr, "x"), &Small::x),
               std::logic_error);
}

}  // namespace
}  // namespace socsim
