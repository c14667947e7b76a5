// Lockstep checking: the ISS re-executes every instruction the RTL core retires and the
// two retire records are compared (pc, instruction, destination register and value, memory
// access, trap). The first divergence stops the run as a simulation fault that shows both
// records and the cycle.
//
// The ISS does not touch the SoC: its loads return the data the RTL core loaded (after
// checking address and size), its stores are compared, not performed; instructions are
// fetched from memory. Values only the hardware knows (mcycle and the other counters, mip)
// are taken from the RTL core, and interrupts are taken by the ISS where the core took them.
#pragma once

#include <string>

#include "models/common/sim_control.h"
#include "models/cpu/cpu_bus.h"
#include "models/cpu/iss/rv32_iss.h"
#include "models/cpu/retire.h"

namespace socsim {

class LockstepChecker : public RetireObserver {
 public:
  /// `memory` serves instruction fetches (the platform's bridge); `downstream` (optional)
  /// receives every RTL record after it was checked.
  LockstepChecker(const IssConfig& config, CpuBus& memory, SimControl& control,
                  RetireObserver* downstream = nullptr);

  void on_retire(const RetireRecord& rtl) override;
  uint64_t checked() const { return checked_; }
  bool diverged() const { return diverged_; }

 private:
  class ShadowBus : public CpuBus {
   public:
    explicit ShadowBus(CpuBus& memory) : memory_(memory) {}
    BusResult read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                   uint64_t cycle) override;
    BusResult write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                    uint64_t cycle) override;
    DirectWindow direct_window(BusPort port, uint32_t addr) override;

    const RetireRecord* rtl = nullptr;
    std::string mismatch;  ///< the first access the RTL record does not account for

   private:
    bool covered(uint32_t addr, unsigned bytes, bool write) const;
    CpuBus& memory_;
  };
  class Capture : public RetireObserver {
   public:
    void on_retire(const RetireRecord& r) override {
      record = r;
      seen = true;
    }
    RetireRecord record;
    bool seen = false;
  };

  void diverge(const RetireRecord& rtl, const std::string& what);

  ShadowBus bus_;
  IrqLines irq_;
  Rv32Iss iss_;
  Capture capture_;
  SimControl& control_;
  RetireObserver* downstream_;
  uint64_t checked_ = 0;
  bool diverged_ = false;
  int pending_irq_ = -1;  ///< line the ISS must take before its next instruction
};

/// One line describing a retire record, for messages and traces.
std::string describe(const RetireRecord& r);

}  // namespace socsim
