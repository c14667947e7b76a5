#include "models/common/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "models/common/config.h"

namespace socsim {

std::string describe_size(uint64_t bytes) {
  static const char* const kUnits[] = {"GiB", "MiB", "KiB"};
  for (int i = 0; i < 3; ++i) {
    const uint64_t unit = 1ull << (30 - 10 * i);
    if (bytes >= unit && bytes % unit == 0) return std::to_string(bytes / unit) + " " + kUnits[i];
  }
  return std::to_string(bytes) + " bytes";
}

uint64_t check_input_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    throw ConfigError(path + ": cannot open " + what + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    throw ConfigError(path + ": not a regular file (" +
                      (S_ISDIR(st.st_mode) ? "a folder" : "a device, FIFO or socket") +
                      "), cannot be read as the " + what);
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    throw ConfigError(path + ": " + what + " of " + describe_size(size) +
                      " is larger than the " + describe_size(max_bytes) + " allowed");
  }
  return size;
}

std::vector<uint8_t> read_input_file(const std::string& path, uint64_t max_bytes,
                                     const std::string& what) {
  const uint64_t size = check_input_file(path, max_bytes, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open " + what);
  // Read at most the size seen (and one byte more, to notice a file that grew meanwhile).
  std::vector<uint8_t> data(static_cast<size_t>(size) + 1);
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<size_t>(in.gcount()));
  if (data.size() != size) throw ConfigError(path + ": " + what + " changed while read");
  return data;
}

}  // namespace socsim
