#include "models/peripherals/exit_device.h"

#include <cstdio>
#include <fstream>
#include <vector>

#include "models/common/hex.h"

namespace socsim {

namespace {
constexpr uint32_t kPassMagic = 123456789;
}

ExitDevice::ExitDevice(sc_core::sc_module_name name, const ClockDomain& clock,
                       SimControl& control, std::ostream& out, MemoryReader reader)
    : RegisterDevice(name, clock), control_(control), out_(out), reader_(std::move(reader)) {}

bool ExitDevice::read_reg(uint64_t, unsigned, uint64_t, uint32_t* value) {
  *value = 0;
  return true;
}

bool ExitDevice::write_reg(uint64_t offset, unsigned, uint32_t value, uint64_t cycle) {
  switch (offset) {
    case 0x0:
      if (value == kPassMagic) {
        out_ << "ALL TESTS PASSED\n";
        control_.request_exit(0, cycle);
      } else if (value == 1) {
        out_ << "TEST(S) FAILED!\n";
        control_.request_exit(1, cycle);
      }
      return true;
    case 0x4:
      control_.request_exit(static_cast<int>(value), cycle);
      return true;
    case 0x8:
      signature_begin_ = value;
      return true;
    case 0xC:
      signature_end_ = value;
      return true;
    case 0x10:
      dump_signature(cycle);
      return true;
    default:
      return true;  // other offsets of the block are ignored, as in the testbench
  }
}

void ExitDevice::dump_signature(uint64_t cycle) {
  std::ofstream file;
  if (!signature_file_.empty()) file.open(signature_file_);
  // 64-bit addresses: an area ending at 0xFFFFFFFF ends (32 bits wrapped and never did).
  const uint64_t end = signature_end_;
  for (uint64_t addr = signature_begin_; addr + 4 <= end; addr += 4) {
    uint8_t bytes[4] = {0, 0, 0, 0};
    if (!reader_(static_cast<uint32_t>(addr), bytes, 4)) {
      // Past the memory the area should lie in: the rest would be as many lines of nothing.
      control_.report_fault(cycle, "signature area [" + hex(signature_begin_) + ", " +
                                       hex(signature_end_) + "): no memory at " + hex(addr));
      return;
    }
    char line[16];
    std::snprintf(line, sizeof line, "%02x%02x%02x%02x\n", bytes[3], bytes[2], bytes[1],
                  bytes[0]);
    out_ << line;
    if (file) file << line;
  }
  control_.request_exit(0, cycle);
}

}  // namespace socsim
