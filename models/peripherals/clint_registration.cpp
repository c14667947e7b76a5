// Region type `clint`: the machine timer (models/peripherals/clint_timer.h).
#include "models/common/device_registry.h"
#include "models/peripherals/clint_timer.h"

namespace socsim {

namespace {

constexpr unsigned kTimerIrq = 7, kSoftwareIrq = 3;  // mip.MTIP, mip.MSIP

uint64_t timer_hz(const RegionConfig& r) {
  return static_cast<uint64_t>(r.number("timer_mhz") * 1e6 + 0.5);
}

DeviceType clint_type() {
  DeviceType t;
  t.name = "clint";
  t.title = "machine timer";
  t.behaviour =
      "msip +0x0 (irq 3), mtimecmp +0x4000/+0x4004, mtime +0xBFF8/+0xBFFC counting at "
      "`timer_mhz`; the timer interrupt (irq 7) rises at the exact core cycle when mtime "
      "reaches mtimecmp";
  t.min_size = 0xC000;
  t.keys = {ConfigKey::number_in("timer_mhz", 0.001, 10000, "10", "mtime frequency in MHz")};
  t.irq_lines = [](const RegionConfig&) { return std::vector<unsigned>{kSoftwareIrq, kTimerIrq}; };
  t.build = [](const RegionConfig& r, DeviceBuilder& b) {
    b.add_target(std::make_unique<ClintTimer>(r.name.c_str(), b.cpu_clock(), b.irq(), timer_hz(r),
                                              kTimerIrq, kSoftwareIrq));
  };
  t.macros = [](const RegionConfig& r) {
    return std::vector<MemmapMacro>{{"TIMER_BASE", r.base}, {"TIMER_HZ", timer_hz(r), true}};
  };
  return t;
}

const bool kClint = register_device_type(clint_type());

}  // namespace

}  // namespace socsim
