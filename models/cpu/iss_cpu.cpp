#include "models/cpu/iss_cpu.h"

namespace socsim {

IssCpu::IssCpu(sc_core::sc_module_name name, const ClockDomain& clock, const IssConfig& config,
               IrqLines& irq, SimControl& control, uint64_t quantum_cycles)
    : CpuModel(name, clock),
      clock_(clock),
      irq_(irq),
      control_(control),
      quantum_(quantum_cycles ? quantum_cycles : 1),
      env_(bridge, irq),
      iss_(config, env_) {
  SC_THREAD(run_thread);
}

std::string IssCpu::estimate_reason() const {
  if (cycle_exact()) return "";
  return std::string("the ISS has the timing of socsim's rv_core, not checked against this "
                     "build's ") + RtlCore::description();
}

void IssCpu::sync() {
  const sc_core::sc_time local = clock_.time_of(iss_.cycle());
  if (local > sc_core::sc_time_stamp()) wait(local - sc_core::sc_time_stamp());
}

void IssCpu::sleep_until_interrupt() {
  const uint64_t now = iss_.cycle();
  const uint64_t rise = irq_.next_rise();
  if (rise != IrqLines::kNever && rise > now) {
    uint64_t target = rise;
    if (max_cycles_ && target > max_cycles_) target = max_cycles_;
    iss_.skip_sleep_cycles(target - now);
    return;
  }
  // Nothing scheduled: wait for a SystemC process to raise a line. If none can, the kernel
  // runs out of events and the run ends as a lock-up.
  sync();
  if (max_cycles_) {
    const sc_core::sc_time limit = clock_.time_of(max_cycles_);
    if (limit <= sc_core::sc_time_stamp()) return;
    wait(limit - sc_core::sc_time_stamp(), irq_.changed);
  } else {
    wait(irq_.changed);
  }
  const uint64_t woke = clock_.cycle_at(sc_core::sc_time_stamp());
  if (woke > iss_.cycle()) iss_.skip_sleep_cycles(woke - iss_.cycle());
}

void IssCpu::run_thread() {
  iss_.reset();
  uint64_t next_sync = quantum_;
  const bool* stop = control_.stop_flag();
  for (;;) {
    if (max_cycles_ && iss_.cycle() >= max_cycles_) {
      control_.report_max_cycles(iss_.cycle());
      break;
    }
    const uint64_t until = max_cycles_ && max_cycles_ < next_sync ? max_cycles_ : next_sync;
    const Rv32Iss::Status status = iss_.run(until, stop);
    if (status == Rv32Iss::Status::kStopped) {
      if (!control_.stopped()) control_.report_fault(iss_.cycle(), iss_.fault());
      break;
    }
    if (status == Rv32Iss::Status::kSleep) {
      sleep_until_interrupt();
      next_sync = iss_.cycle() + quantum_;
      if (progress_) progress_(iss_.cycle());
      continue;
    }
    if (iss_.cycle() >= next_sync) {
      sync();
      next_sync = iss_.cycle() + quantum_;
      if (progress_) progress_(iss_.cycle());
    }
  }
  iss_.flush_retire();
  sync();
  sc_core::sc_stop();
}

}  // namespace socsim
