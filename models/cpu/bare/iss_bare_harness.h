// IssBareHarness: the ISS (with its CV32E40P cycle model) in the bare harness's world
// (BareSystem), the counterpart of the RTL core's BareHarness: the same memory, devices and
// wait states, so the two print the same bus trace when they agree cycle for cycle.
#pragma once

#include "models/cpu/bare/bare_system.h"
#include "models/cpu/iss/rv32_iss.h"

namespace socsim {

class IssBareHarness : public BareHarnessBase, private CoreEnvironment,
                       private ObiRequestObserver {
 public:
  explicit IssBareHarness(const BareHarnessOptions& options);

  /// Resets the ISS and runs until the firmware exits or max_cycles pass.
  RunResult run();

  Rv32Iss& iss() { return iss_; }
  void set_retire_observer(RetireObserver* observer) { iss_.set_retire_observer(observer); }

 private:
  // CoreEnvironment
  CpuBus& bus() override { return system_; }
  uint32_t irq_lines(uint64_t cycle, uint64_t* stable_until) override {
    return system_.irq_lines(cycle, stable_until);
  }
  bool withholds_grants() const override { return system_.options().random_waits; }
  void grants(uint64_t, bool* instr_gnt, bool* data_gnt) override {
    system_.grants(instr_gnt, data_gnt);
  }
  // ObiRequestObserver: the stability check and the bus trace
  void on_requests(uint64_t cycle, const ObiRequest& instr, bool instr_gnt,
                   const ObiRequest& data, bool data_gnt) override;

  Rv32Iss iss_;
  std::string protocol_error_;
};

}  // namespace socsim
