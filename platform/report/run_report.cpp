#include "platform/report/run_report.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "models/common/hex.h"
#include "models/ddr/ddr.h"
#include "models/npu/npu.h"
#include "platform/commands.h"
#include "platform/report/ddr_report.h"
#include "platform/report/npu_report.h"
#include "platform/report/npu_report_markdown.h"
#include "platform/report/probe_report.h"
#include "platform/report/timeline_report.h"
#include "platform/run_observers.h"
#include "platform/run_options.h"
#include "platform/soc.h"

namespace socsim {

namespace {

// Every output file not written whole so far: the run's (signature, trace), the report's.
std::vector<std::string> output_errors(const SimControl& control, const ReportDirectory& dir) {
  std::vector<std::string> all = control.output_errors();
  all.insert(all.end(), dir.errors().begin(), dir.errors().end());
  return all;
}

// The run's end in numbers shared by the console and summary.json.
struct RunEnd {
  uint64_t cycles = 0;  ///< an exit counts up to and including the exit store's cycle
  double mhz = 0;
  double ms = 0;
  std::string status;  ///< summary.json's `status`
};

const char* status_name(const SimControl& control) {
  switch (control.reason()) {
    case StopReason::kExit:
      return control.exit_code() == 0 ? "success" : "failure";
    case StopReason::kMaxCycles:
      return "max_cycles";
    case StopReason::kHostTimeLimit:
      return "host_time_limit";
    case StopReason::kInterrupted:
      return "interrupted";
    case StopReason::kHostError:
      return "internal_error";
    default:
      return "fault";
  }
}

RunEnd run_end(Soc& soc) {
  const SimControl& control = soc.control();
  RunEnd end;
  end.cycles =
      control.reason() == StopReason::kExit ? control.stop_cycle() + 1 : control.stop_cycle();
  end.mhz = soc.cpu_clock().mhz();
  end.ms = end.cycles / (end.mhz * 1e3);
  end.status = status_name(control);
  return end;
}

// The core-v-verif testbench's line: 10 time units per cycle, first edge at 50.
void print_corev_end_line(std::ostream& out, const SimControl& control, const RunEnd& end) {
  const uint64_t tb_time = 40 + 10 * end.cycles;
  if (control.reason() == StopReason::kExit && control.exit_code() == 0) {
    out << "TOP.tb_top_verilator @ " << tb_time << ": EXIT SUCCESS\n";
  } else {
    char line[128];
    std::snprintf(line, sizeof line, "TOP.tb_top_verilator @ %d: EXIT FAILURE: %20llu\n",
                  control.exit_code(), static_cast<unsigned long long>(tb_time));
    out << line;
  }
}

// "EXIT SUCCESS @ cycle N (t @ f MHz)" and its siblings.
void print_end_line(std::ostream& out, Soc& soc, const RunEnd& end) {
  const SimControl& control = soc.control();
  CpuModel& cpu = soc.cpu();
  const std::string estimate =
      cpu.cycle_exact() ? "" : " [" + std::string(cpu.kind()) + ": estimated cycles: " + cpu.estimate_reason() + "]";
  char timing[96];
  if (end.ms >= 1.0) {
    std::snprintf(timing, sizeof timing, "(%.3f ms @ %g MHz)", end.ms, end.mhz);
  } else {
    std::snprintf(timing, sizeof timing, "(%.3f us @ %g MHz)", end.ms * 1e3, end.mhz);
  }
  switch (control.reason()) {
    case StopReason::kExit:
      if (control.exit_code() == 0) {
        out << "EXIT SUCCESS @ cycle " << end.cycles << " " << timing << estimate << "\n";
      } else {
        out << "EXIT FAILURE (exit code " << control.exit_code() << ") @ cycle " << end.cycles
            << " " << timing << estimate << "\n";
      }
      break;
    case StopReason::kMaxCycles:
      out << "CYCLE LIMIT reached @ cycle " << end.cycles << " " << timing << ", pc "
          << hex(cpu.pc()) << estimate << "\n";
      break;
    case StopReason::kHostTimeLimit:
    case StopReason::kInterrupted:
      out << (control.reason() == StopReason::kInterrupted ? "INTERRUPTED" : "HOST TIME LIMIT")
          << " @ cycle " << end.cycles << " " << timing << ", pc " << hex(cpu.pc()) << estimate
          << "\n";
      std::cerr << "socsim: " << control.message() << "\n";
      break;
    default: {
      const bool internal = control.reason() == StopReason::kHostError;
      out << (internal ? "SIMULATOR ERROR @ cycle " : "SIMULATION FAULT @ cycle ") << end.cycles
          << " " << timing << ": " << control.message() << estimate << "\n";
      std::cerr << "socsim: " << (internal ? "error" : "simulation fault") << " at cycle "
                << end.cycles << ": " << control.message() << "\n";
      break;
    }
  }
}

// DDR statistics on the console (regions that saw traffic) and in ddr.json.
void report_ddr(Soc& soc, bool print, bool banks, ReportDirectory& dir) {
  if (soc.ddrs().empty()) return;
  nlohmann::json json = nlohmann::json::object();
  for (Ddr* ddr : soc.ddrs()) {
    json[ddr->name()] = ddr_stats_json(ddr->stats());
    if (ddr->stats().total().requests() == 0 || !print) continue;
    std::cout << "\nDDR '" << ddr->basename() << "' statistics:\n";
    print_ddr_stats(std::cout, ddr->stats(), banks);
  }
  dir.write_json("ddr.json", json);
}

// NPU per-layer reports, with the CPU's operators of the same execution from the probes
// and the NPU's share of the DDR energy.
void report_npus(Soc& soc, const ProbeSession& probes, bool print, ReportDirectory& dir) {
  const std::vector<NpuDdrRegion> npu_ddr = npu_ddr_regions(soc);
  for (const Npu* npu : soc.npus()) {
    if (npu->layers().empty()) continue;
    const NpuReportInput input{npu, last_execution_cpu_operators(probes), soc.cpu_clock().mhz(),
                               npu_ddr};
    if (print) print_npu_report(std::cout, input);
    const std::string base = npu->basename() + std::string("_layers");
    const nlohmann::json record = npu_report_json(input);
    dir.write_json(base + ".json", record);
    dir.write(base + ".csv", [&](std::ostream& out) { write_npu_report_csv(out, input); });
    dir.write(base + ".md", [&](std::ostream& out) { write_npu_report_markdown(out, record); });
  }
}

nlohmann::json summary_json(const RunReportInput& run, const RunEnd& end,
                            const ReportDirectory& dir) {
  const SimControl& control = run.soc.control();
  CpuModel& cpu = run.soc.cpu();
  const LockstepChecker* lockstep = run.observers.lockstep();
  const double host_seconds = run.simulation.host_seconds;
  nlohmann::json summary = {
      {"status", end.status},
      {"exit_code", exit_status(control, control.output_errors().empty() && dir.ok())},
      {"firmware_exit_code", control.reason() == StopReason::kExit
                                 ? nlohmann::json(control.exit_code())
                                 : nlohmann::json()},
      {"message", control.message()},
      {"cycles", end.cycles},
      {"cycles_exact", cpu.cycle_exact()},
      {"instructions", cpu.has_retire_trace() ? nlohmann::json(cpu.instructions())
                                              : nlohmann::json()},
      {"time_ms", end.ms},
      {"clocks", {{"cpu_mhz", end.mhz}}},
      {"cpu_model", cpu.kind()},
      {"cpu_description", cpu.description()},
      {"firmware", run.options.firmware_path},
      {"config",
       {{"file", run.options.config_path},
        {"overrides", run.options.sets},
        {"yaml", run.soc.config().yaml_text}}},
      {"host_seconds", host_seconds},
      {"lockstep_checked", lockstep ? lockstep->checked() : 0},
      {"output_errors", output_errors(control, dir)},
      {"simulated_cycles_per_second", host_seconds > 0 ? cpu.cycles() / host_seconds : 0},
  };
  summary.update(run.record.to_json());
  return summary;
}

}  // namespace

int report_run(const RunReportInput& run, ReportDirectory& dir) {
  const RunOptions& options = run.options;
  const SimControl& control = run.soc.control();
  const RunEnd end = run_end(run.soc);
  const bool print = !options.quiet;

  if (run.soc.config().corev_end_line || options.corev_end_line) {
    print_corev_end_line(std::cout, control, end);
  }
  const LockstepChecker* lockstep = run.observers.lockstep();
  if (lockstep && !lockstep->diverged()) {
    std::cout << "lockstep: " << lockstep->checked()
              << " instructions checked against the ISS, no divergence\n";
  }
  print_end_line(std::cout, run.soc, end);
  std::cout.flush();
  for (const std::string& error : control.output_errors()) {
    std::cerr << "socsim: error: " << error << "\n";
  }

  report_probes(run.observers.probes(), std::cout, print, dir, end.cycles);
  report_ddr(run.soc, print, options.ddr_banks, dir);
  report_npus(run.soc, run.observers.probes(), print, dir);
  dir.write("timeline.json", [&](std::ostream& out) {
    write_timeline(out, run.soc, run.observers.probes(), run.observers.debug().timeline(),
                   end.cycles);
  });
  dir.write_json("summary.json", summary_json(run, end, dir));
  const std::vector<std::string> errors = output_errors(control, dir);
  const int status = exit_status(control, errors.empty());
  if (!errors.empty()) {
    std::cerr << "socsim: error: " << errors.size() << " output file"
              << (errors.size() == 1 ? "" : "s") << " not written whole (exit status "
              << status << (status == kExitOutput ? "" : ", the run's") << ")\n";
  }
  return status;
}

int exit_status(const SimControl& control, bool outputs_ok) {
  const int status = exit_status(control);
  return status == 0 && !outputs_ok ? kExitOutput : status;
}

int exit_status(const SimControl& control) {
  if (control.reason() != StopReason::kExit) return control.exit_code();
  const int code = control.exit_code();
  // A status is 8 bits: 256 would read as success and 515 as a fault.
  return code >= 0 && code <= 255 ? code : kExitFirmwareOutOfRange;
}

std::vector<NpuDdrRegion> npu_ddr_regions(Soc& soc) {
  std::vector<NpuDdrRegion> regions;
  for (Ddr* ddr : soc.ddrs()) {
    const RegionConfig* region = soc.config().find_region(ddr->basename());
    if (region != nullptr) {
      regions.push_back({region->base, region->size, ddr->timing().energy_rates("npu")});
    }
  }
  return regions;
}

}  // namespace socsim
