#include "platform/run_observers.h"

#include "platform/run_options.h"
#include "platform/soc.h"

namespace socsim {

RunObservers::RunObservers(const RunOptions& options, const FirmwareImage& image, Soc& soc) {
  CpuModel& cpu = soc.cpu();
  if (options.lockstep) {
    const CpuCapabilities& can = soc.cpu_type().capabilities;
    if (!can.retire_trace) {
      // The genuine CV32E40P has no retire-trace port: cycles are exact, nothing per
      // instruction.
      throw ConfigError("--lockstep needs a retire trace: the " + soc.cpu_type().name +
                        " CPU model of this build is the " + cpu.description() +
                        ", which reports no retired instructions");
    }
    if (!can.lockstep) {
      throw ConfigError(
          "--lockstep checks the RTL core against the ISS: use it with --cpu " +
          cpu_model_list(false, [](const CpuModelType& t) { return t.capabilities.lockstep; }));
    }
    if (options.debug.gdb_port >= 0) {
      // GDB's stops are halts of the core (docs/debugging.md), which the reference ISS of
      // the checker does not take.
      throw ConfigError("--lockstep and --gdb cannot be combined: the debugger's halts change "
                        "the RTL core's cycles, which the lockstep reference does not follow");
    }
    lockstep_ = std::make_unique<LockstepChecker>(soc.iss_config(), soc.control());
    cpu.set_bus_observer(lockstep_.get());
    cpu.add_retire_observer(lockstep_.get());
  }
  probes_ = std::make_unique<ProbeSession>(options.probes, image, soc);
  debug_ = std::make_unique<DebugTools>(options.debug, soc, *probes_);
}

}  // namespace socsim
