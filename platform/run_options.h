// `socsim run`'s command line: the options, parsed and checked before anything is loaded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/debug_tools.h"
#include "platform/probes.h"

namespace socsim {

struct RunOptions {
  std::vector<std::string> command_line;  ///< "socsim", "run" and the arguments as given
  std::string config_path;
  std::string firmware_path;
  std::string cpu;  ///< a registered CPU model (models/cpu/cpu_registry.h), "": cpu.model
  std::vector<std::string> sets;
  std::string model_path, input_path;
  std::vector<std::string> firmware_args;  ///< everything after "--"
  std::string report_dir;                  ///< "" = no report files
  std::string signature_path;
  uint64_t max_cycles = 0;       ///< 0 = no limit
  double max_host_seconds = 0;   ///< 0 = no limit
  bool corev_end_line = false;
  bool lockstep = false;
  bool ddr_banks = false;
  bool quiet = false;
  ProbeOptions probes;
  DebugOptions debug;
};

/// A count given on the command line (decimal or 0x-hex; not negative). Throws ConfigError
/// naming `option`.
uint64_t parse_count(const std::string& option, const std::string& text);

/// Parses `args` (args[0] is "run"). Returns the exit status when the command ends here
/// (--help: 0; a usage error, already reported on stderr: 2), nothing when the run goes on.
std::optional<int> parse_run_options(const std::vector<std::string>& args, RunOptions& options);

}  // namespace socsim
