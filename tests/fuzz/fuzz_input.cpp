#include "tests/fuzz/fuzz_input.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace socsim::fuzz {

namespace {

struct ScratchDir {
  std::string path;
  ScratchDir() {
    // Memory, not disk, where the machine has it: a file written per input would otherwise
    // cost more than the parse it feeds.
    const char* tmp = std::getenv("TMPDIR");
    std::string base = tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
    if (tmp == nullptr && access("/dev/shm", W_OK) == 0) base = "/dev/shm";
    std::string pattern = base + "/socsim_fuzz_XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

const std::string& scratch_dir() {
  static const ScratchDir dir;
  return dir.path;
}

void write_file(const std::string& path, const uint8_t* data, size_t size) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + path);
  if (size > 0 && std::fwrite(data, 1, size, f) != size) {
    std::fclose(f);
    throw std::runtime_error("cannot write " + path);
  }
  std::fclose(f);
}

std::vector<std::string> write_file_with_overrides(const std::string& path, const uint8_t* data,
                                                   size_t size) {
  const std::string all(reinterpret_cast<const char*>(data), size);
  const size_t nul = all.find('\0');
  write_file(path, data, nul == std::string::npos ? size : nul);
  std::vector<std::string> overrides;
  if (nul == std::string::npos) return overrides;
  size_t start = nul + 1;
  while (start <= all.size()) {
    size_t end = all.find('\n', start);
    if (end == std::string::npos) end = all.size();
    if (end > start) overrides.push_back(all.substr(start, end - start));
    start = end + 1;
  }
  return overrides;
}

}  // namespace socsim::fuzz
