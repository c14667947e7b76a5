#include "platform/boot_info.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>

#include "models/common/hex.h"
#include "models/common/input_file.h"
#include "platform/firmware_image.h"
#include "platform/soc.h"

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

namespace {

// Places a data file at the top of a region, aligned down to 64 bytes, below `limit`.
uint32_t place_at_top(const RegionConfig& region, uint64_t limit, uint64_t size,
                      const std::string& what) {
  const uint64_t top = std::min<uint64_t>(limit, region.base + region.size);
  if (size > top - region.base) {
    throw ConfigError(what + " (" + std::to_string(size) + " bytes) does not fit in region '" +
                      region.name + "'");
  }
  return static_cast<uint32_t>((top - size) & ~uint64_t(63));
}

// Reads `path`, places it below `*limit` in `region` (clear of the firmware's segments),
// writes it into the SoC and lowers `*limit` to its address.
void place_data_file(const std::string& path, const char* what, const RegionConfig& region,
                     const FirmwareImage& image, Soc& soc, uint64_t* limit, uint32_t* addr,
                     uint32_t* size) {
  // At most the region (the block announces sizes in 32 bits); checked before reading.
  const uint64_t cap = std::min<uint64_t>(region.size, 0xFFFFFFFFull);
  const std::vector<uint8_t> data = read_input_file(
      path, cap, std::string(what) + " (for region '" + region.name + "')");
  *size = static_cast<uint32_t>(data.size());
  *addr = place_at_top(region, *limit, data.size(), path);
  for (const FirmwareSegment& seg : image.segments) {
    if (*addr < seg.addr + seg.mem_size && seg.addr < *addr + data.size()) {
      throw ConfigError(path + " placed at " + hex(*addr) + " would overlap the firmware "
                        "segment at " + hex(seg.addr) + "; choose another loader.model_region");
    }
  }
  soc.write_memory(*addr, data.data(), data.size());
  *limit = *addr;
}

}  // namespace

BootInfo write_boot_info(const BootInputs& inputs, const FirmwareImage& image, Soc& soc) {
  const SocConfig& config = soc.config();
  BootInfo info;
  info.argv.push_back(std::filesystem::path(inputs.firmware_path).filename().string());
  for (const std::string& a : inputs.args) info.argv.push_back(a);
  info.cpu_clock_hz = static_cast<uint32_t>(config.cpu.clock_mhz * 1e6 + 0.5);
  info.cycle_exact = soc.cpu().cycle_exact();

  const RegionConfig* data_region = config.find_region(config.loader.model_region);
  uint64_t limit = data_region->base + data_region->size;
  if (!inputs.model_path.empty()) {
    place_data_file(inputs.model_path, "model file", *data_region, image, soc, &limit,
                    &info.model_addr, &info.model_size);
  }
  if (!inputs.input_path.empty()) {
    place_data_file(inputs.input_path, "input file", *data_region, image, soc, &limit,
                    &info.input_addr, &info.input_size);
  }
  if (!config.loader.pool_region.empty()) {
    const RegionConfig* pool_region = config.find_region(config.loader.pool_region);
    std::vector<AddressRange> used;
    for (const FirmwareSegment& seg : image.segments) {
      used.push_back({seg.addr, uint64_t{seg.addr} + seg.mem_size});
    }
    const uint64_t pool_end = pool_region->base + pool_region->size;
    const AddressRange pool =
        place_pool({pool_region->base, pool_end}, pool_region == data_region ? limit : pool_end,
                   used, config.loader.pool_size, config.file + ": loader.pool_size");
    info.pool_addr = static_cast<uint32_t>(pool.begin);
    info.pool_size = static_cast<uint32_t>(pool.end - pool.begin);
  }
  if (!config.loader.bootinfo_region.empty()) {
    const RegionConfig* bi = config.find_region(config.loader.bootinfo_region);
    std::vector<uint8_t> block =
        encode_boot_info(info, static_cast<uint32_t>(bi->base), static_cast<uint32_t>(bi->size));
    if (block.empty()) {
      // The region's own key names the file and line; the sizes say what is missing.
      uint64_t needed = kHeaderBytes + 4 * (info.argv.size() + 1);
      for (const std::string& a : info.argv) needed += a.size() + 1;
      throw ConfigError(bi->where + ": the boot-info block '" + bi->name + "' (" +
                        std::to_string(bi->size) + " bytes) is too small: it needs " +
                        std::to_string(needed) + " bytes (the " + std::to_string(kHeaderBytes) +
                        "-byte header, argv[] and " + std::to_string(info.argv.size()) +
                        " argument string" + (info.argv.size() == 1 ? "" : "s") +
                        "; docs/boot-info.md)");
    }
    soc.write_memory(bi->base, block.data(), block.size());
  } else if (!inputs.args.empty() || !inputs.model_path.empty()) {
    throw ConfigError(config.file + ": this SoC has no boot-info block, so firmware arguments "
                      "and --model cannot be passed");
  }
  return info;
}

}  // namespace socsim
