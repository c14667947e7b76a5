// The core-v-verif testbench's control block at 0x1500_0000 (8 KiB):
//   +0x0000 timer interrupt mask, +0x0004 countdown (accepted; not connected to the core,
//           as in that testbench), +0x0008 debug request control (accepted, no effect)
//   +0x1000 read: random number (0, as under Verilator)
//   +0x1004 read: 32-bit count of clock cycles since reset; any write clears it
#pragma once

#include "models/peripherals/register_device.h"

namespace socsim {

class CorevCtrl : public RegisterDevice {
 public:
  CorevCtrl(sc_core::sc_module_name name, const ClockDomain& clock);

 protected:
  bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) override;
  bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) override;

 private:
  uint64_t counter_base_ = 0;
  uint32_t regs_[3] = {0, 0, 0};
};

/// A region that reads 0 and ignores writes (e.g. the testbench's stall-control page).
class NullDevice : public RegisterDevice {
 public:
  using RegisterDevice::RegisterDevice;

 protected:
  bool read_reg(uint64_t, unsigned, uint64_t, uint32_t* value) override {
    *value = 0;
    return true;
  }
  bool write_reg(uint64_t, unsigned, uint32_t, uint64_t) override { return true; }
};

}  // namespace socsim
