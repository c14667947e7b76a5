#include "models/common/input_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "models/common/config.h"

namespace socsim {

uint64_t check_input_file(const std::string& path, uint64_t max_bytes, const std::string& what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    throw ConfigError(path + ": cannot open " + what + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    throw ConfigError(path + ": not a regular file (" +
                      (S_ISDIR(st.st_mode) ? "a folder" : "a device, FIFO or socket") + ")");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    throw ConfigError(path + ": larger than " + format_size(max_bytes) + " (" +
                      std::to_string(size) + " bytes), more than a " + what + " may have");
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
