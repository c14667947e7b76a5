#include "models/cpu/iss_cpu.h"

#include <algorithm>
#include <cstdio>

#include "models/common/hex.h"

namespace socsim {

IssCpu::IssCpu(sc_core::sc_module_name name, const ClockDomain& clock, const IssConfig& config,
               IrqLines& irq, SimControl& control, uint64_t quantum_cycles)
    : CpuModel(name, clock),
      clock_(clock),
      irq_(irq),
      control_(control),
      quantum_(quantum_cycles ? quantum_cycles : 1),
      iss_(config, bridge, irq) {
  SC_THREAD(run_thread);
}

void IssCpu::sync() {
  const sc_core::sc_time local = clock_.time_of(iss_.cycle());
  if (local > sc_core::sc_time_stamp()) wait(local - sc_core::sc_time_stamp());
}

bool IssCpu::sleep_until_interrupt() {
  // The core sleeps until an enabled interrupt is pending (mstatus.MIE does not matter).
  for (;;) {
    const uint64_t now = iss_.cycle();
    if (iss_.wake_mask(now) != 0) {
      iss_.wake(now);
      return true;
    }
    if (iss_.mie() == 0) {
      control_.report_fault(now, "lock-up: WFI at pc " + hex(iss_.pc() - 4) +
                                     " with no interrupt enabled (mie = 0)");
      return false;
    }
    if (max_cycles_ && now >= max_cycles_) {
      control_.report_max_cycles(now);
      return false;
    }
    const uint64_t rise = irq_.next_rise();
    if (rise != IrqLines::kNever && rise > now) {
      const uint64_t wake = max_cycles_ && rise > max_cycles_ ? max_cycles_ : rise;
      iss_.wake(wake);  // time passes while asleep; re-check the lines at `wake`
      continue;
    }
    if (clock_.time_of(now) > sc_core::sc_time_stamp()) {
      // Catch up with SystemC time; a line raised meanwhile is seen at the top.
      sync();
      continue;
    }
    // Wait for a SystemC process to raise a line. When none has anything left to do,
    // nothing can ever wake the core.
    if (!sc_core::sc_pending_activity()) {
      control_.report_fault(now, "lock-up: WFI at pc " + hex(iss_.pc() - 4) +
                                     " and nothing in the SoC can raise an interrupt enabled "
                                     "in mie (" + hex(iss_.mie()) + ")");
      return false;
    }
    const uint64_t until = max_cycles_ ? std::min(max_cycles_, now + quantum_) : now + quantum_;
    wait(clock_.time_of(until) - sc_core::sc_time_stamp(), irq_.changed);
    const uint64_t woke = clock_.cycle_at(sc_core::sc_time_stamp());
    if (woke > now) iss_.wake(woke);
  }
}

void IssCpu::run_thread() {
  while (!control_.stopped()) {
    uint64_t until = iss_.cycle() + quantum_;
    if (max_cycles_ && until > max_cycles_) until = max_cycles_;
    const Rv32Iss::Status status = iss_.run(until, control_.stop_flag());
    if (status == Rv32Iss::Status::kStopped) {
      if (!control_.stopped()) control_.report_fault(iss_.cycle(), iss_.fault());
      break;
    }
    if (status == Rv32Iss::Status::kSleep) {
      if (!sleep_until_interrupt()) break;
      continue;
    }
    if (max_cycles_ && iss_.cycle() >= max_cycles_) {
      control_.report_max_cycles(iss_.cycle());
      break;
    }
    sync();
    if (progress_) progress_(iss_.cycle());
  }
  sync();
  sc_core::sc_stop();
}

}  // namespace socsim
