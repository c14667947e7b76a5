#include "platform/report/report_directory.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "models/common/config.h"
#include "models/common/json_text.h"

namespace socsim {

ReportDirectory::ReportDirectory(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw ConfigError("--report: expected a folder, got an empty path");
  std::error_code ec;
  std::filesystem::create_directories(path_, ec);
  if (ec || !std::filesystem::is_directory(path_)) {
    throw ConfigError("--report " + path_ + ": cannot make the folder" +
                      (ec ? ": " + ec.message() : std::string(": not a folder")));
  }
  // Whether files can be made there (permissions, read-only file system).
  const std::string probe = path_ + "/.socsim-write-check";
  std::ofstream file(probe);
  const int error = errno;
  if (!file) {
    throw ConfigError("--report " + path_ + ": cannot write in the folder: " +
                      std::strerror(error));
  }
  file.close();
  ::unlink(probe.c_str());
}

void ReportDirectory::write(const std::string& name,
                            const std::function<void(std::ostream&)>& writer) {
  if (!enabled()) return;
  const std::string file_path = path_ + "/" + name;
  // The first failing call's errno says why (ENOSPC, EFBIG, EIO); the stream only that it did.
  errno = 0;
  std::ofstream file(file_path);
  int error = file ? 0 : errno;
  if (file) {
    writer(file);
    file.flush();
    if (!file && error == 0) error = errno;
    file.close();  // a file system may tell only when the file is closed
    if (file.fail() && error == 0) error = errno;
  }
  if (file.fail()) {
    const std::string message =
        "cannot write " + file_path + ": " + (error != 0 ? std::strerror(error) : "write error");
    std::cerr << "socsim: error: " << message << "\n";
    errors_.push_back(message);
  }
}

void ReportDirectory::write_json(const std::string& name, const nlohmann::json& value) {
  write(name, [&](std::ostream& out) { out << json_text(value, 2) << "\n"; });
}

}  // namespace socsim
