// Firmware files: ELF32 RISC-V executables (libelf) and Verilog hex images
// (`objcopy -O verilog`: `@address` lines and hex bytes, as the core-v-verif testbench loads).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace socsim {

struct FirmwareSegment {
  uint32_t addr = 0;
  std::vector<uint8_t> bytes;  ///< the file's contents for the segment
  uint64_t mem_size = 0;       ///< bytes it occupies: `bytes`, then zeros (ELF .bss)
  std::string where;           ///< "segment 2" (ELF) or "line 7" (hex), for messages
};

struct FirmwareSymbol {
  std::string name;
  uint32_t addr = 0;
  uint32_t size = 0;
  bool is_function = false;
};

struct FirmwareImage {
  std::string path;
  bool is_elf = false;
  uint32_t entry = 0;
  std::vector<FirmwareSegment> segments;
  std::vector<FirmwareSymbol> symbols;  ///< ELF symbol table (functions and objects)
};

/// Reads an ELF or hex file (decided by content, not by name), a regular file of at most
/// kMaxFirmwareFileBytes. Segments must not overlap (nor hex records define a byte twice).
/// Nothing is allocated for the zeros of a segment's memory size. Throws ConfigError with
/// the file name and what is wrong.
FirmwareImage load_firmware_image(const std::string& path);

}  // namespace socsim
