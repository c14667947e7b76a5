// Machine timer in the CLINT layout: msip at +0x0 (software interrupt, irq 3), mtimecmp at
// +0x4000/+0x4004, mtime at +0xBFF8/+0xBFFC. mtime counts at its own frequency, derived
// from the core's cycle count, so the timer interrupt (irq 7) rises at an exact core cycle
// however far ahead a decoupled CPU runs.
#pragma once

#include "models/common/irq.h"
#include "models/peripherals/register_device.h"

namespace socsim {

class ClintTimer : public RegisterDevice {
 public:
  ClintTimer(sc_core::sc_module_name name, const ClockDomain& clock, IrqLines& irq,
             uint64_t timer_hz, unsigned timer_irq = 7, unsigned software_irq = 3);

  uint64_t mtime(uint64_t cycle) const;

 protected:
  bool read_reg(uint64_t offset, unsigned size, uint64_t cycle, uint32_t* value) override;
  bool write_reg(uint64_t offset, unsigned size, uint32_t value, uint64_t cycle) override;

 private:
  void reschedule(uint64_t cycle);

  IrqLines& irq_;
  uint64_t cpu_hz_;
  uint64_t timer_hz_;
  unsigned timer_irq_;
  unsigned software_irq_;
  uint64_t mtimecmp_ = ~0ull;
  int64_t mtime_offset_ = 0;  ///< set by writes to mtime
  uint32_t msip_ = 0;
};

}  // namespace socsim
