// `socsim run`: load a SoC description and firmware, simulate to the end, report.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "models/common/hex.h"
#include "models/cpu/lockstep.h"
#include "models/cpu/rtl/rtl_core.h"
#include "models/ddr/ddr.h"
#include "models/peripherals/exit_device.h"
#include "platform/boot_info.h"
#include "platform/commands.h"
#include "platform/firmware_image.h"
#include "platform/npu_report.h"
#include "platform/probes.h"
#include "platform/soc.h"

namespace po = boost::program_options;

namespace socsim {

namespace {

constexpr const char* kRunUsage = R"(Usage: socsim run --firmware FILE [options] [-- firmware arguments]

Simulates FILE (an RV32 ELF, or a Verilog hex image as made by `objcopy -O verilog`) on the
SoC described by --config, until the firmware exits, faults, or the cycle limit is reached.

Exit status: the firmware's exit code; 2 for a usage, configuration or input error; 3 for a
simulation fault (unmapped access, lock-up), reported with address, PC and cycle; 124 when
--max-cycles is reached.
)";

std::string default_config_path() { return std::string(SOCSIM_SOURCE_DIR) + "/configs/soc/default.yaml"; }

std::vector<uint8_t> read_file(const std::string& path, const char* what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open " + what);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Progress on stderr, at most a few times a second, only when stderr is a terminal.
class Progress {
 public:
  explicit Progress(double mhz) : mhz_(mhz), start_(std::chrono::steady_clock::now()) {}
  void update(uint64_t cycle) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(500)) return;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    std::fprintf(stderr, "\r[socsim] cycle %llu (%.3f ms simulated), %.2f M cycles/s   ",
                 static_cast<unsigned long long>(cycle), cycle / (mhz_ * 1e3),
                 secs > 0 ? cycle / secs / 1e6 : 0.0);
    shown_ = true;
  }
  void clear() {
    if (shown_) std::fprintf(stderr, "\r%80s\r", "");
  }

 private:
  double mhz_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
  bool shown_ = false;
};

// Places a data file at the top of a region, aligned down to 64 bytes, below `limit`.
uint32_t place_at_top(const RegionConfig& region, uint64_t limit, uint64_t size,
                      const std::string& what) {
  const uint64_t top = std::min<uint64_t>(limit, region.base + region.size);
  if (size > top - region.base) {
    throw ConfigError(what + " (" + std::to_string(size) + " bytes) does not fit in region '" +
                      region.name + "'");
  }
  return static_cast<uint32_t>((top - size) & ~uint64_t(63));
}

}  // namespace

int cmd_run(const std::vector<std::string>& all_args) {
  // Everything after "--" goes to the firmware.
  std::vector<std::string> args, firmware_args;
  bool after = false;
  for (size_t i = 1; i < all_args.size(); ++i) {
    if (!after && all_args[i] == "--") {
      after = true;
      continue;
    }
    (after ? firmware_args : args).push_back(all_args[i]);
  }

  std::string config_path, firmware_path, cpu, report_dir, model_path, input_path, signature;
  std::vector<std::string> sets;
  uint64_t max_cycles = 0;
  po::options_description opts("Options");
  opts.add_options()
      ("help,h", "show this help")
      ("config,c", po::value(&config_path)->default_value(default_config_path()),
       "SoC description (YAML)")
      ("firmware,f", po::value(&firmware_path), "firmware to run: ELF or Verilog hex (required)")
      ("cpu", po::value(&cpu),
       (std::string("CPU model: iss (fast; the cycles of socsim's rv_core) or rtl (the "
                    "Verilated core; in this build: ") +
        RtlCore::description() + "); default: cpu.model of the config")
           .c_str())
      ("max-cycles", po::value(&max_cycles), "stop with status 124 after N core cycles")
      ("set", po::value(&sets)->composing(), "override a config value: key.path=value "
       "(repeatable), e.g. --set cpu.clock_mhz=200")
      ("model", po::value(&model_path), "model file to place in memory (announced in the "
       "boot-info block)")
      ("input", po::value(&input_path), "input data file to place in memory")
      ("report", po::value(&report_dir), "write summary.json (and other reports) into DIR")
      ("signature", po::value(&signature), "also write a dumped signature area to this file")
      ("corev-end-line", "also print the core-v-verif testbench's end-of-run line")
      ("lockstep", "with --cpu rtl: check every retired instruction against the ISS; the first "
       "divergence stops the run (status 3) showing both")
      ("ddr-banks", "also print the DDR statistics per bank (always in ddr.json)")
      ("quiet,q", "print only the firmware's output and the summary line");
  ProbeOptions probe_options;
  add_probe_options(opts, probe_options);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(opts).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "socsim run: " << e.what() << "\n\n" << kRunUsage << "\n" << opts;
    return kExitUsage;
  }
  if (vm.count("help")) {
    std::cout << kRunUsage << "\n" << opts;
    return 0;
  }
  if (firmware_path.empty()) {
    std::cerr << "socsim run: --firmware is required\n\n" << kRunUsage << "\n" << opts;
    return kExitUsage;
  }
  if (!cpu.empty() && cpu != "iss" && cpu != "rtl") {
    std::cerr << "socsim run: --cpu must be 'iss' or 'rtl', not '" << cpu << "'\n";
    return kExitUsage;
  }

  std::unique_ptr<Soc> soc;
  std::unique_ptr<LockstepChecker> lockstep;
  std::unique_ptr<ProbeSession> probes;
  try {
    SocConfig config = load_soc_config(config_path, sets);
    FirmwareImage image = load_firmware_image(firmware_path);
    soc = std::make_unique<Soc>(config, cpu, std::cout);

    for (const FirmwareSegment& seg : image.segments) {
      const RegionConfig* r = config.region_at(seg.addr);
      const uint64_t end = uint64_t(seg.addr) + seg.bytes.size();
      if (r == nullptr || !is_memory_type(r->type) || end > r->base + r->size) {
        throw ConfigError(firmware_path + ": segment [" + hex(seg.addr) + ", " + hex(end) +
                          ") is not inside a memory region of " + config.file);
      }
      if (!soc->write_memory(seg.addr, seg.bytes.data(), seg.bytes.size())) {
        throw ConfigError(firmware_path + ": cannot load segment at " + hex(seg.addr));
      }
    }
    if (image.is_elf && image.entry != config.cpu.boot_addr) {
      std::cerr << "socsim: warning: " << firmware_path << ": entry point " << hex(image.entry)
                << " differs from the boot address " << hex(config.cpu.boot_addr)
                << "; the core starts at the boot address\n";
    }

    BootInfo info;
    info.argv.push_back(std::filesystem::path(firmware_path).filename().string());
    for (const std::string& a : firmware_args) info.argv.push_back(a);
    info.cpu_clock_hz = static_cast<uint32_t>(config.cpu.clock_mhz * 1e6 + 0.5);
    info.cycle_exact = soc->cpu().cycle_exact();
    const RegionConfig* data_region = config.find_region(config.loader.model_region);
    uint64_t limit = data_region->base + data_region->size;
    auto check_free = [&](uint32_t addr, uint64_t size, const std::string& what) {
      for (const FirmwareSegment& seg : image.segments) {
        if (addr < seg.addr + seg.bytes.size() && seg.addr < addr + size) {
          throw ConfigError(what + " placed at " + hex(addr) + " would overlap the firmware "
                            "segment at " + hex(seg.addr) + "; choose another loader.model_region");
        }
      }
    };
    if (!model_path.empty()) {
      std::vector<uint8_t> model = read_file(model_path, "model file");
      info.model_size = static_cast<uint32_t>(model.size());
      info.model_addr = place_at_top(*data_region, limit, model.size(), model_path);
      check_free(info.model_addr, model.size(), model_path);
      soc->write_memory(info.model_addr, model.data(), model.size());
      limit = info.model_addr;
    }
    if (!input_path.empty()) {
      std::vector<uint8_t> input = read_file(input_path, "input file");
      info.input_size = static_cast<uint32_t>(input.size());
      info.input_addr = place_at_top(*data_region, limit, input.size(), input_path);
      check_free(info.input_addr, input.size(), input_path);
      soc->write_memory(info.input_addr, input.data(), input.size());
    }
    if (!config.loader.bootinfo_region.empty()) {
      const RegionConfig* bi = config.find_region(config.loader.bootinfo_region);
      std::vector<uint8_t> block =
          encode_boot_info(info, static_cast<uint32_t>(bi->base), static_cast<uint32_t>(bi->size));
      if (block.empty()) throw ConfigError("firmware arguments do not fit in the boot-info block");
      soc->write_memory(bi->base, block.data(), block.size());
    } else if (!firmware_args.empty() || !model_path.empty()) {
      throw ConfigError(config.file + ": this SoC has no boot-info block, so firmware arguments "
                        "and --model cannot be passed");
    }
    if (!signature.empty() && soc->exit_device()) soc->exit_device()->set_signature_file(signature);
    soc->cpu().set_max_cycles(max_cycles);
    if (!soc->cpu().has_retire_trace() && vm.count("lockstep")) {
      // The genuine CV32E40P has no retire-trace port: cycles are exact, nothing per instruction.
      throw ConfigError(std::string("--lockstep needs a retire trace: the rtl CPU model of this "
                                    "build is the ") +
                        soc->cpu().description() + ", which reports no retired instructions");
    }
    if (vm.count("lockstep")) {
      if (std::string(soc->cpu().kind()) != "rtl") {
        throw ConfigError("--lockstep checks the RTL core against the ISS: use it with --cpu rtl");
      }
      IssConfig iss;
      iss.boot_addr = config.cpu.boot_addr;
      iss.mtvec_addr = config.cpu.mtvec_addr;
      iss.hart_id = config.cpu.hart_id;
      iss.num_mhpmcounters = config.cpu.num_mhpmcounters;
      lockstep = std::make_unique<LockstepChecker>(iss, soc->control());
      soc->cpu().set_bus_observer(lockstep.get());
      soc->cpu().set_retire_observer(lockstep.get());
    }
    probes = std::make_unique<ProbeSession>(probe_options, image, *soc, lockstep.get());
  } catch (const ConfigError& e) {
    std::cerr << "socsim: error: " << e.what() << "\n";
    return kExitUsage;
  }

  const bool quiet = vm.count("quiet") > 0;
  Progress progress(soc->cpu_clock().mhz());
  if (isatty(STDERR_FILENO) && !quiet) {
    soc->cpu().set_progress([&progress](uint64_t cycle) { progress.update(cycle); });
  }

  const auto host_start = std::chrono::steady_clock::now();
  try {
    sc_core::sc_start();
  } catch (const std::exception& e) {
    progress.clear();
    std::cerr << "socsim: internal simulation error: " << e.what() << "\n";
    return kExitSimFault;
  }
  const double host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
  progress.clear();
  if (soc->console()) {
    soc->console()->flush();
    if (!soc->console()->at_line_start()) std::cout << "\n";
  }
  std::cout.flush();

  SimControl& control = soc->control();
  CpuModel& cpu_model = soc->cpu();
  if (!control.stopped()) {
    control.report_fault(cpu_model.cycles(),
                         "lock-up: the core sleeps in WFI and nothing in the SoC can wake it "
                         "(the instruction retired before it is at pc " + hex(cpu_model.pc()) + ")");
  }
  // An exit is reported with the cycles up to and including the exit store.
  const uint64_t cycles =
      control.reason() == StopReason::kExit ? control.stop_cycle() + 1 : control.stop_cycle();
  const double mhz = soc->cpu_clock().mhz();
  const double ms = cycles / (mhz * 1e3);
  const std::string estimate =
      cpu_model.cycle_exact() ? "" : " [iss: estimated cycles: " + cpu_model.estimate_reason() + "]";
  char timing[96];
  if (ms >= 1.0) {
    std::snprintf(timing, sizeof timing, "(%.3f ms @ %g MHz)", ms, mhz);
  } else {
    std::snprintf(timing, sizeof timing, "(%.3f us @ %g MHz)", ms * 1e3, mhz);
  }

  if (soc->config().corev_end_line || vm.count("corev-end-line")) {
    // The core-v-verif testbench's line: 10 time units per cycle, first edge at 50.
    const uint64_t tb_time = 40 + 10 * cycles;
    if (control.reason() == StopReason::kExit && control.exit_code() == 0) {
      std::cout << "TOP.tb_top_verilator @ " << tb_time << ": EXIT SUCCESS\n";
    } else {
      char line[128];
      std::snprintf(line, sizeof line, "TOP.tb_top_verilator @ %d: EXIT FAILURE: %20llu\n",
                    control.exit_code(), static_cast<unsigned long long>(tb_time));
      std::cout << line;
    }
  }
  if (lockstep && !lockstep->diverged()) {
    std::cout << "lockstep: " << lockstep->checked()
              << " instructions checked against the ISS, no divergence\n";
  }
  std::string status;
  switch (control.reason()) {
    case StopReason::kExit:
      status = control.exit_code() == 0 ? "success" : "failure";
      if (control.exit_code() == 0) {
        std::cout << "EXIT SUCCESS @ cycle " << cycles << " " << timing << estimate << "\n";
      } else {
        std::cout << "EXIT FAILURE (exit code " << control.exit_code() << ") @ cycle " << cycles
                  << " " << timing << estimate << "\n";
      }
      break;
    case StopReason::kMaxCycles:
      status = "max_cycles";
      std::cout << "CYCLE LIMIT reached @ cycle " << cycles << " " << timing << ", pc "
                << hex(cpu_model.pc()) << estimate << "\n";
      break;
    default:
      status = "fault";
      std::cout << "SIMULATION FAULT @ cycle " << cycles << " " << timing << ": "
                << control.message() << estimate << "\n";
      std::cerr << "socsim: simulation fault at cycle " << cycles << ": " << control.message()
                << "\n";
      break;
  }
  std::cout.flush();

  if (!probes->report(std::cout, !quiet, report_dir, cycles)) return kExitUsage;

  // DDR statistics, for the regions that saw traffic.
  nlohmann::json ddr_json = nlohmann::json::object();
  for (Ddr* ddr : soc->ddrs()) {
    ddr_json[ddr->name()] = ddr->stats().to_json();
    if (ddr->stats().total().requests() == 0 || quiet) continue;
    std::cout << "\nDDR '" << ddr->basename() << "' statistics:\n";
    ddr->stats().print(std::cout, vm.count("ddr-banks") > 0);
  }

  // NPU per-layer reports, with the CPU's operators of the same execution from the probes.
  std::vector<NpuReportInput> npu_reports;
  for (const Npu* npu : soc->npus()) {
    if (npu->layers().empty()) continue;
    npu_reports.push_back({npu, probes ? probes->last_execution_cpu_operators()
                                       : std::vector<CpuOperatorRecord>{}, mhz});
    if (!quiet) print_npu_report(std::cout, npu_reports.back());
  }

  if (!report_dir.empty()) {
    nlohmann::json summary = {
        {"status", status},
        {"exit_code", control.exit_code()},
        {"message", control.message()},
        {"cycles", cycles},
        {"cycles_exact", cpu_model.cycle_exact()},
        {"instructions", cpu_model.has_retire_trace() ? nlohmann::json(cpu_model.instructions())
                                                      : nlohmann::json()},
        {"time_ms", ms},
        {"clocks", {{"cpu_mhz", mhz}}},
        {"cpu_model", cpu_model.kind()},
        {"cpu_description", cpu_model.description()},
        {"firmware", firmware_path},
        {"config", {{"file", config_path}, {"overrides", sets}, {"yaml", soc->config().yaml_text}}},
        {"host_seconds", host_seconds},
        {"lockstep_checked", lockstep ? lockstep->checked() : 0},
        {"simulated_cycles_per_second", host_seconds > 0 ? cpu_model.cycles() / host_seconds : 0},
    };
    std::error_code ec;
    std::filesystem::create_directories(report_dir, ec);
    std::ofstream out(report_dir + "/summary.json");
    if (!out) {
      std::cerr << "socsim: error: cannot write " << report_dir << "/summary.json\n";
      return kExitUsage;
    }
    out << summary.dump(2) << "\n";
    if (!soc->ddrs().empty()) std::ofstream(report_dir + "/ddr.json") << ddr_json.dump(2) << "\n";
    for (const NpuReportInput& r : npu_reports) {
      const std::string base = report_dir + "/" + r.npu->basename() + "_layers";
      std::ofstream(base + ".json") << npu_report_json(r).dump(2) << "\n";
      std::ofstream csv(base + ".csv");
      write_npu_report_csv(csv, r);
    }
  }
  return control.exit_code();
}

}  // namespace socsim
