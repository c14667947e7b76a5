// `socsim config`: the effective configuration of a SoC description (presets merged, `--set`
// applied, defaults filled in) as YAML, each value with a comment saying where it came
// from; or the generated key and device documentation.
#include <boost/program_options.hpp>
#include <iostream>

#include "models/cpu/cpu_registry.h"
#include "platform/commands.h"
#include "platform/soc_config.h"
#include "platform/usage_error.h"

namespace po = boost::program_options;

namespace socsim {

namespace {

constexpr const char* kConfigUsage =
    R"(Usage: socsim config [--config FILE] [--set key.path=value ...] [--plain]
       socsim config --keys [soc|npu|ddr]
       socsim config --cpu-models

Prints the effective configuration of a SoC description as YAML: its presets merged in,
the --set overrides applied and every default filled in, each value followed by a comment
saying where it came from (file:line, preset file:line, --set, default). The output is a
valid SoC description itself. --keys prints the generated key tables of a kind of file:
soc (default): the cpu and loader keys and the region types with their keys (from the
device registry; docs/platform.md); npu: the NPU preset keys (docs/npu.md); ddr: the DDR
preset keys, its controller's and its energy section's (docs/ddr.md). --cpu-models prints
the CPU models of this build (`cpu.model`, `--cpu`), one a line: its name, a tab, what it is.

Exit status: 0, or 2 for a configuration error (named with file, line and key).
)";

}  // namespace

int cmd_config(const std::vector<std::string>& all_args) {
  std::vector<std::string> args(all_args.begin() + 1, all_args.end());
  std::string config_path;
  std::vector<std::string> sets;
  po::options_description opts("Options");
  // clang-format off
  opts.add_options()
      ("help,h", "show this help")
      ("config,c", po::value(&config_path)->default_value(default_soc_config()),
       "SoC description (YAML)")
      ("set", po::value(&sets)->composing(), "override a config value: key.path=value "
       "(repeatable)")
      ("plain", "print the YAML without the origin comments")
      ("keys", po::value<std::string>()->implicit_value("soc"),
       "print the generated key tables of soc (docs/platform.md), npu (docs/npu.md) or ddr "
       "(docs/ddr.md) files")
      ("cpu-models", "print the CPU models of this build: name, tab, what it is");
  // clang-format on
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << usage_error("config", e, opts);
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << kConfigUsage << "\n" << opts;
    return 0;
  }
  if (vm.count("cpu-models")) {
    for (const CpuModelType* type : cpu_models()) {
      std::cout << type->name << "\t" << type->help << "\n";
    }
    return 0;
  }
  if (vm.count("keys")) {
    const std::string kind = vm["keys"].as<std::string>();
    if (!write_key_docs(kind, std::cout)) {
      std::cerr << "socsim config: --keys takes soc, npu or ddr, not '" << kind << "'\n";
      return kExitUsage;
    }
    return 0;
  }
  try {
    const SocConfig soc = load_soc_config(config_path, sets);
    if (vm.count("plain")) {
      std::cout << soc.yaml_text;
    } else {
      std::cout << "# Effective configuration of " << soc.file;
      for (const std::string& s : sets) std::cout << " --set " << s;
      std::cout << "\n" << soc.annotated_yaml;
    }
  } catch (const ConfigError& e) {
    std::cerr << "socsim: error: " << e.what() << "\n";
    return kExitUsage;
  }
  return 0;
}

}  // namespace socsim
