// Region type `alias`: a window onto another region, routed by the router to that region's
// target at an offset (models/bus/router.h).
#include "models/common/device_registry.h"
#include "models/common/hex.h"

namespace socsim {

namespace {

DeviceType alias_type() {
  DeviceType t;
  t.name = "alias";
  t.kind = RegionKind::kWindow;
  t.title = "window onto another region";
  t.behaviour =
      "accesses reach region `of` at `offset` + the offset in the window (the "
      "core-v-verif debug area maps onto the top 16 KiB of RAM this way)";
  t.keys = {ConfigKey::text("of", nullptr, "the region it is a window onto (not an alias)"),
            ConfigKey::unsigned_in("offset", 0, 0xFFFFFFFF, "0",
                                   "where the window starts inside that region")};
  t.check = [](const RegionConfig& r, const DeviceCheckContext& map) {
    const RegionConfig* target = map.find(r.text("of"));
    if (target == nullptr || find_device_type(target->type)->kind == RegionKind::kWindow) {
      throw ConfigError(r.where_of("of") + ": alias of '" + r.text("of") +
                        "', which is not a region of this map");
    }
    // offset + size could wrap: compare without the sum.
    const uint64_t offset = r.u64("offset");
    if (offset > target->size || r.size > target->size - offset) {
      throw ConfigError(r.where_of("offset") + ": alias window [offset " + hex(offset) + ", size " +
                        hex(r.size) + ") does not fit in region '" + target->name + "'");
    }
  };
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    b.add_window(r.text("of"), r.u64("offset"));
  };
  return t;
}

const bool kAlias = register_device_type(alias_type());

}  // namespace

}  // namespace socsim
