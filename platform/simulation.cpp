#include "platform/simulation.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <systemc>

#include "models/common/hex.h"
#include "models/common/host_stop.h"
#include "platform/soc.h"

namespace socsim {

namespace {

// Simulated time the kernel runs between two looks at the host's requests: at most some
// 50 ms of host time on the RTL core.
constexpr uint64_t kSliceCycles = 100000;

// Progress on stderr, at most a few times a second.
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

// Where the core is, for the messages of a run stopped from outside.
std::string position(Soc& soc) {
  return "at cycle " + std::to_string(soc.cpu().cycles()) + ", pc " + hex(soc.cpu().pc());
}

}  // namespace

SimulationResult simulate(Soc& soc, const SimulationOptions& options) {
  SimulationResult result;
  SimControl& control = soc.control();
  CpuModel& cpu = soc.cpu();
  Progress display(soc.cpu_clock().mhz());
  if (options.progress && isatty(STDERR_FILENO)) {
    cpu.set_progress([&display](uint64_t cycle) { display.update(cycle); });
  }
  HostStop::reset();
  const auto start = std::chrono::steady_clock::now();
  if (options.max_host_seconds > 0) {
    HostStop::set_deadline(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                       std::chrono::duration<double>(options.max_host_seconds)));
  }
  const sc_core::sc_time slice = soc.cpu_clock().time_of(kSliceCycles);
  // A signal or the host-time limit ends the run at a slice's end; also when the stop made
  // the simulation end by itself inside the slice (a device cut short, the core left
  // asleep with nothing to wake it: the CPU models leave that to this).
  const auto stopped_by_host = [&]() {
    if (const int signal = HostStop::signal()) {
      control.report_interrupted(cpu.cycles(), signal,
                                 std::string("interrupted by ") +
                                     (signal == SIGINT ? "SIGINT" : "SIGTERM") + " " +
                                     position(soc));
      return true;
    }
    if (HostStop::deadline_passed()) {
      char limit[64];
      std::snprintf(limit, sizeof limit, "%g", options.max_host_seconds);
      control.report_host_time_limit(
          cpu.cycles(), std::string("host time limit of ") + limit + " s reached " +
                            position(soc));
      return true;
    }
    return false;
  };
  {
    const HostStopSignals signals;
    try {
      // Slicing the kernel's run changes nothing in it: events at a slice's end are
      // triggered in that slice and their processes run at the start of the next one.
      while (sc_core::sc_get_status() != sc_core::SC_STOPPED) {
        sc_core::sc_start(slice, sc_core::SC_EXIT_ON_STARVATION);
        if (sc_core::sc_get_status() == sc_core::SC_STOPPED) break;
        if (stopped_by_host()) break;
        if (!sc_core::sc_pending_activity()) break;  // starved: nothing can happen any more
      }
    } catch (const std::exception& e) {
      control.report_host_error(cpu.cycles(), std::string("internal simulation error: ") +
                                                  e.what() + " (" + position(soc) + ")");
    }
  }
  result.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  display.clear();
  cpu.set_progress(nullptr);

  if (Console* console = soc.console()) {
    console->flush();
    if (!console->at_line_start()) std::cout << "\n";
  }
  std::cout.flush();
  if (!control.stopped() && !stopped_by_host()) {
    control.report_fault(cpu.cycles(),
                         "lock-up: the core sleeps in WFI and nothing in the SoC can wake it "
                         "(the instruction retired before it is at pc " +
                             hex(cpu.pc()) + ")");
  }
  return result;
}

}  // namespace socsim
