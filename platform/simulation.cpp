#include "platform/simulation.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <systemc>

#include "models/common/hex.h"
#include "platform/soc.h"

namespace socsim {

namespace {

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

}  // namespace

SimulationResult simulate(Soc& soc, bool progress) {
  SimulationResult result;
  Progress display(soc.cpu_clock().mhz());
  if (progress && isatty(STDERR_FILENO)) {
    soc.cpu().set_progress([&display](uint64_t cycle) { display.update(cycle); });
  }
  const auto start = std::chrono::steady_clock::now();
  try {
    sc_core::sc_start();
  } catch (const std::exception& e) {
    result.internal_error = e.what();
  }
  result.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  display.clear();
  soc.cpu().set_progress(nullptr);
  if (!result.internal_error.empty()) return result;

  if (Console* console = soc.console()) {
    console->flush();
    if (!console->at_line_start()) std::cout << "\n";
  }
  std::cout.flush();
  SimControl& control = soc.control();
  if (!control.stopped()) {
    control.report_fault(soc.cpu().cycles(),
                         "lock-up: the core sleeps in WFI and nothing in the SoC can wake it "
                         "(the instruction retired before it is at pc " +
                             hex(soc.cpu().pc()) + ")");
  }
  return result;
}

}  // namespace socsim
