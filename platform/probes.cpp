#include "platform/probes.h"

#include "models/probe/probe_device.h"
#include "platform/run_options.h"
#include "platform/soc.h"

namespace po = boost::program_options;

namespace socsim {

void add_probe_options(po::options_description& opts, ProbeOptions& options) {
  opts.add_options()(
      "probe", po::value(&options.specs)->composing(),
      "measure a region (repeatable): "
      "name=start..end (symbols or hex addresses) or name=function (entry to return)")(
      "probes", po::value(&options.files)->composing(),
      "read probe regions and mark names "
      "from a YAML file (docs/probes.md)")(
      "profile", po::bool_switch(&options.profile),
      "function profile from the retire trace: "
      "top-N table; with --report, callgrind.out.socsim and profile.folded")(
      "profile-top", po::value<std::string>(),
      "functions in the profile table (default 25)")("no-probes", po::bool_switch(&options.disabled),
                                        "do not watch the retire trace (no "
                                        "region table; --probe and --profile are then errors)")(
      "symbols", po::value(&options.symbols_elf),
      "take the function symbols and source lines of probes and profiles from ELF (for a "
      "hex image built from it)");
}

void parse_probe_options(const po::variables_map& vm, ProbeOptions& options) {
  if (vm.count("profile-top")) {
    options.profile_top = parse_count("--profile-top", vm["profile-top"].as<std::string>());
  }
}

ProbeSession::ProbeSession(const ProbeOptions& options, const FirmwareImage& image, Soc& soc)
    : options_(options) {
  if (options.disabled) {
    if (!options.specs.empty() || !options.files.empty() || options.profile) {
      throw ConfigError("--no-probes cannot be combined with --probe, --probes or --profile");
    }
    return;
  }
  if (!soc.cpu_type().capabilities.retire_trace) {
    // Only the firmware's marks can be measured, from the probe register's own stores.
    const std::string why = "the " + soc.cpu_type().name + " CPU model of this build is the " +
                            soc.cpu().description() + ", which reports no retired instructions";
    if (!options.specs.empty() || !options.files.empty() || options.profile) {
      throw ConfigError("--probe, --probes and --profile need a retire trace: " + why +
                        " (mark probes, stores to the probe register, still work)");
    }
    info_.clock_mhz = soc.cpu_clock().mhz();
    cpu_description_ = soc.cpu().description();
    store_marks_ = std::make_unique<StoreMarks>();
    for (const auto& [id, name] : soc.config().probes.marks) store_marks_->name_mark(id, name);
    if (ProbeDevice* device = soc.probe_device()) {
      StoreMarks* marks = store_marks_.get();
      device->set_store_hook([marks](uint32_t offset, uint32_t value, uint64_t cycle) {
        marks->on_store(offset, value, cycle);
      });
    }
    return;
  }
  FirmwareImage symbol_image;
  if (!options.symbols_elf.empty()) {
    symbol_image = load_firmware_image(options.symbols_elf);
    if (!symbol_image.is_elf) {
      throw ConfigError("--symbols " + options.symbols_elf + ": not an ELF file");
    }
    info_.symbols_elf = options.symbols_elf;
  } else if (image.is_elf) {
    info_.symbols_elf = image.path;
  }
  const std::vector<FirmwareSymbol>& firmware_symbols =
      options.symbols_elf.empty() ? image.symbols : symbol_image.symbols;
  std::vector<ProbeSymbol> symbols;
  symbols.reserve(firmware_symbols.size());
  for (const FirmwareSymbol& s : firmware_symbols) {
    symbols.push_back({s.name, s.addr, s.size, s.is_function});
  }
  engine_ = std::make_unique<ProbeEngine>(
      std::move(symbols),
      [&soc](uint32_t addr, uint32_t* value) {
        return soc.read_memory(addr, reinterpret_cast<uint8_t*>(value), 4);
      },
      options.profile);
  engine_->add_builtin_regions();

  RegionProbes& regions = engine_->regions();
  if (const RegionConfig* probe = soc.config().first_of_type("probe")) {
    regions.set_mark_window(static_cast<uint32_t>(probe->base), static_cast<uint32_t>(probe->size));
  }
  auto add_config = [&](const ProbesConfig& config) {
    for (const ProbesConfig::Region& r : config.regions) {
      regions.add(parse_region_spec(r.name, r.spec, engine_->symbols(), r.where));
    }
    for (const auto& [id, name] : config.marks) regions.name_mark(id, name);
  };
  add_config(soc.config().probes);
  for (const std::string& file : options.files) {
    add_config(read_probes_config(ConfigNode::load_file(file)));
  }
  for (const std::string& spec : options.specs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      throw ConfigError("--probe " + spec + ": expected name=spec");
    }
    regions.add(parse_region_spec(spec.substr(0, eq), spec.substr(eq + 1), engine_->symbols(),
                                  "--probe " + spec));
  }

  info_.cpu_model = soc.cpu().kind();
  info_.cycles_exact = soc.cpu().cycle_exact();
  info_.clock_mhz = soc.cpu_clock().mhz();
  info_.firmware = image.path;
  soc.cpu().add_retire_observer(engine_.get());
}

}  // namespace socsim
