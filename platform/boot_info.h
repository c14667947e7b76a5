// Builds the boot-info block (docs/boot-info.md): argc/argv, model and input placement, clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace socsim {

struct BootInfo {
  std::vector<std::string> argv;
  uint32_t model_addr = 0, model_size = 0;
  uint32_t input_addr = 0, input_size = 0;
  uint32_t cpu_clock_hz = 0;
  bool cycle_exact = false;
};

constexpr uint32_t kBootInfoMagic = 0x31494253;  // "SBI1"
constexpr uint32_t kBootInfoVersion = 1;

/// The block's bytes as placed at `base`. Returns an empty vector if it exceeds `capacity`.
std::vector<uint8_t> encode_boot_info(const BootInfo& info, uint32_t base, uint32_t capacity);

}  // namespace socsim
