// The probes' part of the end-of-run output (docs/probes.md): the region table and the
// function profile on the console, probes.json / .csv and the profile files.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "platform/probes.h"
#include "platform/report/npu_report.h"
#include "platform/report/report_directory.h"

namespace socsim {

/// Closes the regions still open at `run_cycles` (the run's cycle count, which the retire
/// trace's total is checked against), prints the table and the profile when `print`, and
/// writes probes.json, probes.csv (and with --profile
/// callgrind.out.socsim, profile.folded) into `dir`.
void report_probes(ProbeSession& probes, std::ostream& out, bool print, ReportDirectory& dir,
                   uint64_t run_cycles);

/// The operator calls the CPU ran during the last execution of the runtime (in order),
/// for the NPU report's CPU rows. Empty without the runtime's symbols.
std::vector<CpuOperatorRecord> last_execution_cpu_operators(const ProbeSession& probes);

}  // namespace socsim
