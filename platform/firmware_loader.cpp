#include "platform/firmware_loader.h"

#include <algorithm>
#include <iostream>

#include "models/common/hex.h"
#include "platform/soc.h"

namespace socsim {

namespace {

// Zeros up to a segment's memory size, written in pieces (a segment may be as large as its
// region).
void zero_fill(Soc& soc, uint64_t addr, uint64_t size) {
  static const uint8_t kZeros[64 * 1024] = {};
  while (size > 0) {
    const uint64_t n = std::min<uint64_t>(size, sizeof kZeros);
    soc.write_memory(addr, kZeros, n);
    addr += n;
    size -= n;
  }
}

// The socsim linker script puts the stack at the top of RAM (__stack_top, firmware/link/
// sections.ld): a program linked for a larger RAM than this SoC's would fault on its first
// push with a bare bus error. Said before the run, naming both sizes.
void warn_if_linked_for_other_memory(const FirmwareImage& image, const SocConfig& config) {
  for (const FirmwareSymbol& sym : image.symbols) {
    if (sym.name != "__stack_top" || sym.addr == 0) continue;
    const uint32_t last = sym.addr - 1;  // the stack's first word is just below the top
    const RegionConfig* r = config.region_at(last);
    if (r != nullptr && is_memory_type(r->type)) return;
    const RegionConfig* ram = config.find_region(config.loader.ram_region);
    std::cerr << "socsim: warning: " << image.path
              << ": linked for a stack at __stack_top = " << hex(sym.addr)
              << ", outside the memory of " << config.file;
    if (ram != nullptr) {
      std::cerr << " (region '" << ram->name << "' is [" << hex(ram->base) << ", "
                << hex(ram->base + ram->size) << "))";
    }
    std::cerr << ": its first push will fault; link it for this SoC (`socsim memmap`, "
                 "docs/firmware.md)\n";
    return;
  }
}

}  // namespace

void load_firmware(const FirmwareImage& image, Soc& soc) {
  const SocConfig& config = soc.config();
  for (const FirmwareSegment& seg : image.segments) {
    const RegionConfig* r = config.region_at(seg.addr);
    const uint64_t end = uint64_t(seg.addr) + seg.mem_size;
    if (r == nullptr || !is_memory_type(r->type) || end > r->base + r->size) {
      throw ConfigError(image.path + ": " + seg.where + " [" + hex(seg.addr) + ", " + hex(end) +
                        ") is not inside a memory region of " + config.file);
    }
    if (!soc.write_memory(seg.addr, seg.bytes.data(), seg.bytes.size())) {
      throw ConfigError(image.path + ": cannot load " + seg.where + " at " + hex(seg.addr));
    }
    zero_fill(soc, seg.addr + seg.bytes.size(), seg.mem_size - seg.bytes.size());
  }
  warn_if_linked_for_other_memory(image, config);
  if (image.is_elf && image.entry != config.cpu.boot_addr) {
    std::cerr << "socsim: warning: " << image.path << ": entry point " << hex(image.entry)
              << " differs from the boot address " << hex(config.cpu.boot_addr)
              << "; the core starts at the boot address\n";
  }
}

}  // namespace socsim
