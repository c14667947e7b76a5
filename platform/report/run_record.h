// What a run was, for summary.json: the command line, the files it read (path, size and
// SHA-256), the firmware's arguments, the version of socsim and the host's wall-clock time,
// so that a report folder says how to reproduce it.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace socsim {

struct RunOptions;

class RunRecord {
 public:
  /// Notes the start time (call when the command starts).
  explicit RunRecord(const RunOptions& options);

  /// The record's fields of summary.json: command_line, inputs, firmware_args, tool, host.
  nlohmann::json to_json() const;

 private:
  const RunOptions& options_;
  std::chrono::system_clock::time_point started_;
  std::chrono::steady_clock::time_point steady_started_;
};

/// The SHA-256 of a file in lowercase hex; "" if it cannot be read.
std::string file_sha256(const std::string& path);

}  // namespace socsim
