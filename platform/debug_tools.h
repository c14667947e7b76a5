// `socsim run`'s debugging tools (docs/debugging.md): the GDB stub (--gdb PORT) and the
// instruction trace (--trace-instr FILE), attached to the SoC's CPU after the probes, so
// that a run stopped in GDB has been seen by every other observer up to that instruction.
#pragma once

#include <boost/program_options.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "models/common/sim_control.h"

namespace socsim {

class Soc;
class CommitLog;
class GdbSession;
class TcpGdbTransport;

struct DebugOptions {
  int gdb_port = -1;        ///< --gdb PORT (-1: no stub)
  std::string trace_instr;  ///< --trace-instr FILE
};

/// Adds --gdb and --trace-instr to `opts`.
void add_debug_options(boost::program_options::options_description& opts,
                       DebugOptions& options);

class DebugTools {
 public:
  /// Opens the trace file and, with --gdb, waits for GDB to connect and serves it until it
  /// resumes the core. Throws ConfigError (a file that cannot be written, a port in use, a
  /// CPU model without a retire trace).
  DebugTools(const DebugOptions& options, Soc& soc);
  ~DebugTools();

  /// The run has ended: tells GDB how, and closes the trace.
  void end_of_run(const SimControl& control);

 private:
  std::FILE* trace_ = nullptr;
  std::unique_ptr<CommitLog> commit_log_;
  std::unique_ptr<TcpGdbTransport> transport_;
  std::unique_ptr<GdbSession> gdb_;
};

}  // namespace socsim
