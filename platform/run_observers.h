// What watches a run's retire trace: the lockstep checker (--lockstep) and the probes,
// attached to the SoC's CPU in that order (the checker sees each record before the probes).
#pragma once

#include <memory>

#include "models/cpu/lockstep.h"
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

 private:
  std::unique_ptr<LockstepChecker> lockstep_;
  std::unique_ptr<ProbeSession> probes_;
};

}  // namespace socsim
