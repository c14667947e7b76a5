#include "platform/debug_tools.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "models/common/host_stop.h"
#include "models/cpu/debug/commit_log.h"
#include "models/cpu/debug/gdb_session.h"
#include "models/cpu/debug/gdb_transport.h"
#include "models/cpu/cpu_registry.h"
#include "platform/probes.h"
#include "platform/soc.h"

namespace po = boost::program_options;

namespace socsim {

void add_debug_options(po::options_description& opts, DebugOptions& options) {
  opts.add_options()(
      "gdb", po::value(&options.gdb_port),
      "serve GDB's remote protocol on 127.0.0.1:PORT and wait for it before the first "
      "instruction (target remote :PORT; docs/debugging.md)")(
      "trace-instr", po::value(&options.trace_instr),
      "write every retired instruction to FILE in Spike's commit-log format, with its cycle")(
      "trace-fst", po::value(&options.trace_fst),
      "write the RTL core's signals to FILE (FST, for GTKWave); runs socsim-trace, the build "
      "with the traced core")(
      "trace-vcd", po::value(&options.trace_vcd),
      "the same as VCD (converted from FST with gtkwave's fst2vcd)")(
      "trace-window", po::value(&options.trace_window),
      "limit --trace-fst/--trace-vcd to the core cycles A..B (B excluded; A.. = to the end)")(
      "timeline", po::bool_switch(&options.timeline),
      "with --report: timeline.json also shows the NPU's DMA transfers, DDR bandwidth and "
      "queue depth, and trap and interrupt handlers")(
      "timeline-functions", po::bool_switch(&options.timeline_functions),
      "--timeline with every function call as well (large for long runs)");
}

namespace {

/// "A..B" or "A.." in cycles; false when malformed.
bool parse_window(const std::string& text, uint64_t* first, uint64_t* end) {
  *first = 0;
  *end = 0;
  if (text.empty()) return true;
  const size_t dots = text.find("..");
  if (dots == std::string::npos) return false;
  auto number = [](const std::string& s, uint64_t* v) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s.size() > 18) {
      return false;
    }
    *v = std::stoull(s);
    return true;
  };
  if (!number(text.substr(0, dots), first)) return false;
  const std::string tail = text.substr(dots + 2);
  if (!tail.empty() && (!number(tail, end) || *end <= *first)) return false;
  return true;
}

std::string own_directory() {
  char path[4096];
  const ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return ".";
  std::string exe(path, static_cast<size_t>(n));
  return exe.substr(0, exe.rfind('/'));
}

/// Runs `argv` and waits; its exit status, or -1 when it could not be started.
int run_program(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, args[0], nullptr, nullptr, args.data(), environ) != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::optional<int> run_traced_build_if_needed(const DebugOptions& options,
                                              const std::vector<std::string>& command_line,
                                              const std::string& cpu) {
  if (!options.waveforms()) {
    if (!options.trace_window.empty()) {
      std::cerr << "socsim run: --trace-window needs --trace-fst or --trace-vcd\n";
      return 2;
    }
    return std::nullopt;
  }
  uint64_t first, end;
  if (!parse_window(options.trace_window, &first, &end)) {
    std::cerr << "socsim run: --trace-window " << options.trace_window
              << ": expected A..B or A.. (core cycles, A < B)\n";
    return 2;
  }
  // `cpu` is "" for the config's model, known once the SoC is read; its FST hook then says
  // whether it has signals.
  const CpuModelType* type = find_cpu_model(cpu);
  if (type != nullptr && !type->capabilities.waveforms) {
    std::cerr << "socsim run: --trace-fst and --trace-vcd write the RTL core's signals: use "
                 "--cpu "
              << cpu_model_list(false, [](const CpuModelType& t) {
                   return t.capabilities.waveforms;
                 }) << "\n";
    return 2;
  }
  const bool traced_build =
      type != nullptr ? type->capabilities.waveforms_need_traced_build
                      : !cpu_model_list(false, [](const CpuModelType& t) {
                           return t.capabilities.waveforms_need_traced_build;
                         }).empty();
  if (!traced_build) return std::nullopt;
  const std::string traced = own_directory() + "/socsim-trace";
  if (::access(traced.c_str(), X_OK) != 0) {
    std::cerr << "socsim run: --trace-fst/--trace-vcd need socsim-trace, the build with the "
                 "traced RTL core, next to socsim (" << traced << "): make it with "
                 "`cmake --build build --target socsim-trace`\n";
    return 2;
  }
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(traced.c_str()));
  for (size_t i = 1; i < command_line.size(); ++i) {
    argv.push_back(const_cast<char*>(command_line[i].c_str()));
  }
  argv.push_back(nullptr);
  ::execv(traced.c_str(), argv.data());
  std::cerr << "socsim run: cannot run " << traced << ": " << std::strerror(errno) << "\n";
  return 2;
}

DebugTools::DebugTools(const DebugOptions& options, Soc& soc, ProbeSession& probes)
    : cpu_(soc.cpu()) {
  CpuModel& cpu = soc.cpu();
  if (options.timeline || options.timeline_functions) {
    // Function calls are a span each: a bound keeps a long run's file loadable.
    constexpr size_t kMaxCallSpans = 2'000'000;
    timeline_ = std::make_unique<TimelineRecording>();
    timeline_->ddr.resize(soc.ddrs().size());
    for (size_t i = 0; i < soc.ddrs().size(); ++i) {
      soc.ddrs()[i]->set_access_log(&timeline_->ddr[i]);
    }
    timeline_->dma.resize(soc.npus().size());
    for (size_t i = 0; i < soc.npus().size(); ++i) soc.npus()[i]->set_dma_log(&timeline_->dma[i]);
    if (ProbeEngine* engine = probes.engine()) {
      timeline_->calls = std::make_unique<CallTimeline>(engine->symbols(),
                                                        options.timeline_functions, kMaxCallSpans);
      engine->add_call_listener(timeline_->calls.get());
    }
  }
  if (options.waveforms()) {
    uint64_t first = 0, end = 0;
    parse_window(options.trace_window, &first, &end);  // checked with the options
    vcd_path_ = options.trace_vcd;
    keep_fst_ = !options.trace_fst.empty();
    fst_path_ = !options.trace_fst.empty() ? options.trace_fst : options.trace_vcd + ".fst";
    const std::string error = cpu.open_waveform(fst_path_, first, end);
    if (!error.empty()) throw ConfigError("--trace-fst/--trace-vcd: " + error);
  }
  const CpuCapabilities& can = soc.cpu_type().capabilities;
  if ((options.gdb_port >= 0 && !can.gdb) || (!options.trace_instr.empty() && !can.retire_trace)) {
    throw ConfigError("--gdb and --trace-instr need a retire trace: the " +
                      soc.cpu_type().name + " CPU model of this build is the " +
                      cpu.description() + ", which reports no retired instructions");
  }
  if (!options.trace_instr.empty()) {
    trace_path_ = options.trace_instr;
    trace_ = std::fopen(options.trace_instr.c_str(), "w");
    if (trace_ == nullptr) {
      throw ConfigError("--trace-instr " + options.trace_instr + ": cannot write: " +
                        std::strerror(errno));
    }
    commit_log_ = std::make_unique<CommitLog>(trace_);
    cpu.add_retire_observer(commit_log_.get());
  }
  if (options.gdb_port >= 0) {
    if (options.gdb_port > 65535) {
      throw ConfigError("--gdb " + std::to_string(options.gdb_port) + ": not a TCP port");
    }
    transport_ = std::make_unique<TcpGdbTransport>();
    const std::string error = transport_->listen(static_cast<uint16_t>(options.gdb_port));
    if (!error.empty()) throw ConfigError("--gdb: " + error);
    std::cerr << "socsim: waiting for GDB on 127.0.0.1:" << transport_->port()
              << " (target remote :" << transport_->port() << ")" << std::endl;
    std::string accepted;
    {
      const HostStopSignals signals;  // Ctrl-C ends the wait with a message and 130
      accepted = transport_->accept();
    }
    if (!accepted.empty()) throw ConfigError("--gdb: " + accepted);
    GdbMemory memory{
        [&soc](uint32_t addr, uint8_t* data, uint32_t size) {
          return soc.read_memory(addr, data, size);
        },
        [&soc](uint32_t addr, const uint8_t* data, uint32_t size) {
          return soc.write_memory(addr, data, size);
        }};
    gdb_ = std::make_unique<GdbSession>(cpu, *transport_, std::move(memory), soc.control(),
                                        soc.config().cpu.boot_addr);
    // GDB's first stop is the core's first halt, before its first instruction.
    if (!cpu.set_debug_halt(gdb_.get())) {
      throw ConfigError(std::string("--gdb: the ") + cpu.description() +
                        " cannot be halted by a debugger");
    }
  }
}

DebugTools::~DebugTools() {
  if (trace_ != nullptr) std::fclose(trace_);
}

void DebugTools::end_of_run(SimControl& control) {
  if (gdb_) gdb_->finish(control);
  if (trace_ != nullptr) {
    errno = 0;
    const bool flushed = std::fflush(trace_) == 0;
    const int error = errno;
    const bool failed = !flushed || std::ferror(trace_) != 0;
    const bool closed = std::fclose(trace_) == 0;
    trace_ = nullptr;
    if (failed || !closed) {
      control.report_output_error("--trace-instr " + trace_path_ + ": cannot write the trace: " +
                                  (error != 0 ? std::strerror(error) : "write error"));
    }
  }
  if (fst_path_.empty()) return;
  cpu_.close_waveform();
  if (vcd_path_.empty()) return;
  const int status = run_program({"fst2vcd", "-f", fst_path_, "-o", vcd_path_});
  if (status != 0) {
    std::cerr << "socsim: --trace-vcd: fst2vcd (gtkwave) " << (status < 0 ? "not found" : "failed")
              << ": the waveform stays in FST format in " << fst_path_ << "\n";
    return;
  }
  if (!keep_fst_) std::remove(fst_path_.c_str());
}

}  // namespace socsim
