// The `socsim` command line: dispatches to sub-commands (see platform/commands.h).
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <systemc>

#include "platform/commands.h"

namespace {

constexpr const char* kUsage = R"(socsim - a cycle-accurate SoC simulator with an NPU model

Usage: socsim <command> [options]

Commands:
  run        simulate firmware on a SoC described by YAML
  memmap     print a SoC's memory map, or write the firmware linker script and header
  config     print the effective configuration of a SoC (presets, --set, defaults) with
             where each value came from
  ddr-trace  replay a memory trace through a DDR preset and print its statistics

Run 'socsim <command> --help' for the options of a command.
)";

}  // namespace

int sc_main(int argc, char* argv[]) {
  // sc_stop() is how a run ends; SystemC's note about it is noise for users.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage;
    return args.empty() ? socsim::kExitUsage : 0;
  }
  const std::string& command = args[0];
  if (command == "run") return socsim::cmd_run(args);
  if (command == "memmap") return socsim::cmd_memmap(args);
  if (command == "config") return socsim::cmd_config(args);
  if (command == "ddr-trace") return socsim::cmd_ddr_trace(args);
  std::cerr << "socsim: unknown command '" << command << "'\n\n" << kUsage;
  return socsim::kExitUsage;
}

// socsim's own main: silences the SystemC banner (printed before sc_main otherwise), then
// hands over to the SystemC kernel, which calls sc_main.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
