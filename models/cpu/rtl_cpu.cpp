#include "models/cpu/rtl_cpu.h"

#include <cstdio>
#include <cstring>

#include "models/common/hex.h"

namespace socsim {

RtlCpu::RtlCpu(sc_core::sc_module_name name, const ClockDomain& clock,
               const RtlCoreConfig& config, IrqLines& irq, SimControl& control,
               uint64_t quantum_cycles)
    : CpuModel(name, clock),
      clock_(clock),
      irq_(irq),
      control_(control),
      quantum_(quantum_cycles ? quantum_cycles : 1),
      core_(std::make_unique<RtlCore>(config)) {
  core_->set_retire_observer(this);
  SC_THREAD(run_thread);
}

RtlCpu::~RtlCpu() = default;

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
      control_.report_fault(now, "bus error: instruction fetch of 4 bytes at " + hex(addr) +
                                     " (unmapped or refused), after the instruction at pc " +
                                     hex(pc()));
      return false;
    }
    wait_cycles = r.wait_cycles;
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
