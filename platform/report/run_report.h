// Everything a `socsim run` prints and writes once the simulation has ended: the
// end-of-run line (and the core-v-verif testbench's, where asked), the lockstep verdict,
// the probe table and profile, the DDR statistics and the NPU per-layer reports on the
// console; summary.json, the probes' files, ddr.json and <npu>_layers.json/.csv in the
// report folder. Each part is fed by its component's statistics (SimControl, the CPU
// model, the lockstep checker, the probes, Ddr::stats(), Npu::layers()).
#pragma once

#include "platform/report/report_directory.h"
#include "platform/simulation.h"

namespace socsim {

class Soc;
class RunObservers;
struct RunOptions;

struct RunReportInput {
  const RunOptions& options;
  Soc& soc;
  RunObservers& observers;
  const SimulationResult& simulation;
};

/// Prints and writes the run's report; returns the process exit status.
int report_run(const RunReportInput& run, ReportDirectory& dir);

}  // namespace socsim
