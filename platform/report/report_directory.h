// The folder a run's report files go to (`socsim run --report DIR`). It is made and checked
// for writing before the simulation starts; every file of the report is written through it,
// so failures are found and told in one place.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace socsim {

class ReportDirectory {
 public:
  /// No folder: nothing is written.
  ReportDirectory() = default;
  /// Creates `path` (and its parents) and checks that a file can be written in it. Throws
  /// ConfigError naming the folder and the reason.
  explicit ReportDirectory(std::string path);

  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

  /// Writes the file `name` with `writer`, checking every write and the close. On failure
  /// (the disk full, a file size limit, an I/O error) says so on stderr, naming the file and
  /// the reason, and remembers it (ok() turns false).
  void write(const std::string& name, const std::function<void(std::ostream&)>& writer);
  /// Writes `value` as indented JSON (bytes that are not UTF-8, as in some file names,
  /// become U+FFFD).
  void write_json(const std::string& name, const nlohmann::json& value);
  /// False once a file could not be written.
  bool ok() const { return errors_.empty(); }
  /// One message per file that could not be written whole ("cannot write PATH: reason").
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string path_;
  std::vector<std::string> errors_;
};

}  // namespace socsim
