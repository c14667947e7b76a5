// Runs an elaborated SoC to its end: the SystemC kernel in time slices, between which the
// host's requests are served (SIGINT/SIGTERM, the host-time watchdog, a progress line on a
// terminal); the lock-up verdict when the kernel runs out of events with the core asleep.
#pragma once

#include <string>

namespace socsim {

class Soc;

struct SimulationOptions {
  bool progress = false;        ///< show the cycle count on stderr when it is a terminal
  double max_host_seconds = 0;  ///< stop after this much wall-clock time (0: no limit)
};

struct SimulationResult {
  double host_seconds = 0;  ///< wall-clock time of the simulation itself
};

/// Simulates until the SoC's SimControl records why the run stopped: the firmware's exit, a
/// fault, a cycle limit, a lock-up, an exception from a model (a host error), a signal
/// (SIGINT, SIGTERM: stopped at the end of the current time slice, status 128 + N; a
/// second signal ends the process at once) or the host-time limit.
SimulationResult simulate(Soc& soc, const SimulationOptions& options);

}  // namespace socsim
