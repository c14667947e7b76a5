// Region type `console` (models/peripherals/console.h).
#include "models/common/device_registry.h"
#include "models/peripherals/console.h"

namespace socsim {

namespace {

DeviceType console_type() {
  DeviceType t;
  t.name = "console";
  t.title = "console";
  t.behaviour = "+0x0: a store prints its low byte (byte enables ignored)";
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    b.add_target(std::make_unique<Console>(r.name.c_str(), b.cpu_clock(), b.console_out()));
  };
  t.macros = [](const RegionConfig& r) { return std::vector<MemmapMacro>{{"CONSOLE_TX", r.base}}; };
  return t;
}

const bool kConsole = register_device_type(console_type());

}  // namespace

}  // namespace socsim
