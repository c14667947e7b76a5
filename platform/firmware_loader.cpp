#include "platform/firmware_loader.h"

#include <iostream>

#include "models/common/hex.h"
#include "platform/soc.h"

namespace socsim {

void load_firmware(const FirmwareImage& image, Soc& soc) {
  const SocConfig& config = soc.config();
  for (const FirmwareSegment& seg : image.segments) {
    const RegionConfig* r = config.region_at(seg.addr);
    const uint64_t end = uint64_t(seg.addr) + seg.bytes.size();
    if (r == nullptr || !is_memory_type(r->type) || end > r->base + r->size) {
      throw ConfigError(image.path + ": segment [" + hex(seg.addr) + ", " + hex(end) +
                        ") is not inside a memory region of " + config.file);
    }
    if (!soc.write_memory(seg.addr, seg.bytes.data(), seg.bytes.size())) {
      throw ConfigError(image.path + ": cannot load segment at " + hex(seg.addr));
    }
  }
  if (image.is_elf && image.entry != config.cpu.boot_addr) {
    std::cerr << "socsim: warning: " << image.path << ": entry point " << hex(image.entry)
              << " differs from the boot address " << hex(config.cpu.boot_addr)
              << "; the core starts at the boot address\n";
  }
}

}  // namespace socsim
