// The folder a run's report files go to (`socsim run --report DIR`). Every file of the
// report is written through it, so failures are found and told in one place.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace socsim {

class ReportDirectory {
 public:
  /// No folder: nothing is written.
  ReportDirectory() = default;
  /// Reports go into `path`, created (with its parents) when the first file is written.
  explicit ReportDirectory(std::string path) : path_(std::move(path)) {}

  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

  /// Writes the file `name` with `writer`. On failure says so on stderr, naming the file,
  /// and remembers it (ok() turns false).
  void write(const std::string& name, const std::function<void(std::ostream&)>& writer);
  /// Writes `value` as indented JSON.
  void write_json(const std::string& name, const nlohmann::json& value);
  /// False once a file could not be written.
  bool ok() const { return ok_; }

 private:
  std::string path_;
  bool ok_ = true;
};

}  // namespace socsim
