// Helpers shared by the DDR unit tests.
#pragma once

#include <cstdint>
#include <string>

#include "models/ddr/ddr_config.h"
#include "models/ddr/ddr_timing.h"

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

/// Queues `bytes` of sequential reads (or writes) in `request`-sized pieces, all ready at
/// time 0, serves them and returns the achieved bandwidth.
inline double stream(DdrTiming& ddr, uint64_t bytes, uint32_t request = 64, bool write = false) {
  uint64_t front = 0;
  for (uint64_t addr = 0; addr < bytes; addr += request) {
    front = ddr.submit(front, write, addr, request);
  }
  ddr.finish();
  return ddr.stats().total().bandwidth_bytes_per_s();
}

}  // namespace socsim::test
