#include "platform/run_observers.h"

#include "platform/run_options.h"
#include "platform/soc.h"

namespace socsim {

RunObservers::RunObservers(const RunOptions& options, const FirmwareImage& image, Soc& soc) {
  CpuModel& cpu = soc.cpu();
  if (options.lockstep) {
    if (!cpu.has_retire_trace()) {
      // The genuine CV32E40P has no retire-trace port: cycles are exact, nothing per
      // instruction.
      throw ConfigError(std::string("--lockstep needs a retire trace: the rtl CPU model of "
                                    "this build is the ") +
                        cpu.description() + ", which reports no retired instructions");
    }
    if (std::string(cpu.kind()) != "rtl") {
      throw ConfigError("--lockstep checks the RTL core against the ISS: use it with --cpu rtl");
    }
    lockstep_ = std::make_unique<LockstepChecker>(soc.iss_config(), soc.control());
    cpu.set_bus_observer(lockstep_.get());
    cpu.add_retire_observer(lockstep_.get());
  }
  probes_ = std::make_unique<ProbeSession>(options.probes, image, soc);
  debug_ = std::make_unique<DebugTools>(options.debug, soc, *probes_);
}

}  // namespace socsim
