#include "platform/boot_info.h"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "models/common/config.h"

namespace socsim {

namespace {
constexpr uint32_t kHeaderBytes = sizeof(socsim_bootinfo);
static_assert(kHeaderBytes == 0x30, "docs/boot-info.md: a 48-byte block");
void put32(std::vector<uint8_t>& out, uint32_t offset, uint32_t value) {
  for (int i = 0; i < 4; ++i) out[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}
}  // namespace

std::vector<uint8_t> encode_boot_info(const BootInfo& info, uint32_t base, uint32_t capacity) {
  const uint32_t argc = static_cast<uint32_t>(info.argv.size());
  const uint32_t array_bytes = 4 * (argc + 1);
  uint32_t size = kHeaderBytes + array_bytes;
  for (const std::string& a : info.argv) size += static_cast<uint32_t>(a.size()) + 1;
  if (size > capacity) return {};

  std::vector<uint8_t> out(size, 0);
  put32(out, offsetof(socsim_bootinfo, magic), kBootInfoMagic);
  put32(out, offsetof(socsim_bootinfo, version), kBootInfoVersion);
  put32(out, offsetof(socsim_bootinfo, argc), argc);
  put32(out, offsetof(socsim_bootinfo, argv), base + kHeaderBytes);
  put32(out, offsetof(socsim_bootinfo, model_addr), info.model_addr);
  put32(out, offsetof(socsim_bootinfo, model_size), info.model_size);
  put32(out, offsetof(socsim_bootinfo, input_addr), info.input_addr);
  put32(out, offsetof(socsim_bootinfo, input_size), info.input_size);
  put32(out, offsetof(socsim_bootinfo, cpu_clock_hz), info.cpu_clock_hz);
  put32(out, offsetof(socsim_bootinfo, flags),
        info.cycle_exact ? SOCSIM_BOOTINFO_FLAG_CYCLE_EXACT : 0);
  put32(out, offsetof(socsim_bootinfo, pool_addr), info.pool_addr);
  put32(out, offsetof(socsim_bootinfo, pool_size), info.pool_size);
  uint32_t str = kHeaderBytes + array_bytes;
  for (uint32_t i = 0; i < argc; ++i) {
    put32(out, kHeaderBytes + 4 * i, base + str);
    std::memcpy(out.data() + str, info.argv[i].c_str(), info.argv[i].size() + 1);
    str += static_cast<uint32_t>(info.argv[i].size()) + 1;
  }
  put32(out, kHeaderBytes + 4 * argc, 0);
  return out;
}

AddressRange place_pool(const AddressRange& region, uint64_t limit,
                        const std::vector<AddressRange>& used, uint64_t size,
                        const std::string& key) {
  constexpr uint64_t kAlign = 64;
  const uint64_t top = std::min(limit, region.end) & ~(kAlign - 1);
  uint64_t bottom = region.begin;
  for (const AddressRange& r : used) {
    if (r.begin < top && r.end > region.begin) bottom = std::max(bottom, r.end);
  }
  bottom = (bottom + kAlign - 1) & ~(kAlign - 1);
  const uint64_t free = top > bottom ? top - bottom : 0;
  if (size == 0) return free == 0 ? AddressRange{} : AddressRange{bottom, top};
  const uint64_t want = (size + kAlign - 1) & ~(kAlign - 1);
  if (want > free) {
    throw ConfigError(key + ": a pool of " + std::to_string(size) + " bytes does not fit: " +
                      std::to_string(free) + " bytes are free in the region");
  }
  return AddressRange{top - want, top};
}

}  // namespace socsim
