// Everything a `socsim run` prints and writes once the simulation has ended: the
// end-of-run line (and the core-v-verif testbench's, where asked), the lockstep verdict,
// the probe table and profile, the DDR statistics and the NPU per-layer reports on the
// console; summary.json, the probes' files, ddr.json and <npu>_layers.json/.csv in the
// report folder. Each part is fed by its component's statistics (SimControl, the CPU
// model, the lockstep checker, the probes, Ddr::stats(), Npu::layers()).
#pragma once

#include <vector>

#include "platform/report/npu_report.h"
#include "platform/report/report_directory.h"
#include "platform/report/run_record.h"
#include "platform/simulation.h"

namespace socsim {

class SimControl;
class Soc;
class RunObservers;
struct RunOptions;

struct RunReportInput {
  const RunOptions& options;
  const RunRecord& record;
  Soc& soc;
  RunObservers& observers;
  const SimulationResult& simulation;
};

/// Prints and writes the run's report; returns the process exit status. Every output file
/// that could not be written whole (the signature, the instruction trace: SimControl's
/// output errors; a report file) is told on stderr, naming it, and turns a status of 0 into
/// kExitOutput (74); a run that failed keeps its own status.
int report_run(const RunReportInput& run, ReportDirectory& dir);

/// The SoC's DDR regions as the NPU reports classify a layer's traffic (npu_ddr_traffic,
/// npu_bound), with the DDR energy rates of the NPU's traffic where the preset has them.
std::vector<NpuDdrRegion> npu_ddr_regions(Soc& soc);

/// The process exit status of a run that stopped: the firmware's exit value when it is
/// 0..255, kExitFirmwareOutOfRange (1) for any other value (statuses are 8 bits: 256 would
/// read as 0); 3 for a fault or an internal error; 124 for --max-cycles and
/// --max-host-seconds; 128 + N for signal N.
int exit_status(const SimControl& control);
/// exit_status(), or kExitOutput when it is 0 and `outputs_ok` is false.
int exit_status(const SimControl& control, bool outputs_ok);

}  // namespace socsim
