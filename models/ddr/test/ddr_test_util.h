// Helpers shared by the DDR unit tests.
#pragma once

#include <cstdint>
#include <string>

#include "models/ddr/ddr_config.h"

namespace socsim::test {

inline std::string preset_path(const std::string& file) {
  return std::string(SOCSIM_SOURCE_DIR) + "/configs/ddr/" + file;
}

inline DdrConfig ddr4_3200() {
  return load_ddr_preset(preset_path("ddr4-3200.yaml"));
}
inline DdrConfig lpddr4x_4266() {
  return load_ddr_preset(preset_path("lpddr4x-4266.yaml"));
}

/// An address of the DDR4-3200 preset's mapping: byte bits 0-5, bank group 6-7,
/// column (burst in row) 8-14, bank 15-16, row 17-32.
inline uint64_t ddr4_addr(uint64_t bank_group, uint64_t bank, uint64_t row, uint64_t column) {
  return bank_group << 6 | column << 8 | bank << 15 | row << 17;
}

}  // namespace socsim::test
