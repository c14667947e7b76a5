// Sub-commands of the `socsim` command line. Each takes the arguments after its name
// (args[0] is the sub-command's name) and returns the process exit status.
#pragma once

#include <string>
#include <vector>

namespace socsim {

/// `socsim run`: simulate firmware on a SoC described by YAML.
int cmd_run(const std::vector<std::string>& args);
/// `socsim memmap`: print the memory map, or write the firmware linker script and header.
int cmd_memmap(const std::vector<std::string>& args);
/// `socsim config`: print the effective configuration with the origin of every value.
int cmd_config(const std::vector<std::string>& args);
/// `socsim ddr-trace`: replay a memory trace through a DDR preset and print statistics.
int cmd_ddr_trace(const std::vector<std::string>& args);
/// `socsim sweep`: design-space exploration (scripts/socsim_sweep, docs/sweeps.md).
int cmd_sweep(const std::vector<std::string>& args);
/// `socsim compare`: two runs' reports side by side, with their differences.
int cmd_compare(const std::vector<std::string>& args);
/// `socsim estimate`: a program's per-layer NPU report estimated without simulation.
int cmd_estimate(const std::vector<std::string>& args);

/// Exit statuses shared by all sub-commands.
enum ExitStatus : int {
  kExitFirmwareOutOfRange = 1,  ///< `socsim run`: the firmware exited with a value not in 0..255
  kExitUsage = 2,               ///< bad command line, config or input file
  kExitSimFault = 3,            ///< simulation fault: unmapped access, unhandled trap, lock-up
  kExitOutput = 74,             ///< `socsim run` ended well, but an output file could not be
                                ///< written whole (sysexits.h's EX_IOERR)
  kExitMaxCycles = 124,         ///< --max-cycles (or --max-host-seconds) reached
  kExitSignal = 128             ///< + the signal's number: SIGINT 130, SIGTERM 143
};

}  // namespace socsim
