// Region types `corev_ctrl` (the core-v-verif control block) and `dummy` (a placeholder),
// both in models/peripherals/corev_ctrl.h.
#include "models/common/device_registry.h"
#include "models/peripherals/corev_ctrl.h"

namespace socsim {

namespace {

DeviceType corev_ctrl_type() {
  DeviceType t;
  t.name = "corev_ctrl";
  t.title = "core-v-verif control block";
  t.behaviour =
      "+0x0 timer mask, +0x4 countdown, +0x8 debug control (accepted, no effect), +0x1000 "
      "random (reads 0), +0x1004 cycles since reset (a write clears it)";
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    b.add_target(std::make_unique<CorevCtrl>(r.name.c_str(), b.cpu_clock()));
  };
  t.macros = [](const RegionConfig& r) {
    return std::vector<MemmapMacro>{{"COREV_CTRL_BASE", r.base}};
  };
  return t;
}

DeviceType dummy_type() {
  DeviceType t;
  t.name = "dummy";
  t.title = "placeholder";
  t.behaviour = "reads 0, writes ignored";
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    b.add_target(std::make_unique<NullDevice>(r.name.c_str(), b.cpu_clock()));
  };
  return t;
}

const bool kCorevCtrl = register_device_type(corev_ctrl_type());
const bool kDummy = register_device_type(dummy_type());

}  // namespace

}  // namespace socsim
