// The ISS as a platform CPU model (`--cpu iss`): runs Rv32Iss, which takes the RTL core's
// cycles, in one SystemC thread. Its loop is the RTL wrapper's (RtlCpu): the same memory
// latencies from the bridge, synchronisation with SystemC time every quantum cycles, the same
// skip over sleep cycles to the next interrupt, so both models see the SoC alike. Faults and
// lock-ups are reported through SimControl with PC and cycle.
#pragma once

#include "models/common/irq.h"
#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"
#include "models/cpu/cpu_registry.h"
#include "models/cpu/iss/rv32_iss.h"
#include "models/cpu/rtl/rtl_core.h"
#include "models/cpu/wfi_sleep.h"

namespace socsim {

/// The ISS configuration the SoC file's `cpu` section amounts to.
IssConfig iss_config_of(const CpuConfig& cpu);
/// "ISS", and with the FPU its configuration (summary.json's cpu_description).
std::string iss_description(const IssConfig& config);

class IssCpu : public CpuModel {
 public:
  SC_HAS_PROCESS(IssCpu);
  IssCpu(sc_core::sc_module_name name, const ClockDomain& clock, const IssConfig& config,
         IrqLines& irq, SimControl& control, uint64_t quantum_cycles);

  const char* kind() const override { return "iss"; }
  const char* description() const override { return description_.c_str(); }
  /// The ISS takes the cycles of socsim's rv_core (and so of the CV32E40P it is checked
  /// against); in a build whose rtl model is another core (SOCSIM_CV32E40P_RTL) they are not
  /// checked against that one.
  bool cycle_exact() const override { return RtlCore::has_retire_trace(); }
  std::string estimate_reason() const override;
  uint64_t cycles() const override { return iss_.cycle(); }
  uint64_t instructions() const override { return iss_.instret(); }
  uint32_t pc() const override { return iss_.pc(); }
  Rv32Iss& iss() { return iss_; }
  bool debug_read_csr(uint32_t address, uint32_t* value) override {
    return iss_.read_csr(address, value);
  }
  bool set_debug_halt(DebugHalt* hook) override {
    iss_.timing().set_debug_halt(hook);
    return true;
  }
  /// While halted nothing past the boundary has executed: the hart's registers are the
  /// architectural state there.
  bool debug_read_register(unsigned index, uint32_t* value) override {
    if (index > 31) return false;
    *value = iss_.reg(index);
    return true;
  }
  bool debug_write_register(unsigned index, uint32_t value) override {
    if (index == 0 || index > 31) return false;
    iss_.hart().write_reg(index, value);
    return true;
  }

 private:
  /// The SoC as the ISS's pipeline sees it: the bridge, the interrupt lines, and the sleep
  /// rules both CPU models share (WfiSleep).
  class Environment : public CoreEnvironment {
   public:
    Environment(CpuBus& bus, IrqLines& irq, WfiSleep& sleep)
        : bus_(bus), irq_(irq), sleep_(sleep) {}
    CpuBus& bus() override { return bus_; }
    uint32_t irq_lines(uint64_t cycle, uint64_t* stable_until) override {
      return irq_.pending(cycle, stable_until);
    }
    bool sleeps_through(uint32_t lines) override { return sleep_.asleep(lines); }
    void awake() override { sleep_.awake(); }

   private:
    CpuBus& bus_;
    IrqLines& irq_;
    WfiSleep& sleep_;
  };

  void attach_retire_observer(RetireObserver* observer) override {
    iss_.set_retire_observer(observer);
  }
  void run_thread();
  void sync();
  /// Lets the sleeping core's cycles pass until a line may wake it. False when nothing in
  /// the SoC can raise one any more (a lock-up).
  bool sleep_until_interrupt();

  const ClockDomain& clock_;
  IrqLines& irq_;
  SimControl& control_;
  uint64_t quantum_;
  WfiSleep sleep_;
  Environment env_;
  Rv32Iss iss_;
  std::string description_;
};

}  // namespace socsim
