// Builds the boot-info block (docs/boot-info.md): argc/argv, model and input placement, clock.
// The layout is firmware/abi/boot_info.h, which the firmware's HAL reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firmware/abi/boot_info.h"

namespace socsim {

struct BootInfo {
  std::vector<std::string> argv;
  uint32_t model_addr = 0, model_size = 0;
  uint32_t input_addr = 0, input_size = 0;
  uint32_t cpu_clock_hz = 0;
  bool cycle_exact = false;
};

constexpr uint32_t kBootInfoMagic = SOCSIM_BOOTINFO_MAGIC;
constexpr uint32_t kBootInfoVersion = SOCSIM_BOOTINFO_VERSION;

/// The block's bytes as placed at `base`. Returns an empty vector if it exceeds `capacity`.
std::vector<uint8_t> encode_boot_info(const BootInfo& info, uint32_t base, uint32_t capacity);

}  // namespace socsim
