// The boot-info block (docs/boot-info.md): argc/argv, model and input placement, clock, the
// firmware's memory pool; and the loader step that places the data files, finds the pool and
// writes the block into the SoC. The layout
// is firmware/abi/boot_info.h, which the firmware's HAL reads.
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
  uint32_t pool_addr = 0, pool_size = 0;
};

/// Half-open address ranges [begin, end).
struct AddressRange {
  uint64_t begin = 0, end = 0;
};

/// The pool the block offers: the top `size` bytes (0: all) of the part of `region` that lies
/// below `limit` and above every range of `used` inside the region, 64-byte aligned. Returns
/// an empty range if nothing is free; throws ConfigError naming `key` if `size` does not fit.
AddressRange place_pool(const AddressRange& region, uint64_t limit,
                        const std::vector<AddressRange>& used, uint64_t size,
                        const std::string& key);

constexpr uint32_t kBootInfoMagic = SOCSIM_BOOTINFO_MAGIC;
constexpr uint32_t kBootInfoVersion = SOCSIM_BOOTINFO_VERSION;

/// The block's bytes as placed at `base`. Returns an empty vector if it exceeds `capacity`.
std::vector<uint8_t> encode_boot_info(const BootInfo& info, uint32_t base, uint32_t capacity);

class Soc;
struct FirmwareImage;

/// What the firmware is given at boot besides the clock.
struct BootInputs {
  std::string firmware_path;       ///< argv[0] is its file name
  std::vector<std::string> args;   ///< argv[1...]
  std::string model_path;          ///< --model ("" = none)
  std::string input_path;          ///< --input ("" = none)
};

/// Places the model and the input file at the top of the loader's model region (the model
/// highest, neither over a segment of `image`), finds the pool in `loader.pool_region`
/// (place_pool), writes the boot-info block into its region and returns what it announces. Throws ConfigError naming the file that does not
/// fit, or the SoC file when it has no boot-info block for arguments or a model.
BootInfo write_boot_info(const BootInputs& inputs, const FirmwareImage& image, Soc& soc);

}  // namespace socsim
