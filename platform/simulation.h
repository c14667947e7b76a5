// Runs an elaborated SoC to its end: the SystemC kernel, a progress line on a terminal, and
// the lock-up verdict when the kernel runs out of events with the core asleep.
#pragma once

#include <string>

namespace socsim {

class Soc;

struct SimulationResult {
  double host_seconds = 0;     ///< wall-clock time of the simulation itself
  std::string internal_error;  ///< an exception escaped the kernel ("" if none)
};

/// Simulates until the SoC's SimControl records why the run stopped. `progress`: show the
/// cycle count on stderr when it is a terminal.
SimulationResult simulate(Soc& soc, bool progress);

}  // namespace socsim
