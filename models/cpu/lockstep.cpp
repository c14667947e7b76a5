#include "models/cpu/lockstep.h"

#include "models/common/hex.h"

namespace socsim {

namespace {

int port_index(BusPort port) { return port == BusPort::kInstr ? 0 : 1; }

}  // namespace

std::string describe(const RetireRecord& r) {
  std::string s = "pc " + hex(r.pc) + " insn " + hex(r.insn);
  if (r.rd != 0) s += " x" + std::to_string(r.rd) + "=" + hex(r.rd_value);
  if (r.mem_valid) {
    s += std::string(r.mem_write ? " store " : " load ") + std::to_string(r.mem_size) + "B @" +
         hex(r.mem_addr) + " data " + hex(r.mem_data);
  }
  if (r.trap) s += " trap cause " + std::to_string(r.cause);
  if (r.interrupt) s += " interrupt " + hex(r.cause);
  s += " -> " + hex(r.next_pc);
  return s;
}

std::string LockstepChecker::describe(const Access& a) {
  std::string s = "cycle " + std::to_string(a.cycle) + ": " +
                  (a.port == BusPort::kInstr ? "fetch " : a.write ? "store " : "load ") +
                  std::to_string(a.bytes) + "B @" + hex(a.addr);
  if (a.write) s += " data " + hex(a.data);
  if (a.wait == BusObserver::kRefused) s += " (bus error)";
  return s;
}

LockstepChecker::LockstepChecker(const IssConfig& config, SimControl& control,
                                 RetireObserver* downstream)
    : replay_(*this), capture_(*this), iss_(config, replay_), control_(control),
      downstream_(downstream) {
  iss_.set_retire_observer(&capture_);
  iss_.reset();
  lines_.emplace_back(0, 0);
}

// ---- the RTL core's side ------------------------------------------------------------------------

void LockstepChecker::on_cycle(uint64_t cycle, uint32_t lines) {
  rtl_cycle_ = cycle;
  if (lines != lines_.back().second) lines_.emplace_back(cycle, lines);
}

void LockstepChecker::on_access(BusPort port, uint64_t cycle, uint32_t addr, unsigned bytes,
                                bool write, uint32_t data, uint32_t wait_cycles) {
  if (diverged_) return;
  const Access a{port, cycle, addr, bytes, write, data, wait_cycles};
  accesses_[port_index(port)].push_back(a);
  rtl_history_.add(a);
}

void LockstepChecker::on_retire(const RetireRecord& rtl) {
  if (diverged_) return;
  rtl_records_.push_back(rtl);
  rtl_history_.add(rtl);
  run_iss();
  while (!diverged_ && !rtl_records_.empty()) {
    if (iss_records_.empty()) {
      // The RTL core reports a record when its successor retires, or when the run ends:
      // the ISS then still holds its own back.
      iss_.flush_retire();
    }
    if (iss_records_.empty()) {
      diverge(rtl_records_.front().cycle, "the ISS has not retired instruction #" +
                                              std::to_string(rtl_records_.front().order) +
                                              " by cycle " + std::to_string(rtl_cycle_));
      return;
    }
    compare(rtl_records_.front(), iss_records_.front());
    if (diverged_) return;
    if (downstream_ != nullptr) downstream_->on_retire(rtl_records_.front());
    rtl_records_.pop_front();
    iss_records_.pop_front();
  }
}

// ---- the ISS ------------------------------------------------------------------------------------

void LockstepChecker::run_iss() {
  const uint64_t limit = rtl_cycle_ + 1;  // through the cycle the RTL core is in
  while (!stop_ && iss_.cycle() < limit) {
    const Rv32Iss::Status status = iss_.run(limit, &stop_);
    if (status == Rv32Iss::Status::kSleep) {
      // Asleep until the lines change (as far as the RTL core has got).
      uint64_t wake = limit;
      for (const auto& [from, lines] : lines_) {
        if (from > iss_.cycle() && from < wake) {
          wake = from;
          break;
        }
      }
      iss_.skip_sleep_cycles(wake - iss_.cycle());
    } else if (status == Rv32Iss::Status::kStopped) {
      if (!diverged_) diverge(iss_.cycle(), "the ISS stopped: " + iss_.fault());
      return;
    }
  }
  for (const std::deque<Access>& q : accesses_) {
    if (!diverged_ && !q.empty() && q.front().cycle < iss_.cycle()) {
      diverge(q.front().cycle, "the RTL core made a request the ISS did not make: " +
                                   describe(q.front()));
    }
  }
}

uint32_t LockstepChecker::Replay::irq_lines(uint64_t cycle, uint64_t* stable_until) {
  auto& lines = checker_.lines_;
  while (lines.size() > 1 && lines[1].first <= cycle) lines.pop_front();
  *stable_until = lines.size() > 1 ? lines[1].first - 1 : checker_.rtl_cycle_;
  return lines.front().first <= cycle ? lines.front().second : 0;
}

BusResult LockstepChecker::Replay::read(BusPort port, uint32_t addr, unsigned bytes,
                                        uint32_t* data, uint64_t cycle) {
  return answer(Access{port, cycle, addr, bytes, false, 0, 0}, data);
}

BusResult LockstepChecker::Replay::write(BusPort port, uint32_t addr, unsigned bytes,
                                         uint32_t data, uint64_t cycle) {
  uint32_t unused;
  return answer(Access{port, cycle, addr, bytes, true, data, 0}, &unused);
}

BusResult LockstepChecker::Replay::answer(const Access& iss, uint32_t* data) {
  LockstepChecker& c = checker_;
  c.iss_history_.add(iss);
  std::deque<Access>& q = c.accesses_[port_index(iss.port)];
  BusResult result;
  *data = 0;
  if (c.diverged_) return result;
  if (q.empty() || q.front().cycle != iss.cycle || q.front().addr != iss.addr ||
      q.front().bytes != iss.bytes || q.front().write != iss.write ||
      (iss.write && q.front().data != iss.data)) {
    const std::string rtl = q.empty() ? "none yet (the RTL core is in cycle " +
                                            std::to_string(c.rtl_cycle_) + ")"
                                      : describe(q.front());
    c.diverge(iss.cycle, "bus request: iss " + describe(iss) + ", rtl " + rtl);
    return result;
  }
  if (q.front().wait == BusObserver::kRefused) {
    result.ok = false;  // a bus error on the RTL core's side too
  } else {
    if (!iss.write) *data = q.front().data;
    result.wait_cycles = q.front().wait;
  }
  q.pop_front();
  return result;
}

void LockstepChecker::Capture::on_retire(const RetireRecord& r) {
  checker_.iss_records_.push_back(r);
  checker_.iss_history_.add(r);
}

// ---- checking -----------------------------------------------------------------------------------

void LockstepChecker::compare(const RetireRecord& rtl, const RetireRecord& iss) {
  const char* what = nullptr;
  if (iss.pc != rtl.pc) {
    what = "pc";
  } else if (iss.insn != rtl.insn) {
    what = "instruction bits";
  } else if (iss.trap != rtl.trap || (rtl.trap && !rtl.interrupt && iss.cause != rtl.cause)) {
    what = "trap";
  } else if (iss.rd != rtl.rd || iss.rd_value != rtl.rd_value) {
    what = "destination register";
  } else if (iss.mem_valid != rtl.mem_valid ||
             (rtl.mem_valid && (iss.mem_write != rtl.mem_write || iss.mem_addr != rtl.mem_addr ||
                                iss.mem_size != rtl.mem_size || iss.mem_data != rtl.mem_data))) {
    what = "memory access";
  } else if (iss.interrupt != rtl.interrupt || (rtl.interrupt && iss.cause != rtl.cause)) {
    what = "interrupt";
  } else if (iss.next_pc != rtl.next_pc) {
    what = "next pc";
  } else if (iss.cycle != rtl.cycle) {
    what = "retire cycle";
  }
  if (what != nullptr) {
    diverge(rtl.cycle, std::string(what) + " of instruction #" + std::to_string(rtl.order) +
                           "\n  rtl: cycle " + std::to_string(rtl.cycle) + " " +
                           socsim::describe(rtl) + "\n  iss: cycle " + std::to_string(iss.cycle) +
                           " " + socsim::describe(iss));
    return;
  }
  ++checked_;
}

std::string LockstepChecker::History::describe() const {
  std::string s;
  for (size_t i = 0; i < count_; ++i) {
    const Event& e = events_[(first_ + i) % kEvents];
    s += "\n    ";
    if (e.retire) {
      s += "cycle " + std::to_string(e.record.cycle) + ": retire #" +
           std::to_string(e.record.order) + " " + socsim::describe(e.record);
    } else {
      s += LockstepChecker::describe(e.access);
    }
  }
  return s;
}

void LockstepChecker::diverge(uint64_t cycle, const std::string& what) {
  if (diverged_) return;
  diverged_ = stop_ = true;
  std::string msg = "lockstep divergence at cycle " + std::to_string(cycle) + ": " + what;
  msg += "\n  recent history of the RTL core:";
  msg += rtl_history_.describe();
  msg += "\n  recent history of the ISS:";
  msg += iss_history_.describe();
  control_.report_fault(cycle, msg);
}

}  // namespace socsim
