// Decoding of a DDR address (offset inside the DDR region) into channel, rank, bank group,
// bank, row and column, following a configured DdrAddressMapping, and the inverse (traces
// are generated and converted from locations).
#pragma once

#include <cstdint>
#include <vector>

#include "models/ddr/ddr_config.h"

namespace socsim {

/// Where one burst lives in the device.
struct DdrLocation {
  uint32_t channel = 0;
  uint32_t rank = 0;
  uint32_t bank_group = 0;
  uint32_t bank = 0;  ///< inside its bank group
  uint32_t row = 0;
  uint32_t column = 0;  ///< burst index inside the row
};

/// Extracts the mapped bit fields of an address. Contiguous bit runs are gathered once at
/// construction, so decoding costs a few shifts per field.
class DdrAddressDecoder {
 public:
  explicit DdrAddressDecoder(const DdrAddressMapping& mapping);

  [[gnu::always_inline]] DdrLocation decode(uint64_t addr) const {
    DdrLocation loc;
    if (single_runs_) {  // every field one run of bits (the presets' mappings)
      loc.channel = extract_run(channel_.first, addr);
      loc.rank = extract_run(rank_.first, addr);
      loc.bank_group = extract_run(bank_group_.first, addr);
      loc.bank = extract_run(bank_.first, addr);
      loc.row = extract_run(row_.first, addr);
      loc.column = extract_run(column_.first, addr);
      return loc;
    }
    loc.channel = extract(channel_, addr);
    loc.rank = extract(rank_, addr);
    loc.bank_group = extract(bank_group_, addr);
    loc.bank = extract(bank_, addr);
    loc.row = extract(row_, addr);
    loc.column = extract(column_, addr);
    return loc;
  }
  /// Whether two addresses lie in the same row of the same bank (they may differ in column
  /// and byte bits only).
  bool same_row(uint64_t a, uint64_t b) const { return ((a ^ b) & row_bank_bits_) == 0; }
  /// The burst-aligned address of a location (the inverse of decode()).
  uint64_t encode(const DdrLocation& loc) const {
    return deposit(channel_, loc.channel) | deposit(rank_, loc.rank) |
           deposit(bank_group_, loc.bank_group) | deposit(bank_, loc.bank) |
           deposit(row_, loc.row) | deposit(column_, loc.column);
  }

 private:
  /// Bits [src, src + width) of the address go to bits [dst, dst + width) of the field.
  struct Run {
    uint8_t src;
    uint8_t dst;
    uint64_t mask;
  };
  // Most fields are one run of bits: kept inline, with any further runs in `more`.
  struct Field {
    Run first{0, 0, 0};
    std::vector<Run> more;
  };

  static Field compile(const std::vector<uint32_t>& bits);
  static uint32_t extract_run(const Run& run, uint64_t addr) {
    return static_cast<uint32_t>(((addr >> run.src) & run.mask) << run.dst);
  }
  static uint32_t extract(const Field& field, uint64_t addr) {
    uint64_t value = ((addr >> field.first.src) & field.first.mask) << field.first.dst;
    for (const Run& run : field.more) value |= ((addr >> run.src) & run.mask) << run.dst;
    return static_cast<uint32_t>(value);
  }
  static uint64_t deposit(const Field& field, uint64_t value) {
    uint64_t addr = ((value >> field.first.dst) & field.first.mask) << field.first.src;
    for (const Run& run : field.more) addr |= ((value >> run.dst) & run.mask) << run.src;
    return addr;
  }

  Field channel_, rank_, bank_group_, bank_, row_, column_;
  uint64_t row_bank_bits_ = 0;  // the address bits of channel, rank, bank group, bank and row
  bool single_runs_ = true;     // no field has `more` runs
};

}  // namespace socsim
