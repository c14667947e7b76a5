// The Verilated core as a platform CPU model (`--cpu rtl`): exact cycle for cycle.
//
// One SystemC thread steps RtlCore in a plain C++ loop, a clock cycle at a time, and turns
// its OBI requests into CpuBus accesses through the OBI-to-TLM bridge: grant in the request
// cycle, rvalid one cycle later plus the wait cycles the target's latency amounts to (in
// order, one response per cycle per port), so zero-wait SRAM behaves exactly like the
// core-v-verif testbench's memory and slower targets (DDR) stall the core as a bus would.
// It synchronises with SystemC time every quantum, and while the core sleeps it skips to
// the cycle at which an interrupt will wake it.
#pragma once

#include <memory>
#include <string>

#include "models/common/irq.h"
#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"
#include "models/cpu/obi_server.h"
#include "models/cpu/rtl/obi_response_queue.h"
#include "models/cpu/rtl/rtl_core.h"
#include "models/cpu/wfi_sleep.h"

namespace socsim {

class RtlCpu : public CpuModel, private RetireObserver {
 public:
  SC_HAS_PROCESS(RtlCpu);
  RtlCpu(sc_core::sc_module_name name, const ClockDomain& clock, const RtlCoreConfig& config,
         IrqLines& irq, SimControl& control, uint64_t quantum_cycles);
  ~RtlCpu() override;

  const char* kind() const override { return "rtl"; }
  bool cycle_exact() const override { return true; }
  bool has_retire_trace() const override { return RtlCore::has_retire_trace(); }
  /// The core, and its FPU configuration when it has one (summary.json's cpu_description).
  const char* description() const override { return description_.c_str(); }
  uint64_t cycles() const override { return core_->cycle(); }
  uint64_t instructions() const override { return core_->delivered(); }
  uint32_t pc() const override { return core_->last_delivered_pc(); }
  bool set_bus_observer(BusObserver* observer) override {
    bus_observer_ = observer;
    server_.set_observer(observer);
    return true;
  }
  bool set_debug_halt(DebugHalt* hook) override { return core_->set_debug_halt(hook); }
  /// While halted: the register file (rtl/rv_regfile.sv's regs_q, public to the simulator).
  bool debug_read_register(unsigned index, uint32_t* value) override {
    if (index > 31) return false;
    *value = core_->read_register(index);
    return true;
  }
  bool debug_write_register(unsigned index, uint32_t value) override {
    if (index == 0 || index > 31) return false;
    core_->write_register(index, value);
    return true;
  }
  /// The identification CSRs only: the Verilated core's other CSRs are not visible.
  bool debug_read_csr(uint32_t address, uint32_t* value) override;
  std::string open_waveform(const std::string& path, uint64_t first, uint64_t end) override {
    return core_->open_waveform(path, first, end, clock_.period_ps());
  }
  void close_waveform() override { core_->close_waveform(); }

 private:
  /// The core hands records straight to `observer`; without one, to this wrapper, which
  /// ignores them but keeps the core counting.
  void attach_retire_observer(RetireObserver* observer) override {
    core_->set_retire_observer(observer != nullptr ? observer : this);
  }
  void run_thread();
  void sync();
  bool serve_fetch(uint32_t addr, uint64_t now);
  bool serve_data(const ObiRequest& req, uint64_t now);
  /// Lets the sleeping core's cycles pass until a line may wake it. False when nothing in
  /// the SoC can raise one any more (a lock-up).
  bool sleep_until_interrupt();
  void on_retire(const RetireRecord&) override {}

  const ClockDomain& clock_;
  IrqLines& irq_;
  SimControl& control_;
  uint64_t quantum_;
  uint32_t hart_id_;
  bool fpu_;
  std::string description_;
  std::unique_ptr<RtlCore> core_;
  ObiServer server_;
  BusObserver* bus_observer_ = nullptr;
  ObiResponseQueue instr_q_, data_q_;
  WfiSleep sleep_;
};

}  // namespace socsim
