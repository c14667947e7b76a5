// `socsim run`'s debugging tools (docs/debugging.md): the GDB stub (--gdb PORT), the
// instruction trace (--trace-instr FILE), attached to the SoC's CPU after the probes, so
// that a run stopped in GDB has been seen by every other observer up to that instruction,
// and the RTL core's waveforms (--trace-fst / --trace-vcd FILE, --trace-window A..B).
#pragma once

#include <boost/program_options.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/common/sim_control.h"
#include "models/ddr/ddr.h"
#include "models/npu/npu.h"
#include "models/probe/timeline.h"

namespace socsim {

class Soc;
class ProbeSession;
class CommitLog;
class GdbSession;
class TcpGdbTransport;

class CpuModel;

struct DebugOptions {
  int gdb_port = -1;         ///< --gdb PORT (-1: no stub)
  std::string trace_instr;   ///< --trace-instr FILE
  std::string trace_fst;     ///< --trace-fst FILE
  std::string trace_vcd;     ///< --trace-vcd FILE
  std::string trace_window;  ///< --trace-window A..B (cycles; "" = the whole run)
  bool timeline = false;            ///< --timeline: DMA, DDR counters, traps in timeline.json
  bool timeline_functions = false;  ///< --timeline-functions: and every function call
  bool waveforms() const { return !trace_fst.empty() || !trace_vcd.empty(); }
};

/// Adds --gdb, --trace-instr, --trace-fst, --trace-vcd, --trace-window, --timeline and
/// --timeline-functions to `opts`.
void add_debug_options(boost::program_options::options_description& opts,
                       DebugOptions& options);

/// Waveforms come from the traced build of the core (socsim-trace, next to socsim): when
/// they are asked for and this build has none, runs socsim-trace with the same arguments
/// in this process's place. Returns the exit status when the command ends here (a bad
/// option or no socsim-trace: 2, reported on stderr), nothing when this build goes on.
std::optional<int> run_traced_build_if_needed(const DebugOptions& options,
                                              const std::vector<std::string>& command_line,
                                              const std::string& cpu);

/// What --timeline records during the run for timeline.json (the rest of the timeline
/// comes from the reports the components keep anyway).
struct TimelineRecording {
  std::vector<std::vector<DdrAccessRecord>> ddr;  ///< by Soc::ddrs()
  std::vector<std::vector<NpuDmaRecord>> dma;     ///< by Soc::npus()
  std::unique_ptr<CallTimeline> calls;            ///< null without the probes
};

class DebugTools {
 public:
  /// Opens the trace file and, with --gdb, waits for GDB to connect and serves it until it
  /// resumes the core. Throws ConfigError (a file that cannot be written, a port in use, a
  /// CPU model without a retire trace).
  DebugTools(const DebugOptions& options, Soc& soc, ProbeSession& probes);
  ~DebugTools();

  /// The run has ended: tells GDB how, and closes the trace (a trace that could not be
  /// written whole is reported to `control` as an output error).
  void end_of_run(SimControl& control);
  /// What --timeline recorded; null without it.
  const TimelineRecording* timeline() const { return timeline_.get(); }

 private:
  CpuModel& cpu_;
  std::string vcd_path_, fst_path_;  ///< --trace-vcd: the FST written first, then converted
  bool keep_fst_ = false;
  std::FILE* trace_ = nullptr;
  std::string trace_path_;
  std::unique_ptr<CommitLog> commit_log_;
  std::unique_ptr<TcpGdbTransport> transport_;
  std::unique_ptr<GdbSession> gdb_;
  std::unique_ptr<TimelineRecording> timeline_;
};

}  // namespace socsim
