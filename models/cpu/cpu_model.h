// The interface every CPU model of the platform implements (ISS today, the Verilated core
// behind the same interface). A CPU model owns its OBI-to-TLM bridge; the platform binds
// the bridge's two sockets to the router.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "models/cpu/obi_server.h"
#include "models/cpu/obi_tlm_bridge.h"
#include "models/cpu/retire.h"

namespace socsim {

/// Hands each retire record to several observers, in the order they were added.
class RetireObserverList final : public RetireObserver {
 public:
  void add(RetireObserver* observer) { observers_.push_back(observer); }
  size_t size() const { return observers_.size(); }
  RetireObserver* front() const { return observers_.front(); }
  void on_retire(const RetireRecord& record) override {
    for (RetireObserver* o : observers_) o->on_retire(record);
  }

 private:
  std::vector<RetireObserver*> observers_;
};

class CpuModel : public sc_core::sc_module {
 public:
  CpuModel(sc_core::sc_module_name name, const ClockDomain& clock)
      : sc_module(name), bridge("bridge", clock) {}

  /// Its name in the CPU-model registry (models/cpu/cpu_registry.h): "iss", "rtl".
  virtual const char* kind() const = 0;
  /// True when cycle counts are exact: the RTL core; the ISS wherever it models the RTL core
  /// of this build.
  virtual bool cycle_exact() const = 0;
  /// Why the cycle counts are not exact ("" when they are), for the reports' label.
  virtual std::string estimate_reason() const { return ""; }
  virtual uint64_t cycles() const = 0;
  virtual uint64_t instructions() const = 0;
  virtual uint32_t pc() const = 0;
  /// Sees every cycle's interrupt lines and every bus access (lockstep); false if the model
  /// cannot report them.
  virtual bool set_bus_observer(BusObserver*) { return false; }
  /// False when the model reports no retired instructions (the OpenHW CV32E40P built with
  /// SOCSIM_CV32E40P_RTL): probes and lockstep need them; cycles are still exact.
  virtual bool has_retire_trace() const { return true; }
  /// What the model is, for reports ("socsim rv_core", "OpenHW CV32E40P", "ISS").
  virtual const char* description() const = 0;

  /// Adds an observer of the retire trace (not owned; it must outlive the run). Every
  /// record reaches every observer, in the order they were added. A single observer is
  /// handed to the core itself, so it costs no forwarding call per instruction.
  void add_retire_observer(RetireObserver* observer) {
    observers_.add(observer);
    attach_retire_observer(observers_.size() == 1 ? observers_.front() : &observers_);
  }
  /// For a debugger, while the core is halted (DebugHalt::halted()): reads the CSR at
  /// `address`; false when the model cannot show it.
  virtual bool debug_read_csr(uint32_t address, uint32_t* value) {
    (void)address;
    (void)value;
    return false;
  }
  /// A debugger's halt (DebugHalt, models/cpu/retire.h): the core asks `hook` before each
  /// instruction enters EX and halts where it says. Set before the run starts; false when the
  /// model cannot halt (the OpenHW CV32E40P built with SOCSIM_CV32E40P_RTL).
  virtual bool set_debug_halt(DebugHalt* hook) {
    (void)hook;
    return false;
  }
  /// For a debugger, while the core is halted (during DebugHalt::halted()): x`index` (0..31)
  /// of the register file, which is then the architectural state at the halt's boundary.
  virtual bool debug_read_register(unsigned index, uint32_t* value) {
    (void)index;
    (void)value;
    return false;
  }
  /// Writes x`index` (1..31) while the core is halted; false when the model cannot.
  virtual bool debug_write_register(unsigned index, uint32_t value) {
    (void)index;
    (void)value;
    return false;
  }
  /// Writes the core's signals for cycles [first, end) (end 0: to the end) to the FST file
  /// `path`. "" on success, otherwise why not (only the RTL core has signals).
  virtual std::string open_waveform(const std::string& path, uint64_t first, uint64_t end) {
    (void)path;
    (void)first;
    (void)end;
    return std::string("waveforms are the RTL core's signals; this CPU model is the ") +
           description() + " (use --cpu rtl)";
  }
  virtual void close_waveform() {}
  /// Stop with a cycle-limit report when this many cycles have run (0 = no limit).
  void set_max_cycles(uint64_t cycles) { max_cycles_ = cycles; }
  /// Called at synchronisation points with the current cycle (for progress display).
  void set_progress(std::function<void(uint64_t)> progress) { progress_ = std::move(progress); }

  ObiTlmBridge bridge;

 protected:
  /// Makes `observer` the one receiver of the core's retire records.
  virtual void attach_retire_observer(RetireObserver* observer) = 0;

  uint64_t max_cycles_ = 0;
  std::function<void(uint64_t)> progress_;

 private:
  RetireObserverList observers_;
};

}  // namespace socsim
