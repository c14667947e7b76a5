// Requests from the host to end a simulation early: SIGINT or SIGTERM, or the host-time
// watchdog (`socsim run --max-host-seconds`). The platform stops the SystemC kernel at its
// next time slice when one is pending; a model that computes for long inside one event
// (an NPU layer) polls requested() and cuts its work short.
#pragma once

#include <atomic>
#include <chrono>
#include <csignal>

namespace socsim {

class HostStop {
 public:
  using Clock = std::chrono::steady_clock;

  /// From a signal handler: async-signal-safe.
  static void request_signal(int signal) { signal_ = signal; }
  /// The signal that asked to stop, 0 if none.
  static int signal() { return signal_; }
  /// Stop once the host clock passes `deadline` (Clock::time_point::max(): never).
  static void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  static bool deadline_passed() { return Clock::now() >= deadline_.load(); }
  /// A signal arrived or the deadline passed.
  static bool requested() { return signal_ != 0 || deadline_passed(); }
  /// Forgets both (a new run).
  static void reset() {
    signal_ = 0;
    deadline_ = Clock::time_point::max();
  }

 private:
  static inline volatile std::sig_atomic_t signal_ = 0;
  static inline std::atomic<Clock::time_point> deadline_{Clock::time_point::max()};
};

}  // namespace socsim
