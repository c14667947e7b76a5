// The device registry on its own: a type's key table drives reading, range checks, defaults
// and unknown-key errors; the map checks (overlaps, macro names, interrupt lines) and the
// generated documentation cover every registered type.
#include "models/common/device_registry.h"

#include <gtest/gtest.h>

#include <sstream>

#include "models/common/test/config_test_util.h"

namespace socsim {
namespace {

constexpr auto error_of = test::config_error_of;

DeviceType widget_type() {
  DeviceType t;
  t.name = "widget";
  t.title = "test widget";
  t.behaviour = "nothing";
  t.min_size = 0x100;
  t.keys = {ConfigKey::unsigned_in("irq", 16, 31, "20", "its line"),
            ConfigKey::number_in("mhz", 1, 100, "10", "its clock")};
  t.irq_lines = [](const RegionConfig& r) {
    return std::vector<unsigned>{static_cast<unsigned>(r.u64("irq"))};
  };
  t.build = [](const RegionConfig&, DeviceBuilder&) {};
  return t;
}
const bool kWidget = register_device_type(widget_type());

std::vector<RegionConfig> read_map(const std::string& yaml) {
  const ConfigNode root = ConfigNode::load_string(yaml, "soc.yaml");
  const std::string dir = ".";
  const DeviceReadContext context{root, dir};
  std::vector<RegionConfig> regions;
  for (const auto& [name, node] : root.at("memory_map").entries()) {
    regions.push_back(read_region(name, node, context));
  }
  check_regions(regions);
  return regions;
}

TEST(DeviceRegistry, KeysAreReadWithDefaultsAndRanges) {
  const auto regions = read_map("memory_map:\n  w: {type: widget, base: 0x1000, size: 0x100}\n");
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].u64("irq"), 20u);
  EXPECT_DOUBLE_EQ(regions[0].number("mhz"), 10.0);
  EXPECT_THROW(regions[0].u64("no_such_key"), std::logic_error);
  std::string msg = error_of(
      [] { read_map("memory_map:\n  w: {type: widget, base: 0x1000, size: 0x100, mhz: 1e9}\n"); });
  EXPECT_NE(msg.find("soc.yaml:2: key 'memory_map.w.mhz': must be a number in [1, 100]"),
            std::string::npos)
      << msg;
  msg = error_of(
      [] { read_map("memory_map:\n  w: {type: widget, base: 0x1000, size: 0x100, iqr: 17}\n"); });
  EXPECT_NE(msg.find("unknown key 'iqr' (did you mean 'irq'?)"), std::string::npos) << msg;
  msg = error_of([] { read_map("memory_map:\n  w: {type: widget, base: 0x1000, size: 0x10}\n"); });
  EXPECT_NE(msg.find("a widget region needs at least 0x00000100 bytes"), std::string::npos) << msg;
  msg = error_of([] { read_map("memory_map:\n  w: {type: widgte, base: 0x1000, size: 0x100}\n"); });
  EXPECT_NE(msg.find("unknown region type 'widgte'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("did you mean 'widget'?"), std::string::npos) << msg;
}

TEST(DeviceRegistry, MapChecksCoverEveryType) {
  std::string msg = error_of([] {
    read_map(
        "memory_map:\n  a: {type: widget, base: 0x1000, size: 0x200}\n"
        "  b: {type: widget, base: 0x1100, size: 0x100, irq: 21}\n");
  });
  EXPECT_NE(msg.find("region 'b' [0x00001100, 0x00001200) overlaps region 'a'"), std::string::npos)
      << msg;
  msg = error_of([] {
    read_map(
        "memory_map:\n  a: {type: widget, base: 0x1000, size: 0x100}\n"
        "  b: {type: widget, base: 0x2000, size: 0x100}\n");
  });
  EXPECT_NE(msg.find("region 'b' drives interrupt line 20, which region 'a' (widget) drives too"),
            std::string::npos)
      << msg;
  msg = error_of(
      [] { read_map("memory_map:\n  a: {type: widget, base: 0xFFFFFF00, size: 0x200}\n"); });
  EXPECT_NE(msg.find("does not fit in the 32-bit address space"), std::string::npos) << msg;
}

TEST(DeviceRegistry, RegistrationIsUniqueAndDocumented) {
  EXPECT_THROW(register_device_type(widget_type()), std::logic_error);
  EXPECT_EQ(find_device_type("widget")->title, "test widget");
  std::ostringstream docs;
  write_device_docs(docs);
  EXPECT_NE(docs.str().find("| `widget` | test widget | `irq`: integer 16..31, default 20; its "
                            "line<br>`mhz`: number 1..100, default 10; its clock<br>size at "
                            "least 0x100 | nothing |"),
            std::string::npos)
      << docs.str();
}

}  // namespace
}  // namespace socsim
