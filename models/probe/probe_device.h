// The probe register block (region type `probe`): firmware marks the begin and end of a
// region with one store each; the probes read the marks from the retire trace, so the
// device only has to accept them as an ordinary zero-wait store (a core without a retire
// trace gets them from the device instead: set_store_hook).
//   +0x0 write: BEGIN region id
//   +0x4 write: END region id
//   +0x8 write: VALUE, the element count of the innermost open region
//   +0xC read:  kProbeMagic ("PROB"), so firmware can check the device is there
// Other offsets read 0; writes elsewhere are refused (a bus error names the address).
#pragma once

#include <cstdint>
#include <functional>

#include "models/peripherals/register_device.h"

namespace socsim {

class ProbeDevice : public RegisterDevice {
 public:
  static constexpr uint32_t kBegin = 0x0;
  static constexpr uint32_t kEnd = 0x4;
  static constexpr uint32_t kValue = 0x8;
  static constexpr uint32_t kMagicOffset = 0xC;
  static constexpr uint32_t kProbeMagic = 0x50524F42;

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
