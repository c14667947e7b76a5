// The interface every CPU model of the platform implements (ISS today, the Verilated core
// behind the same interface). A CPU model owns its OBI-to-TLM bridge; the platform binds
// the bridge's two sockets to the router.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>

#include "models/cpu/obi_server.h"
#include "models/cpu/obi_tlm_bridge.h"
#include "models/cpu/retire.h"

namespace socsim {

class CpuModel : public sc_core::sc_module {
 public:
  CpuModel(sc_core::sc_module_name name, const ClockDomain& clock)
      : sc_module(name), bridge("bridge", clock) {}

  /// "iss" or "rtl".
  virtual const char* kind() const = 0;
  /// True when cycle counts are exact: the RTL core; the ISS wherever it models the RTL core
  /// of this build.
  virtual bool cycle_exact() const = 0;
  /// Why the cycle counts are not exact ("" when they are), for the reports' label.
  virtual std::string estimate_reason() const { return ""; }
  virtual uint64_t cycles() const = 0;
  virtual uint64_t instructions() const = 0;
  virtual uint32_t pc() const = 0;
  virtual void set_retire_observer(RetireObserver* observer) = 0;
  /// Sees every cycle's interrupt lines and every bus access (lockstep); false if the model
  /// cannot report them.
  virtual bool set_bus_observer(BusObserver*) { return false; }
  /// False when the model reports no retired instructions (the OpenHW CV32E40P built with
  /// SOCSIM_CV32E40P_RTL): probes and lockstep need them; cycles are still exact.
  virtual bool has_retire_trace() const { return true; }
  /// What the model is, for reports ("socsim rv_core", "OpenHW CV32E40P", "ISS").
  virtual const char* description() const = 0;
  /// Stop with a cycle-limit report when this many cycles have run (0 = no limit).
  void set_max_cycles(uint64_t cycles) { max_cycles_ = cycles; }
  /// Called at synchronisation points with the current cycle (for progress display).
  void set_progress(std::function<void(uint64_t)> progress) { progress_ = std::move(progress); }

  ObiTlmBridge bridge;

 protected:
  uint64_t max_cycles_ = 0;
  std::function<void(uint64_t)> progress_;
};

}  // namespace socsim
