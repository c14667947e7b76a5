#include "models/peripherals/corev_ctrl.h"

namespace socsim {

CorevCtrl::CorevCtrl(sc_core::sc_module_name name, const ClockDomain& clock)
    : RegisterDevice(name, clock) {}

bool CorevCtrl::read_reg(uint64_t offset, unsigned, uint64_t cycle, uint32_t* value) {
  if (offset < 0xC) {
    *value = regs_[offset / 4];
  } else if (offset == 0x1004) {
    // The testbench counts edges since reset; the access's own cycle is included.
    *value = static_cast<uint32_t>(cycle + 1 - counter_base_);
  } else {
    *value = 0;
  }
  return true;
}

bool CorevCtrl::write_reg(uint64_t offset, unsigned, uint32_t value, uint64_t cycle) {
  if (offset < 0xC) {
    regs_[offset / 4] = value;
  } else if (offset == 0x1004) {
    counter_base_ = cycle + 1;
  }
  return true;
}

}  // namespace socsim
