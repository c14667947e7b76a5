// The ISS: an instruction-set simulator of the CV32E40P (RV32IMC + Zicsr + Zifencei, machine
// mode, the core's CSRs, counters, vectored traps and interrupts) that takes the RTL core's
// cycles. Rv32Hart holds the architectural state and each instruction's semantics; the cycle
// model of the CV32E40P pipeline (Cv32e40pTiming) drives it, so every instruction retires in
// the cycle the RTL core retires it and every bus request goes out in the same cycle, given
// the same memory latencies.
//
// It is the fast CPU model (`--cpu iss`) and the reference the RTL core is checked against in
// lockstep. Plain C++ without SystemC: the world is reached through a CoreEnvironment.
#pragma once

#include <cstdint>
#include <string>

#include "models/cpu/iss/rv32_hart.h"
#include "models/cpu/iss_timing/core_environment.h"
#include "models/cpu/iss_timing/cv32e40p_timing.h"
#include "models/cpu/retire.h"

namespace socsim {

class Rv32Iss {
 public:
  using Status = Cv32e40pTiming::Status;

  Rv32Iss(const IssConfig& config, CoreEnvironment& env) : hart_(config), timing_(hart_, env) {}

  /// Reset released and fetch enabled: cycle() restarts at 0.
  void reset() {
    hart_.reset();
    timing_.reset();
  }
  /// Simulates until cycle() reaches `until_cycle`, the core is asleep (WFI, no line high,
  /// nothing outstanding), a fault (fault()), or `*stop_flag` is true after a cycle.
  Status run(uint64_t until_cycle, const bool* stop_flag) {
    return timing_.run(until_cycle, stop_flag);
  }
  /// Lets `n` cycles pass while the core is asleep.
  void skip_sleep_cycles(uint64_t n) { timing_.skip_sleep_cycles(n); }

  /// Completed cycles since reset.
  uint64_t cycle() const { return timing_.cycle(); }
  /// Retired instructions delivered to the observer so far.
  uint64_t instret() const { return timing_.delivered(); }
  /// The pc of the last delivered instruction (0 before any).
  uint32_t pc() const { return timing_.last_pc(); }
  uint32_t reg(unsigned i) const { return hart_.reg(i); }
  /// Reads a CSR as csrr would, without side effects (for debuggers); false if it does not
  /// exist. The pipeline may have executed an instruction or two past the last delivered one.
  bool read_csr(uint32_t addr, uint32_t* value) const {
    if (!csr::csr_exists(addr) && !(csr::is_float_csr(addr) && hart_.config().fpu)) return false;
    *value = hart_.csr_read(addr);
    return true;
  }
  const std::string& fault() const { return timing_.fault(); }

  /// See Cv32e40pTiming::set_retire_observer: records arrive as the RTL core reports them.
  void set_retire_observer(RetireObserver* observer) { timing_.set_retire_observer(observer); }
  /// Delivers the record held back for an interrupt mark (at the end of a run).
  void flush_retire() { timing_.flush_retire(); }

  Rv32Hart& hart() { return hart_; }
  Cv32e40pTiming& timing() { return timing_; }

 private:
  Rv32Hart hart_;
  Cv32e40pTiming timing_;
};

}  // namespace socsim
