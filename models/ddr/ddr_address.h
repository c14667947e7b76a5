// Decoding of a DDR address (offset inside the DDR region) into channel, bank group, bank,
// row and column, following a configured DdrAddressMapping.
#pragma once

#include <cstdint>
#include <vector>

#include "models/ddr/ddr_config.h"

namespace socsim {

/// Where one burst lives in the device.
struct DdrLocation {
  uint32_t channel = 0;
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

  DdrLocation decode(uint64_t addr) const {
    DdrLocation loc;
    loc.channel = extract(channel_, addr);
    loc.bank_group = extract(bank_group_, addr);
    loc.bank = extract(bank_, addr);
    loc.row = extract(row_, addr);
    loc.column = extract(column_, addr);
    return loc;
  }

 private:
  /// Bits [src, src + width) of the address go to bits [dst, dst + width) of the field.
  struct Run {
    uint8_t src;
    uint8_t dst;
    uint64_t mask;
  };
  using Field = std::vector<Run>;

  static Field compile(const std::vector<uint32_t>& bits);
  static uint32_t extract(const Field& field, uint64_t addr) {
    uint64_t value = 0;
    for (const Run& run : field) value |= ((addr >> run.src) & run.mask) << run.dst;
    return static_cast<uint32_t>(value);
  }

  Field channel_, bank_group_, bank_, row_, column_;
};

}  // namespace socsim
