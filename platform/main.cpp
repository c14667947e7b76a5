// The `socsim` command line: dispatches to sub-commands (see platform/commands.h).
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <systemc>

#include "platform/commands.h"
#include "platform/version.h"

namespace {

struct Command {
  const char* name;
  int (*run)(const std::vector<std::string>& args);
  const char* summary;
};

// One line per sub-command: adding one is adding a line.
const Command kCommands[] = {
    {"run", socsim::cmd_run, "simulate firmware on a SoC described by YAML"},
    {"memmap", socsim::cmd_memmap,
     "print a SoC's memory map, or write the firmware linker script and header"},
    {"config", socsim::cmd_config,
     "print a SoC's effective configuration (presets, --set, defaults), each value's origin"},
    {"ddr-trace", socsim::cmd_ddr_trace,
     "replay a memory trace through a DDR preset and print its statistics"},
    {"sweep", socsim::cmd_sweep,
     "run a design-space sweep (local cores or Slurm) into a results database"},
    {"compare", socsim::cmd_compare, "print two runs' reports side by side, with differences"},
    {"estimate", socsim::cmd_estimate,
     "estimate a program's per-layer NPU report for a SoC without simulating it"},
};

void print_usage(std::ostream& out) {
  out << "socsim - a cycle-accurate SoC simulator with an NPU model\n\n"
         "Usage: socsim <command> [options]\n"
         "       socsim --version\n\n"
         "Commands:\n";
  for (const Command& c : kCommands) {
    out << "  " << std::left << std::setw(11) << c.name << c.summary << "\n";
  }
  out << "\nRun 'socsim <command> --help' for the options of a command.\n";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  // sc_stop() is how a run ends; SystemC's note about it is noise for users.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_usage(std::cout);
    return args.empty() ? socsim::kExitUsage : 0;
  }
  if (args[0] == "--version") {
    std::cout << "socsim " << socsim::socsim_version() << " (" << socsim::socsim_git_describe()
              << ")\n";
    return 0;
  }
  for (const Command& c : kCommands) {
    if (args[0] != c.name) continue;
    try {
      return c.run(args);
    } catch (const std::bad_alloc&) {
      // Inputs are capped before they are read; this is what remains (a huge configuration).
      std::cerr << "socsim: error: out of host memory\n";
      return socsim::kExitUsage;
    } catch (const std::exception& e) {
      std::cerr << "socsim: internal error: " << e.what() << "\n";
      return socsim::kExitSimFault;
    }
  }
  std::cerr << "socsim: unknown command '" << args[0] << "'\n\n";
  print_usage(std::cerr);
  return socsim::kExitUsage;
}

// socsim's own main: silences the SystemC banner (printed before sc_main otherwise), then
// hands over to the SystemC kernel, which calls sc_main.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
