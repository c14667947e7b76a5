#include "models/cpu/rtl_cpu.h"

#include "models/common/hex.h"
#include "models/common/host_stop.h"
#include "models/cpu/iss/rv32_csr.h"

namespace socsim {

RtlCpu::RtlCpu(sc_core::sc_module_name name, const ClockDomain& clock,
               const RtlCoreConfig& config, IrqLines& irq, SimControl& control,
               uint64_t quantum_cycles)
    : CpuModel(name, clock),
      clock_(clock),
      irq_(irq),
      control_(control),
      quantum_(quantum_cycles ? quantum_cycles : 1),
      hart_id_(config.hart_id),
      fpu_(config.fpu && RtlCore::has_runtime_fpu()),
      description_(RtlCore::description(config)),
      core_(std::make_unique<RtlCore>(config)),
      server_(bridge),
      sleep_(clock, irq, quantum_) {
  core_->set_retire_observer(this);
  SC_THREAD(run_thread);
}

RtlCpu::~RtlCpu() = default;

bool RtlCpu::debug_read_csr(uint32_t address, uint32_t* value) {
  switch (address) {
    case csr::kMisa: *value = csr::kMisaValue | (fpu_ ? csr::kMisaF : 0); return true;
    case csr::kMvendorid: *value = csr::kMvendoridValue; return true;
    case csr::kMarchid: *value = csr::kMarchidValue; return true;
    case csr::kMimpid: *value = fpu_ ? 1 : 0; return true;
    case csr::kMhartid: *value = hart_id_; return true;
    default: return false;
  }
}

void RtlCpu::sync() {
  const sc_core::sc_time local = clock_.time_of(core_->cycle());
  if (local > sc_core::sc_time_stamp()) wait(local - sc_core::sc_time_stamp());
}

bool RtlCpu::serve_fetch(uint32_t addr, uint64_t now) {
  uint32_t word = 0, wait_cycles = 0;
  if (!server_.fetch(addr, now, &word, &wait_cycles)) {
    if (!RtlCore::has_retire_trace()) {
      // Without a retire trace nothing tells whether the word is executed: fault now.
      control_.report_fault(now, server_.fault(pc()));
      return false;
    }
    // A prefetch beyond the end of memory: a fault only if the word is executed (the core
    // is given an illegal instruction, and the retire trace tells).
    core_->mark_failed_fetch(addr);
    word = 0;
    wait_cycles = 0;
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
  return sleep_.wait_for_interrupt(
      max_cycles_, [this] { return core_->cycle(); },
      [this](uint64_t n) { core_->skip_sleep_cycles(n); }, [this] { sync(); });
}

void RtlCpu::run_thread() {
  core_->reset();
  uint64_t next_sync = quantum_;
  const bool* stop = control_.stop_flag();
  bool locked_up = false;
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
    bool asleep = false;
    if (core_->sleeping()) {
      asleep = !ir.req && !dr.req && instr_q_.count == 0 && data_q_.count == 0 &&
               sleep_.asleep(pending);
    } else {
      sleep_.awake();
    }
    core_->end_cycle();
    if (core_->failed_fetch_executed()) {
      control_.report_fault(now, "bus error: instruction fetch of 4 bytes at " +
                                     hex(core_->failed_fetch_addr()) +
                                     " (unmapped or refused), for the instruction at pc " +
                                     hex(core_->failed_fetch_pc()));
      break;
    }
    if (*stop) break;
    if (asleep) {
      if (!sleep_until_interrupt()) {
        locked_up = true;
        break;
      }
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
  // A lock-up after a stop request is its consequence (an NPU layer cut short): the platform
  // reports the stop (platform/simulation.cpp).
  if (locked_up && !HostStop::requested()) {
    control_.report_fault(core_->cycle(), sleep_.lockup_message(pc()));
  }
  core_->flush_retire();
  sync();
  sc_core::sc_stop();
}

}  // namespace socsim
