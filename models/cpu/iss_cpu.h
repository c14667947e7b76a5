// The ISS as a platform CPU model (`--cpu iss`): runs Rv32Iss in one SystemC thread in
// quanta of cycles (temporal decoupling), sleeps in WFI until an enabled interrupt is
// pending, and reports faults and lock-ups through SimControl with PC and cycle.
#pragma once

#include "models/common/irq.h"
#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"
#include "models/cpu/iss/rv32_iss.h"

namespace socsim {

class IssCpu : public CpuModel {
 public:
  SC_HAS_PROCESS(IssCpu);
  IssCpu(sc_core::sc_module_name name, const ClockDomain& clock, const IssConfig& config,
         IrqLines& irq, SimControl& control, uint64_t quantum_cycles);

  const char* kind() const override { return "iss"; }
  const char* description() const override { return "ISS"; }
  bool cycle_exact() const override { return false; }
  uint64_t cycles() const override { return iss_.cycle(); }
  uint64_t instructions() const override { return iss_.instret(); }
  uint32_t pc() const override { return iss_.pc(); }
  Rv32Iss& iss() { return iss_; }
  bool debug_read_csr(uint32_t address, uint32_t* value) override {
    return iss_.read_csr(address, value);
  }
  bool debug_write_register(unsigned index, uint32_t value) override {
    iss_.set_reg(index, value);
    return true;
  }

 private:
  void attach_retire_observer(RetireObserver* observer) override {
    iss_.set_retire_observer(observer);
  }
  void run_thread();
  void sync();
  bool sleep_until_interrupt();

  const ClockDomain& clock_;
  IrqLines& irq_;
  SimControl& control_;
  uint64_t quantum_;
  Rv32Iss iss_;
};

}  // namespace socsim
