// How a simulation ends: the shared record of why and when it stopped.
//
// Devices and CPU models report the end of a run here (firmware exit, fault, cycle limit);
// the CPU loop polls `stopped()` after every instruction, so the check must stay a plain
// load. Nothing here throws: faults during simulation are reported events, not exceptions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace socsim {

enum class StopReason {
  kRunning,
  kExit,           ///< the firmware ended the run (exit_code(): its value)
  kFault,          ///< simulation fault (3)
  kMaxCycles,      ///< --max-cycles (124)
  kHostTimeLimit,  ///< --max-host-seconds (124)
  kInterrupted,    ///< a signal (128 + its number)
  kHostError,      ///< an error of the simulator itself (3)
};

class SimControl {
 public:
  bool stopped() const { return stop_flag_; }
  /// The same as stopped(), as a flag a CPU loop can poll without a call.
  const bool* stop_flag() const { return &stop_flag_; }
  StopReason reason() const { return reason_; }
  int exit_code() const { return exit_code_; }
  uint64_t stop_cycle() const { return stop_cycle_; }
  const std::string& message() const { return message_; }

  /// The firmware asked to end the run with `code` (first request wins).
  void request_exit(int code, uint64_t cycle, const std::string& message = "") {
    stop(StopReason::kExit, code, cycle, message);
  }
  /// A simulation fault: unmapped access, unhandled trap, lock-up. Message names PC/address.
  void report_fault(uint64_t cycle, const std::string& message) {
    stop(StopReason::kFault, 3, cycle, message);
  }
  void report_max_cycles(uint64_t cycle) {
    stop(StopReason::kMaxCycles, 124, cycle, "cycle limit reached");
  }
  /// The host-time watchdog (--max-host-seconds) expired.
  void report_host_time_limit(uint64_t cycle, const std::string& message) {
    stop(StopReason::kHostTimeLimit, 124, cycle, message);
  }
  /// SIGINT, SIGTERM: the run was stopped from outside.
  void report_interrupted(uint64_t cycle, int signal, const std::string& message) {
    stop(StopReason::kInterrupted, 128 + signal, cycle, message);
  }
  /// The simulator itself failed (an exception escaped a model).
  void report_host_error(uint64_t cycle, const std::string& message) {
    stop(StopReason::kHostError, 3, cycle, message);
  }

  /// An output file of the run (signature, trace, report) could not be written whole:
  /// `message` names the file and the reason. It does not stop the run; it changes the exit
  /// status of a run that would have ended with 0 (platform/report/run_report.h).
  void report_output_error(const std::string& message) { output_errors_.push_back(message); }
  const std::vector<std::string>& output_errors() const { return output_errors_; }

 private:
  void stop(StopReason reason, int code, uint64_t cycle, const std::string& message) {
    if (stopped()) return;
    stop_flag_ = true;
    reason_ = reason;
    exit_code_ = code;
    stop_cycle_ = cycle;
    message_ = message;
  }

  bool stop_flag_ = false;
  StopReason reason_ = StopReason::kRunning;
  int exit_code_ = 0;
  uint64_t stop_cycle_ = 0;
  std::string message_;
  std::vector<std::string> output_errors_;
};

}  // namespace socsim
