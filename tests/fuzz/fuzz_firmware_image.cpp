// Fuzz target: the firmware file reader (load_firmware_image), ELF32 (libelf) and Verilog
// hex. The reader tells the formats apart by content; the two targets built from this file
// differ only in their seed corpora (tests/fuzz/corpus/elf, .../hex), and the hex target
// skips inputs that start with the ELF magic so that its time goes to the hex parser.
// A ConfigError is the reader's answer to bad input; anything else escaping is a defect.
// Accepted images are also checked for what the reader promises: segments inside the
// 32-bit address space that do not overlap.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "models/common/config.h"
#include "platform/firmware_image.h"
#include "tests/fuzz/fuzz_input.h"

namespace {

bool hex_only() {
  return std::strcmp(SOCSIM_FUZZ_FIRMWARE, "hex") == 0;
}

void check_image(const socsim::FirmwareImage& image) {
  for (size_t i = 0; i < image.segments.size(); ++i) {
    const socsim::FirmwareSegment& a = image.segments[i];
    if (a.bytes.size() > a.mem_size) std::abort();
    if (a.addr + a.mem_size > (1ull << 32)) std::abort();
    for (size_t j = i + 1; j < image.segments.size(); ++j) {
      const socsim::FirmwareSegment& b = image.segments[j];
      if (a.mem_size == 0 || b.mem_size == 0) continue;
      if (a.addr < b.addr + b.mem_size && b.addr < a.addr + a.mem_size) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (hex_only() && size >= 4 &&
      std::memcmp(data,
                  "\x7f"
                  "ELF",
                  4) == 0)
    return -1;
  static const std::string file = socsim::fuzz::scratch_dir() + "/firmware";
  socsim::fuzz::write_file(file, data, size);
  try {
    check_image(socsim::load_firmware_image(file));
  } catch (const socsim::ConfigError&) {
  }
  return 0;
}
