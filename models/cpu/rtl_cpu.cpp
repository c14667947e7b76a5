#include "models/cpu/rtl_cpu.h"

#include <cstdio>
#include <algorithm>
#include <cstring>

#include "models/common/hex.h"
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
      core_(std::make_unique<RtlCore>(config)) {
  core_->set_retire_observer(this);
  SC_THREAD(run_thread);
}

RtlCpu::~RtlCpu() = default;

bool RtlCpu::debug_read_csr(uint32_t address, uint32_t* value) {
  switch (address) {
    case csr::kMisa: *value = csr::kMisaValue; return true;
    case csr::kMvendorid: *value = csr::kMvendoridValue; return true;
    case csr::kMarchid: *value = csr::kMarchidValue; return true;
    case csr::kMimpid: *value = 0; return true;
    case csr::kMhartid: *value = hart_id_; return true;
    default: return false;
  }
}

void RtlCpu::sync() {
  const sc_core::sc_time local = clock_.time_of(core_->cycle());
  if (local > sc_core::sc_time_stamp()) wait(local - sc_core::sc_time_stamp());
}

bool RtlCpu::serve_fetch(uint32_t addr, uint64_t now) {
  uint32_t word;
  uint32_t wait_cycles = 0;
  if (fetch_window_.contains(addr, 4)) {
    std::memcpy(&word, fetch_window_.data + (addr - fetch_window_.base), 4);
    wait_cycles = fetch_window_.read_wait;
  } else {
    fetch_window_ = bridge.direct_window(BusPort::kInstr, addr);
    if (fetch_window_.contains(addr, 4)) return serve_fetch(addr, now);
    const BusResult r = bridge.read(BusPort::kInstr, addr, 4, &word, now);
    if (!r.ok) {
      if (!RtlCore::has_retire_trace()) {
        // Without a retire trace nothing tells whether the word is executed: fault now.
        control_.report_fault(now, "bus error: instruction fetch of 4 bytes at " + hex(addr) +
                                       " (unmapped or refused), after the instruction at pc " +
                                       hex(pc()));
        return false;
      }
      // A prefetch beyond the end of memory: a fault only if the word is executed (the
      // core is given an illegal instruction, and the retire trace tells).
      core_->mark_failed_fetch(addr);
      word = 0;
      wait_cycles = 0;
    } else {
      wait_cycles = r.wait_cycles;
    }
  }
  instr_q_.push(now + 1 + wait_cycles, word);
  return true;
}

bool RtlCpu::serve_data(const ObiRequest& req, uint64_t now) {
  // OBI: byte enables select lanes of the word at addr & ~3 (the address may also carry the
  // offset of the first enabled byte, as the CV32E40P's does); the bus sees the enabled bytes.
  const unsigned offset = req.be ? __builtin_ctz(req.be) : 0;
  // Bits set in the 4-bit byte enable (__builtin_popcount is a library call without -mpopcnt).
  static constexpr uint8_t kEnabled[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
  const unsigned bytes = req.be ? kEnabled[req.be & 0xF] : 4;
  const uint32_t addr = (req.addr & ~3u) + offset;
  uint32_t rdata = 0;
  uint32_t wait_cycles = 0;
  if (data_window_.contains(addr, bytes) && (!req.we || data_window_.writable)) {
    uint8_t* p = data_window_.data + (addr - data_window_.base);
    if (req.we) {
      const uint32_t v = req.wdata >> (8 * offset);
      std::memcpy(p, &v, bytes);
      wait_cycles = data_window_.write_wait;
    } else {
      uint32_t v = 0;
      std::memcpy(&v, p, bytes);
      rdata = v << (8 * offset);
      wait_cycles = data_window_.read_wait;
    }
  } else {
    const DirectWindow w = bridge.direct_window(BusPort::kData, addr);
    if (w.contains(addr, bytes) && (!req.we || w.writable)) {
      data_window_ = w;
      return serve_data(req, now);
    }
    BusResult r;
    if (req.we) {
      r = bridge.write(BusPort::kData, addr, bytes, req.wdata >> (8 * offset), now);
    } else {
      uint32_t v = 0;
      r = bridge.read(BusPort::kData, addr, bytes, &v, now);
      rdata = v << (8 * offset);
    }
    if (!r.ok) {
      control_.report_fault(now, std::string("bus error: ") + (req.we ? "store" : "load") +
                                     " of " + std::to_string(bytes) + " byte(s) at " + hex(addr) +
                                     " (unmapped or refused), after the instruction at pc " +
                                     hex(pc()));
      return false;
    }
    wait_cycles = r.wait_cycles;
  }
  data_q_.push(now + 1 + wait_cycles, rdata);
  return true;
}

bool RtlCpu::sleep_until_interrupt() {
  for (;;) {
    const uint64_t now = core_->cycle();
    if ((irq_.pending(now) & ~masked_irqs_) != 0) return true;
    const uint64_t rise = irq_.next_rise();
    if (rise != IrqLines::kNever && rise > now) {
      // A line rises at a known cycle: skip to it (or to the cycle limit).
      uint64_t target = rise;
      if (max_cycles_ && target > max_cycles_) target = max_cycles_;
      core_->skip_sleep_cycles(target - now);
      return true;
    }
    if (clock_.time_of(now) > sc_core::sc_time_stamp()) {
      // Catch up with SystemC time; a line raised meanwhile is seen at the top.
      sync();
      continue;
    }
    if (max_cycles_ && now >= max_cycles_) return true;  // the loop reports the limit
    // Wait for a SystemC process to raise a line. When none has anything left to do,
    // nothing can ever wake the core.
    if (!sc_core::sc_pending_activity()) return false;
    const uint64_t until = max_cycles_ ? std::min(max_cycles_, now + quantum_) : now + quantum_;
    wait(clock_.time_of(until) - sc_core::sc_time_stamp(), irq_.changed);
    const uint64_t woke = clock_.cycle_at(sc_core::sc_time_stamp());
    if (woke > core_->cycle()) core_->skip_sleep_cycles(woke - core_->cycle());
  }
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
               (pending & ~masked_lines(pending)) == 0;
    } else {
      masked_irqs_ = 0;  // awake: mie may change
      masked_probe_ = 0;
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
  if (locked_up) {
    // pc(): the last record delivered, the one before the WFI (held until its successor).
    std::string masked;
    if (masked_irqs_ != 0) masked = "; pending lines " + hex(masked_irqs_) + " are not enabled";
    control_.report_fault(core_->cycle(),
                          "lock-up: the core sleeps in WFI and nothing in the SoC can wake it "
                          "(the instruction retired before it is at pc " + hex(pc()) + masked +
                              ")");
  }
  core_->flush_retire();
  sync();
  sc_core::sc_stop();
}

uint32_t RtlCpu::masked_lines(uint32_t pending) {
  // The core wakes within a few cycles of a line enabled in mie (CV32E40P: wake-up on
  // irq_i & mie, whatever mstatus.MIE). Lines it sleeps through for longer are masked, and
  // stay so while it sleeps (mie cannot change then).
  if ((pending & ~masked_irqs_) == 0) {
    masked_probe_ = 0;
  } else if (++masked_probe_ >= kWakeCycles) {
    masked_irqs_ |= pending;
    masked_probe_ = 0;
  }
  return masked_irqs_;
}

}  // namespace socsim
