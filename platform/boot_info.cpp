#include "platform/boot_info.h"

#include <cstddef>
#include <cstring>

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
  uint32_t str = kHeaderBytes + array_bytes;
  for (uint32_t i = 0; i < argc; ++i) {
    put32(out, kHeaderBytes + 4 * i, base + str);
    std::memcpy(out.data() + str, info.argv[i].c_str(), info.argv[i].size() + 1);
    str += static_cast<uint32_t>(info.argv[i].size()) + 1;
  }
  put32(out, kHeaderBytes + 4 * argc, 0);
  return out;
}

}  // namespace socsim
