#include "models/cpu/rtl_cpu.h"

namespace socsim {

RtlCpu::RtlCpu(sc_core::sc_module_name name, const ClockDomain& clock,
               const RtlCoreConfig& config, IrqLines& irq, SimControl& control,
               uint64_t quantum_cycles)
    : CpuModel(name, clock),
      clock_(clock),
      irq_(irq),
      control_(control),
      quantum_(quantum_cycles ? quantum_cycles : 1),
      core_(std::make_unique<RtlCore>(config)),
      server_(bridge) {
  core_->set_retire_observer(this);
  SC_THREAD(run_thread);
}

RtlCpu::~RtlCpu() = default;

void RtlCpu::sync() {
  const sc_core::sc_time local = clock_.time_of(core_->cycle());
  if (local > sc_core::sc_time_stamp()) wait(local - sc_core::sc_time_stamp());
}

bool RtlCpu::serve_fetch(uint32_t addr, uint64_t now) {
  uint32_t word = 0, wait_cycles = 0;
  if (!server_.fetch(addr, now, &word, &wait_cycles)) {
    control_.report_fault(now, server_.fault(pc()));
    return false;
  }
  instr_q_.push(now + 1 + wait_cycles, word);
  return true;
}

bool RtlCpu::serve_data(const ObiRequest& req, uint64_t now) {
  uint32_t rdata = 0, wait_cycles = 0;
  if (!server_.data(req, now, &rdata, &wait_cycles)) {
    control_.report_fault(now, server_.fault(pc()));
    return false;
  }
  data_q_.push(now + 1 + wait_cycles, rdata);
  return true;
}

bool RtlCpu::sleep_until_interrupt() {
  const uint64_t now = core_->cycle();
  const uint64_t rise = irq_.next_rise();
  if (rise != IrqLines::kNever && rise > now) {
    uint64_t target = rise;
    if (max_cycles_ && target > max_cycles_) target = max_cycles_;
    core_->skip_sleep_cycles(target - now);
    return true;
  }
  // Nothing scheduled: wait for a SystemC process to raise a line. If none can, the kernel
  // runs out of events and the run ends as a lock-up.
  sync();
  if (max_cycles_) {
    const sc_core::sc_time limit = clock_.time_of(max_cycles_);
    if (limit <= sc_core::sc_time_stamp()) return true;
    wait(limit - sc_core::sc_time_stamp(), irq_.changed);
  } else {
    wait(irq_.changed);
  }
  const uint64_t woke = clock_.cycle_at(sc_core::sc_time_stamp());
  if (woke > core_->cycle()) core_->skip_sleep_cycles(woke - core_->cycle());
  return true;
}

void RtlCpu::run_thread() {
  core_->reset();
  uint64_t next_sync = quantum_;
  const bool* stop = control_.stop_flag();
  for (;;) {
    const uint64_t now = core_->cycle();
    if (max_cycles_ && now >= max_cycles_) {
      control_.report_max_cycles(now);
      break;
    }
    const uint32_t pending = irq_.pending(now);
    core_->set_irq(pending);
    if (bus_observer_ != nullptr) bus_observer_->on_cycle(now, pending);
    ObiInputs iin, din;
    iin.gnt = din.gnt = true;
    iin.rvalid = instr_q_.pop_due(now, &iin.rdata);
    din.rvalid = data_q_.pop_due(now, &din.rdata);
    core_->begin_cycle(iin, din);

    const ObiRequest ir = core_->instr_request();
    if (ir.req && !serve_fetch(ir.addr & ~3u, now)) break;
    const ObiRequest dr = core_->data_request();
    if (dr.req && !serve_data(dr, now)) break;
    const bool asleep = core_->sleeping() && pending == 0 && !ir.req && !dr.req &&
                        instr_q_.count == 0 && data_q_.count == 0;
    core_->end_cycle();
    if (*stop) break;
    if (asleep) {
      sleep_until_interrupt();
      next_sync = core_->cycle() + quantum_;
      if (progress_) progress_(core_->cycle());
      continue;
    }
    if (core_->cycle() >= next_sync) {
      sync();
      next_sync = core_->cycle() + quantum_;
      if (progress_) progress_(core_->cycle());
    }
  }
  core_->flush_retire();
  sync();
  sc_core::sc_stop();
}

}  // namespace socsim
