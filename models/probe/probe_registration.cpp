// Region type `probe`: the probe register block (models/probe/probe_device.h).
#include "models/common/device_registry.h"
#include "models/probe/probe_device.h"

namespace socsim {

namespace {

DeviceType probe_type() {
  DeviceType t;
  t.name = "probe";
  t.title = "probe register block ([docs/probes.md](probes.md))";
  t.behaviour =
      "+0x0 BEGIN id, +0x4 END id, +0x8 VALUE (element count), one zero-wait store each; +0xC "
      "reads 0x50524F42";
  t.min_size = 16;
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    b.add_target(std::make_unique<ProbeDevice>(r.name.c_str(), b.cpu_clock()));
  };
  t.macros = [](const RegionConfig& r) { return std::vector<MemmapMacro>{{"PROBE_BASE", r.base}}; };
  return t;
}

const bool kProbe = register_device_type(probe_type());

}  // namespace

}  // namespace socsim
