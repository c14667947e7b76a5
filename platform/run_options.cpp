#include "platform/run_options.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "models/common/config.h"
#include "models/cpu/cpu_registry.h"
#include "platform/commands.h"
#include "platform/usage_error.h"

namespace po = boost::program_options;

namespace socsim {

namespace {

constexpr const char* kRunUsage = R"(Usage: socsim run --firmware FILE [options] [-- firmware arguments]

Simulates FILE (an RV32 ELF, or a Verilog hex image as made by `objcopy -O verilog`) on the
SoC described by --config, until the firmware exits, faults, or the cycle limit is reached.

Exit status: the firmware's exit value when it is 0..255, 1 for any other value; 2 for a
usage, configuration or input error; 3 for a simulation fault (unmapped access, lock-up),
reported with address, PC and cycle, or an internal error; 124 when --max-cycles or
--max-host-seconds is reached; 130 / 143 when stopped by SIGINT / SIGTERM (the reports are
written, marked "interrupted"; a second signal ends socsim at once); 74 when the run ended
with 0 but an output file (--signature, --trace-instr, a report file) could not be written
whole.
)";

std::string default_config_path() {
  return std::string(SOCSIM_SOURCE_DIR) + "/configs/soc/default.yaml";
}

// `--cpu`: the registered CPU models, each with what it is in this build.
std::string cpu_option_help() {
  std::string models;
  const std::vector<const CpuModelType*> types = cpu_models();
  for (size_t i = 0; i < types.size(); ++i) {
    if (i > 0) models += i + 1 == types.size() ? " or " : ", ";
    models += types[i]->name + " (" + types[i]->help + ")";
  }
  return "CPU model: " + models + "; default: cpu.model of the config";
}

po::options_description describe_options(RunOptions& o) {
  po::options_description opts("Options");
  opts.add_options()
      ("help,h", "show this help")
      ("config,c", po::value(&o.config_path)->default_value(default_config_path()),
       "SoC description (YAML)")
      ("firmware,f", po::value(&o.firmware_path), "firmware to run: ELF or Verilog hex (required)")
      ("cpu", po::value(&o.cpu), cpu_option_help().c_str())
      ("max-cycles", po::value<std::string>(),
       "stop with status 124 after N core cycles (0: no limit, the default)")
      ("max-host-seconds", po::value<std::string>(),
       "stop with status 124 after S seconds of host (wall-clock) time")
      ("set", po::value(&o.sets)->composing(), "override a config value: key.path=value "
       "(repeatable), e.g. --set cpu.clock_mhz=200")
      ("model", po::value(&o.model_path), "model file to place in memory (announced in the "
       "boot-info block)")
      ("input", po::value(&o.input_path), "input data file to place in memory")
      ("report", po::value(&o.report_dir), "write summary.json (and other reports) into DIR")
      ("signature", po::value(&o.signature_path),
       "also write a dumped signature area to this file")
      ("corev-end-line", po::bool_switch(&o.corev_end_line),
       "also print the core-v-verif testbench's end-of-run line")
      ("lockstep", po::bool_switch(&o.lockstep),
       "with --cpu rtl: check every retired instruction against the ISS; the first "
       "divergence stops the run (status 3) showing both")
      ("ddr-banks", po::bool_switch(&o.ddr_banks),
       "also print the DDR statistics per bank (always in ddr.json)")
      ("quiet,q", po::bool_switch(&o.quiet),
       "print only the firmware's output and the summary line");
  add_probe_options(opts, o.probes);
  add_debug_options(opts, o.debug);
  return opts;
}

double parse_seconds(const std::string& option, const std::string& text) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0) {
    throw ConfigError(option + ": expected a positive number of seconds, got '" + text + "'");
  }
  return value;
}

}  // namespace

uint64_t parse_count(const std::string& option, const std::string& text) {
  const std::optional<uint64_t> value = parse_u64(text);
  if (!value) throw ConfigError(option + ": expected a non-negative integer, got '" + text + "'");
  return *value;
}

std::optional<int> parse_run_options(const std::vector<std::string>& args, RunOptions& options) {
  options.command_line = {"socsim"};
  options.command_line.insert(options.command_line.end(), args.begin(), args.end());
  // Everything after "--" goes to the firmware.
  std::vector<std::string> own;
  bool after = false;
  for (size_t i = 1; i < args.size(); ++i) {
    if (!after && args[i] == "--") {
      after = true;
      continue;
    }
    (after ? options.firmware_args : own).push_back(args[i]);
  }

  const po::options_description opts = describe_options(options);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(own).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << usage_error("run", e, opts);
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << kRunUsage << "\n" << opts;
    return 0;
  }
  if (options.firmware_path.empty()) {
    std::cerr << "socsim run: --firmware is required\n\n" << kRunUsage << "\n" << opts;
    return kExitUsage;
  }
  if (!options.cpu.empty() && find_cpu_model(options.cpu) == nullptr) {
    std::cerr << "socsim run: --cpu must be " << cpu_model_list(true) << ", not '" << options.cpu
              << "'\n";
    return kExitUsage;
  }
  if (vm.count("report") && options.report_dir.empty()) {
    std::cerr << "socsim run: --report: expected a folder, got an empty path\n";
    return kExitUsage;
  }
  try {
    if (vm.count("max-cycles")) {
      options.max_cycles = parse_count("--max-cycles", vm["max-cycles"].as<std::string>());
    }
    if (vm.count("max-host-seconds")) {
      options.max_host_seconds =
          parse_seconds("--max-host-seconds", vm["max-host-seconds"].as<std::string>());
    }
    parse_probe_options(vm, options.probes);
  } catch (const ConfigError& e) {
    std::cerr << "socsim run: " << e.what() << "\n";
    return kExitUsage;
  }
  return std::nullopt;
}

}  // namespace socsim
