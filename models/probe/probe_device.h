// The probe register block (region type `probe`): firmware marks the begin and end of a
// region with one store each; the probes read the marks from the retire trace, so the
// device only has to accept them as an ordinary zero-wait store (a core without a retire
// trace gets them from the device instead: set_store_hook).
//   +0x0 write: BEGIN region id
//   +0x4 write: END region id
//   +0x8 write: VALUE, the element count of the innermost open region
//   +0xC read:  kProbeMagic ("PROB"), so firmware can check the device is there
// (offsets and magic: firmware/abi/probe_registers.h, shared with the firmware's HAL)
// Other offsets read 0; writes elsewhere are refused (a bus error names the address).
#pragma once

#include <cstdint>
#include <functional>

#include "firmware/abi/probe_registers.h"
#include "models/peripherals/register_device.h"

namespace socsim {

class ProbeDevice : public RegisterDevice {
 public:
  static constexpr uint32_t kBegin = SOCSIM_PROBE_REG_BEGIN;
  static constexpr uint32_t kEnd = SOCSIM_PROBE_REG_END;
  static constexpr uint32_t kValue = SOCSIM_PROBE_REG_VALUE;
  static constexpr uint32_t kMagicOffset = SOCSIM_PROBE_REG_MAGIC;
  static constexpr uint32_t kProbeMagic = SOCSIM_PROBE_MAGIC_VALUE;

  using RegisterDevice::RegisterDevice;
  /// Stores accepted so far (BEGIN, END and VALUE).
  uint64_t marks() const { return marks_; }
  /// Called for every accepted store with its offset, value and the core cycle of the
  /// request: mark probes for a core without a retire trace (models/probe/store_marks.h).
  using StoreHook = std::function<void(uint32_t offset, uint32_t value, uint64_t cycle)>;
  void set_store_hook(StoreHook hook) { hook_ = std::move(hook); }

 protected:
  bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) override;
  bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) override;

 private:
  uint64_t marks_ = 0;
  StoreHook hook_;
};

}  // namespace socsim
