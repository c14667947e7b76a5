// `socsim run`: load a SoC description and firmware, simulate to the end, report.
#include <iostream>
#include <memory>

#include "models/common/host_stop.h"
#include "models/peripherals/exit_device.h"
#include "platform/boot_info.h"
#include "platform/commands.h"
#include "platform/firmware_image.h"
#include "platform/firmware_loader.h"
#include "platform/report/run_report.h"
#include "platform/run_observers.h"
#include "platform/run_options.h"
#include "platform/simulation.h"
#include "platform/soc.h"

namespace socsim {

namespace {

// The elaborated SoC with the firmware in memory and the observers attached.
struct LoadedRun {
  FirmwareImage image;
  std::unique_ptr<Soc> soc;
  std::unique_ptr<RunObservers> observers;
};

// Everything before the simulation starts. Throws ConfigError.
LoadedRun load_run(const RunOptions& options) {
  LoadedRun run;
  const SocConfig config = load_soc_config(options.config_path, options.sets);
  run.image = load_firmware_image(options.firmware_path);
  run.soc = std::make_unique<Soc>(config, options.cpu, std::cout);
  Soc& soc = *run.soc;
  load_firmware(run.image, soc);
  write_boot_info({options.firmware_path, options.firmware_args, options.model_path,
                   options.input_path},
                  run.image, soc);
  if (!options.signature_path.empty()) {
    if (soc.exit_device() == nullptr) {
      throw ConfigError("--signature " + options.signature_path +
                        ": the SoC has no exit device to dump a signature");
    }
    const std::string error = soc.exit_device()->set_signature_file(options.signature_path);
    if (!error.empty()) {
      throw ConfigError("--signature " + options.signature_path + ": cannot write: " + error);
    }
  }
  soc.cpu().set_max_cycles(options.max_cycles);
  run.observers = std::make_unique<RunObservers>(options, run.image, soc);
  return run;
}

}  // namespace

int cmd_run(const std::vector<std::string>& args) {
  RunOptions options;
  if (const std::optional<int> status = parse_run_options(args, options)) return *status;
  if (const std::optional<int> status =
          run_traced_build_if_needed(options.debug, options.command_line, options.cpu)) {
    return *status;
  }
  const RunRecord record(options);

  ReportDirectory reports;
  LoadedRun run;
  try {
    if (!options.report_dir.empty()) reports = ReportDirectory(options.report_dir);
    run = load_run(options);
  } catch (const ConfigError& e) {
    std::cerr << "socsim: error: " << e.what() << "\n";
    // A signal while loading (waiting for GDB): 128 + its number, as for a run it stops.
    return HostStop::signal() != 0 ? 128 + HostStop::signal() : kExitUsage;
  }

  const SimulationResult simulation =
      simulate(*run.soc, {!options.quiet, options.max_host_seconds});
  run.observers->end_of_run(run.soc->control());
  return report_run({options, record, *run.soc, *run.observers, simulation}, reports);
}

}  // namespace socsim
