// Region type `exit`: the end-of-test block (models/peripherals/exit_device.h).
#include "models/common/device_registry.h"
#include "models/peripherals/exit_device.h"

namespace socsim {

namespace {

DeviceType exit_type() {
  DeviceType t;
  t.name = "exit";
  t.title = "end-of-test block (core-v-verif virtual peripherals)";
  t.behaviour =
      "+0x0: 123456789 = pass (exit 0), 1 = fail (exit 1); +0x4: exit value, ends the run; "
      "+0x8/+0xC: signature start/end; +0x10: dump the signature, exit 0";
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    // The signature dump reads memory during the run: through the SoC, not the builder.
    b.add_target(std::make_unique<ExitDevice>(
        r.name.c_str(), b.cpu_clock(), b.control(), b.console_out(),
        [read = b.memory_reader()](uint32_t addr, uint8_t* data, uint32_t size) {
          return read(addr, data, size);
        }));
  };
  t.macros = [](const RegionConfig& r) { return std::vector<MemmapMacro>{{"EXIT_BASE", r.base}}; };
  return t;
}

const bool kExit = register_device_type(exit_type());

}  // namespace

}  // namespace socsim
