// What watches a run's retire trace: the lockstep checker (--lockstep), the probes and the
// debugging tools (GDB, instruction trace), attached to the SoC's CPU in that order (the
// checker sees each record before the probes; GDB stops the core after all have seen it).
#pragma once

#include <memory>

#include "models/cpu/lockstep.h"
#include "platform/debug_tools.h"
#include "platform/probes.h"

namespace socsim {

struct RunOptions;

class RunObservers {
 public:
  /// Throws ConfigError when an option asks for what the CPU model cannot give (lockstep
  /// without the RTL core or without a retire trace) or a probe spec is wrong.
  RunObservers(const RunOptions& options, const FirmwareImage& image, Soc& soc);

  /// Null without --lockstep.
  const LockstepChecker* lockstep() const { return lockstep_.get(); }
  ProbeSession& probes() { return *probes_; }
  const DebugTools& debug() const { return *debug_; }
  /// The simulation has ended (before the report): tells GDB how.
  void end_of_run(SimControl& control) { debug_->end_of_run(control); }

 private:
  std::unique_ptr<LockstepChecker> lockstep_;
  std::unique_ptr<ProbeSession> probes_;
  std::unique_ptr<DebugTools> debug_;
};

}  // namespace socsim
