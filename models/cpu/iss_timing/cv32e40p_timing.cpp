// The cycle of the CV32E40P pipeline, in the order rtl/rv_core.sv evaluates it: inputs, the
// interrupt controller, the LSU/WB/EX handshake, the ID hazards, the controller, the fetch
// stage, the bus requests; then every register takes its next value. Names follow the RTL
// (rv_core.sv, rv_fetch.sv, rv_lsu.sv, rv_controller.sv, rv_csr.sv); comments say where the
// CV32E40P's behaviour is not the obvious one.
#include "models/cpu/iss_timing/cv32e40p_timing.h"

#include "models/common/hex.h"

namespace socsim {

using cv32e40p::Sys;
using cv32e40p::Unit;
using cv32e40p::Xfer;
using cv32e40p::is_trap;
using cv32e40p::trap_cause;

namespace {

// The interrupt controller's priority: lines 31..16 (highest first), then 11, 3, 7.
unsigned irq_priority_id(uint32_t pending) {
  if (pending & 0xFFFF0000u) return 31 - __builtin_clz(pending & 0xFFFF0000u);
  if (pending & (1u << 11)) return 11;
  if (pending & (1u << 3)) return 3;
  return 7;
}

constexpr uint32_t ev(unsigned event) { return 1u << event; }

// The helpers of the cycle are inlined into it (they run every cycle or every instruction).
#define SOCSIM_HOT_INLINE __attribute__((always_inline)) inline


bool is_signed_divide(Op op) { return op == Op::kDiv || op == Op::kRem; }

}  // namespace

Cv32e40pTiming::Cv32e40pTiming(Rv32Hart& hart, CoreEnvironment& env)
    : hart_(hart), env_(env), server_(env.bus()), memo_(kMemoEntries),
      decode_cache_(kDecodeEntries) {
  reset();
}

void Cv32e40pTiming::reset() {
  s_ = State{};
  trace_ = Trace{};
  memo_recording_ = false;
  for (auto& e : memo_) e.reset();
  reset_entry_.pc = 0;
  s_.id = &reset_entry_;
  fault_.clear();
  failed_fetches_.clear();
  fetch_faulted_ = false;
  slept_ = false;
  for (DecodeEntry& e : decode_cache_) e.pc = 1;
  server_.forget_windows();
  withholds_grants_ = env_.withholds_grants();
  refresh_counting();
}

Cv32e40pTiming::Status Cv32e40pTiming::run(uint64_t until_cycle, const bool* stop) {
  s_.irq_known = false;  // sources may have changed the lines since the last run
  s_.plain = false;
  fast_allowed_ = !withholds_grants_ && request_observer_ == nullptr;
  while (s_.cycle < until_cycle) {
    if (s_.boundary) {
      memo_boundary(until_cycle);
      if (!fault_.empty()) return Status::kStopped;
      if (s_.cycle >= until_cycle) break;
    }
    if (!(s_.plain ? cycle<true>() : cycle<false>())) return Status::kStopped;
    if (*stop) return Status::kStopped;
    if (s_.asleep) return Status::kSleep;
  }
  return Status::kRunning;
}


void Cv32e40pTiming::refresh_irq(uint64_t now) {
  s_.irq_lines = env_.irq_lines(now, &s_.irq_stable_until);
  s_.irq_known = true;
}

void Cv32e40pTiming::refresh_counting() {
  const Counters& c = hart_.counters();
  count_mcycle_ = (c.inhibit & 1) == 0;
  count_minstret_ = (c.inhibit & 4) == 0;
  count_hpm_ = 0;
  for (unsigned i = 3; i < 32; ++i) {
    if (((c.implemented & ~c.inhibit) >> i) & 1 && c.event[i] != 0) count_hpm_ |= 1u << i;
  }
}

// ---- EX ---------------------------------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::issue(uint64_t now) {
  State& s = s_;
  ExReg& x = s.ex;
  const DecodeEntry& id = *s.id;
  const cv32e40p::Control& c = id.ctl;
  x.insn = id.insn;
  x.ctl = c;
  x.intr = s.intr_tag;
  x.intr_id = s.intr_tag_id;
  x.pc = id.pc;
  x.ready_at = 0;
  x.split = false;

  Execution e;
  if (c.sys == Sys::kNone || c.sys == Sys::kCsrStatus) {
    hart_.execute(id.insn, id.pc, &e);
  } else {
    e.next_pc = id.pc + id.insn.length;
  }
  x.taken = e.taken;
  x.target = e.next_pc;
  // A block of the memo ends with a control transfer (cv32e40p_memo.cpp).
  s.boundary = c.xfer != Xfer::kNone;
  s.boundary_pc = e.next_pc;
  unsigned bytes = 0;
  switch (c.unit) {
    case Unit::kMul:
      if (c.mulh) x.ready_at = now + 5;  // the first EX cycle is now + 1; 5 cycles
      break;
    case Unit::kDiv:
      x.ready_at = now + cv32e40p::divide_cycles(e.operand_b, is_signed_divide(id.insn.op));
      break;
    case Unit::kLsu: {
      bytes = Rv32Hart::access_bytes(id.insn.op);
      const unsigned offset = e.mem_addr & 3;
      x.addr = e.mem_addr;
      x.word = e.mem_addr & ~3u;
      x.be = static_cast<uint8_t>(((1u << bytes) - 1) << offset);
      x.split = x.be > 0xF;
      if (c.mem_store) {
        x.wdata = offset ? (e.store_data << (8 * offset)) | (e.store_data >> (32 - 8 * offset))
                         : e.store_data;
      }
      break;
    }
    case Unit::kCsr:
      x.csr_operand = e.csr_operand;
      break;
    default:
      break;
  }

  if (memo_recording_) memo_record_issue(e);
  InFlight& f = push_record();
  f.intr = s.intr_tag;
  f.bad_fetch = false;
  if (__builtin_expect(!failed_fetches_.empty(), 0)) {
    for (uint32_t a : failed_fetches_) {
      if (uint64_t{id.pc} < uint64_t{a} + 4 && a < uint64_t{id.pc} + id.insn.length) {
        f.bad_fetch = true;
        f.bad_fetch_addr = a;
        break;
      }
    }
  }
  f.intr_cause = csr::kInterruptBit | s.intr_tag_id;
  f.rec.pc = id.pc;
  if (recording_) describe_issue(&f.rec, id.pc, id.raw, id.insn, c, e);
}

SOCSIM_HOT_INLINE bool Cv32e40pTiming::serve_data(uint64_t now, bool last) {
  State& s = s_;
  ExReg& x = s.ex;
  ObiRequest req;
  req.req = true;
  req.we = x.ctl.mem_store;
  req.be = s.phase ? x.be >> 4 : x.be & 0xF;
  req.addr = x.word + (s.phase ? 4 : 0);
  req.wdata = x.wdata;
  uint32_t rdata = 0, wait = 0;
  if (!server_.data(req, now, &rdata, &wait)) return false;
  if (memo_recording_ && (wait != 0 || server_.reached_device())) memo_abort();
  if (server_.reached_device()) s.irq_known = false;  // a device may have changed the lines
  s.data_q.push(now + 1 + wait, rdata);
  if (x.ctl.mem_load) {
    if (!last) {
      x.lo = rdata;
    } else {
      const uint64_t joined = ((uint64_t(rdata) << 32) | (x.split ? x.lo : rdata)) >> (8 * (x.addr & 3));
      const unsigned bytes = Rv32Hart::access_bytes(x.insn.op);
      const uint32_t loaded = bytes == 4 ? static_cast<uint32_t>(joined)
                                         : static_cast<uint32_t>(joined) & ((1u << (8 * bytes)) - 1);
      const uint32_t value = hart_.complete_load(x.insn, loaded);
      if (recording_) {
        RetireRecord& r = trace_.at(trace_.tail - 1).rec;  // EX's
        r.rd_value = value;
        r.mem_data = loaded;
      }
    }
  }
  return true;
}

SOCSIM_HOT_INLINE void Cv32e40pTiming::leave_ex(bool skips_wb) {
  State& s = s_;
  const ExReg& x = s.ex;
  if (skips_wb) {
    ++s.held;  // its record stays in place: younger than WB's, older than the next one
    return;
  }
  s.wb_load = x.ctl.mem_load;
  s.wb_mem = x.ctl.unit == Unit::kLsu;
  s.wb_rd = x.ctl.wb_rd;
}

// ---- counters -----------------------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::count(bool sleeping, int written) {
  if (sleeping) return;
  Counters& k = hart_.counters();
  const uint32_t events = s_.events_q;
  if (count_mcycle_ && written != 0) ++k.mcycle;
  if (count_minstret_ && (events & ev(csr::kEvInstr)) && written != 2) ++k.minstret;
  for (uint32_t m = count_hpm_; m != 0; m &= m - 1) {
    const unsigned i = __builtin_ctz(m);
    if ((events & k.event[i]) != 0 && written != static_cast<int>(i)) ++k.hpm[i];
  }
}

// ---- retire trace -------------------------------------------------------------------------

void Cv32e40pTiming::flush_retire() {
  for (; s_.held != 0; --s_.held) retire_next(s_.cycle);
  if (trace_.has_pending) deliver();
  trace_.has_pending = false;
}

// ---- one cycle ------------------------------------------------------------------------------
//
// kPlain: a plain cycle (the controller decoding, no interrupt line
// enabled, no CSR instruction in EX and no system instruction in ID, the fetch not redirected
// with a request held or responses to drop, no hpm counting, no observer, every request
// granted): the same cycle with what cannot happen then left out.

template <bool kPlain>
bool Cv32e40pTiming::cycle() {
  State& s = s_;
  ExReg& ex = s.ex;
  const uint64_t now = s.cycle;
  if (!kPlain && memo_recording_) memo_abort();  // only plain cycles are memoized
  s.boundary = false;

  // ---- inputs of this cycle
  bool igrant = true, dgrant = true;
  if (!kPlain && withholds_grants_) env_.grants(now, &igrant, &dgrant);
  if (!kPlain && (!s.irq_known || now > s.irq_stable_until)) refresh_irq(now);
  const uint32_t irq_i = s.irq_lines;
  uint32_t irdata = 0, drdata = 0;
  const bool irvalid = s.instr_q.pop_due(now, &irdata);
  const bool drvalid = s.data_q.pop_due(now, &drdata);

  // A CSR instruction reads its CSR in its first EX cycle (even if EX then waits for WB).
  if (!kPlain && s.ex_first && s.ex_valid && ex.ctl.unit == Unit::kCsr) {
    hart_.set_mip(s.irq_q);
    ex.csr_old = hart_.csr_read(static_cast<uint32_t>(ex.insn.imm));
  }

  // ---- interrupt controller: requests from the registered lines, wake-up from the lines
  const uint32_t mie = kPlain ? 0 : hart_.mie();
  const uint32_t pending = s.irq_q & mie;
  const bool wakeup = !kPlain && (irq_i & mie) != 0;
  const bool irq_req = !kPlain && pending != 0 && hart_.mstatus_mie();

  // ---- LSU: a phase is done when granted with nothing outstanding, granted together with
  // WB's response with one outstanding, or at WB's response with two (lsu_ready_ex)
  // (Written with & and | on flags: no branch for the host to mispredict.)
  const bool lsu_active = s.ex_valid & (ex.ctl.unit == Unit::kLsu);
  const bool data_req = lsu_active & (s.lsu_cnt != 2);
  const bool last = !ex.split | s.phase;
  const bool dgranted = data_req & dgrant;
  const bool phase_done = (s.lsu_cnt == 0) ? dgranted : (s.lsu_cnt == 1) ? (dgranted & drvalid) : drvalid;
  const bool lsu_done = lsu_active & phase_done & last;
  const bool resp_final = drvalid & s.out_last[0];

  // ---- WB and EX
  const bool wb_done = !s.wb_mem | resp_final;
  const bool wb_free = !s.wb_valid | wb_done;
  const bool unit_done = ex.ctl.unit == Unit::kLsu ? lsu_done : (now >= ex.ready_at);
  // A conditional branch needs nothing from WB: it leaves EX after its cycle even while WB
  // waits (and skips WB). An empty EX is not ready while WB waits.
  const bool ex_branch = s.ex_valid & (ex.ctl.xfer == Xfer::kBranch);
  const bool ex_done = s.ex_valid & unit_done & (wb_free | ex_branch);
  const bool branch_skip = ex_done & ex_branch & !wb_free;
  const bool ex_ready = s.ex_valid ? ex_done : wb_free;
  const bool branch_taken = ex_branch & ex.taken & !s.ex_redirected;

  // ---- ID hazards, evaluated on the ID register whether or not it holds a valid instruction
  // (then the stale one that left it: only its register reads count)
  const cv32e40p::Control& c = s.id->ctl;
  // Registers the ID instruction depends on: those it reads, and (if valid) the one it
  // writes through the EX port (write after write).
  const uint32_t depends = c.reads | (uint32_t(s.id_valid & c.rd_we) << c.rd);
  const bool ex_load = s.ex_valid & ex.ctl.mem_load;
  const bool wb_load_wait = s.wb_valid & s.wb_load & !resp_final;
  const bool load_stall = (ex_load & ((depends >> ex.ctl.rd) & 1)) |
                          (wb_load_wait & ((depends >> s.wb_rd) & 1));
  // jalr forms its target from the register file without forwarding.
  const bool jr_stall =
      (c.xfer == Xfer::kJalr) & (c.rs1 != 0) &
      ((s.ex_valid & (ex.ctl.rd_we | ex.ctl.mem_load) & (ex.ctl.rd == c.rs1)) |
       (s.wb_valid & s.wb_load & (s.wb_rd == c.rs1)));
  const bool id_free = !load_stall & !jr_stall & ex_ready;

  // ---- controller outputs
  bool fetch_req = true, pc_set = false, halt_if = false, halt_id = false;
  bool is_decoding = false, kill_id = false, save = false, irq_ack = false, mret = false;
  bool ctrl_idle = false;
  uint32_t target = 0, save_cause = 0, save_epc = 0;
  unsigned irq_id = 0;
  const auto take_irq = [&](uint32_t epc) {
    halt_if = halt_id = pc_set = irq_ack = save = true;
    irq_id = irq_priority_id(pending);
    save_cause = csr::kInterruptBit | irq_id;
    save_epc = epc;
    target = hart_.trap_vector(save_cause);
  };
  switch (kPlain ? Ctrl::kDecode : s.ctrl) {
    case Ctrl::kReset:
      fetch_req = false;
      halt_if = halt_id = true;
      break;
    case Ctrl::kBootSet:
      halt_if = halt_id = pc_set = true;
      target = hart_.config().boot_addr & ~3u;
      break;
    case Ctrl::kFirstFetch:
      if (irq_req) take_irq(s.if_pc);
      break;
    case Ctrl::kDecode:
      if (branch_taken) {
        pc_set = kill_id = true;
        target = ex.target;
      } else if (s.id_valid) {
        if (irq_req) {
          take_irq(s.id->pc);
          kill_id = true;
        } else {
          is_decoding = true;
          if (c.sys != Sys::kNone) {
            halt_if = true;
          } else if ((c.xfer == Xfer::kJal || c.xfer == Xfer::kJalr) && !jr_stall &&
                     !s.jump_done) {
            pc_set = true;
            target = hart_.jump_target(s.id->insn, s.id->pc);
          }
        }
      }
      break;
    case Ctrl::kFlushEx:
      halt_if = halt_id = true;
      break;
    case Ctrl::kFlushWb:
      halt_if = halt_id = true;
      switch (s.flush_sys) {
        case Sys::kIllegal:
        case Sys::kEcall:
        case Sys::kEbreak:
          pc_set = save = true;
          save_cause = trap_cause(s.flush_sys);
          save_epc = s.flush_pc;
          target = hart_.mtvec_base();
          break;
        case Sys::kMret:
          mret = true;
          break;
        case Sys::kFence:
          pc_set = true;
          target = s.flush_pc + 4;
          break;
        default:  // wfi, status CSR access
          break;
      }
      break;
    case Ctrl::kXretJump:
      halt_id = pc_set = true;
      target = hart_.mepc();
      break;
    case Ctrl::kWaitSleep:
      halt_if = halt_id = ctrl_idle = true;
      break;
    case Ctrl::kSleep:
      halt_if = halt_id = true;
      ctrl_idle = !wakeup;
      break;
  }
  const bool id_ready = s.id_valid & is_decoding & !halt_id & id_free;

  // ---- IF: the aligner offers one instruction from the buffer (and the live response)
  const bool id_take = !halt_if & !pc_set & (s.id_valid ? id_ready : id_free);
  const bool resp_live = irvalid & (s.discard == 0);
  const bool w0_valid = (s.fifo_cnt != 0) | resp_live;
  const uint32_t w0 = s.fifo_cnt != 0 ? s.fifo[0] : irdata;
  bool raw_valid = false, consume = false;
  uint32_t raw = 0;
  uint32_t pc_d = s.if_pc, half_d = s.half;
  bool half_valid_d = s.half_valid;
  if (!(s.if_pc & 2)) {
    const bool full = (w0 & 3) == 3;
    raw_valid = w0_valid;
    raw = full ? w0 : (w0 & 0xFFFF);
    if (w0_valid && id_take) {
      consume = true;
      if (full) {
        pc_d += 4;
      } else {
        pc_d += 2;
        half_d = w0 >> 16;
        half_valid_d = true;
      }
    }
  } else if (s.half_valid) {
    raw_valid = w0_valid;
    if ((s.half & 3) != 3) {
      // The kept half is a whole instruction, but it goes to ID only while the buffer also
      // offers the next word (which is not consumed).
      raw = s.half;
      if (w0_valid && id_take) {
        pc_d += 2;
        half_valid_d = false;
      }
    } else {
      raw = (w0 << 16) | s.half;
      if (w0_valid && id_take) {
        consume = true;
        pc_d += 4;
        half_d = w0 >> 16;
      }
    }
  } else if (w0_valid) {
    // The first word after a redirect to a halfword address: its upper half is kept, taken
    // only when ID can take an instruction.
    const bool upper_compressed = ((w0 >> 16) & 3) != 3;
    if (upper_compressed) {
      raw_valid = true;
      raw = w0 >> 16;
    }
    if (id_take) {
      consume = true;
      half_d = w0 >> 16;
      if (upper_compressed) {
        pc_d += 2;
      } else {
        half_valid_d = true;
      }
    }
  }
  if (pc_set) {
    pc_d = target & ~1u;
    half_valid_d = false;
  }
  const bool if_valid = raw_valid & !pc_set;
  const bool if_accept = if_valid & id_take;

  // ---- fetch requests: a new word whenever buffered (0 in a redirect cycle) plus outstanding
  // words are fewer than 2; a request not granted is held unchanged
  const unsigned fifo_eff = pc_set ? 0 : s.fifo_cnt;
  const bool want_new = fetch_req & (fifo_eff + s.outstanding < 2);
  const bool ireq = s.pend | want_new;
  const uint32_t new_addr = pc_set ? (target & ~3u) : s.fetch_addr;
  const uint32_t iaddr = s.pend ? s.pend_addr : new_addr;
  const bool igranted = ireq & igrant;
  const bool granted_stale = s.pend & (s.pend_stale | pc_set);

  // ---- the bus: this cycle's granted requests, the fetch first (as the RTL wrapper serves
  // them)
  if (!kPlain && request_observer_ != nullptr) {
    ObiRequest ir, dr;
    ir.req = ireq;
    ir.be = 0xF;
    ir.addr = iaddr;
    if (data_req) {
      dr.req = true;
      dr.we = ex.ctl.mem_store;
      dr.be = s.phase ? ex.be >> 4 : ex.be & 0xF;
      dr.addr = ex.word + (s.phase ? 4 : 0);
      dr.wdata = ex.wdata;
    }
    request_observer_->on_requests(now, ir, igrant, dr, dgrant);
  }
  if (igranted) {
    uint32_t word = 0, wait = 0;
    if (!server_.fetch(iaddr, now, &word, &wait)) {
      mark_failed_fetch(iaddr);  // word 0 (illegal), no wait cycles
      word = 0;
      wait = 0;
    }
    s.instr_q.push(now + 1 + wait, word);
    if (memo_recording_) {
      if (wait != 0 || server_.reached_device()) {
        memo_abort();
      } else {
        memo_rec_.fetched.emplace_back(iaddr, word);
      }
    }
  }
  if (dgranted && !serve_data(now, last)) {
    fault_ = server_.fault(trace_.last_pc);
    return false;
  }

  // ---- retirement: WB's instruction, then the branches that skipped WB behind it
  if (s.wb_valid && wb_done) {
    retire_next(now);
    for (; s.held != 0; --s.held) retire_next(now);
  }

  // ---- EX's instruction leaves: CSR write, then on to WB (or past it)
  int written = -1;
  bool counting_changed = false;
  if (ex_done) {
    if (!kPlain && ex.ctl.unit == Unit::kCsr) {
      written = hart_.csr_write(ex.insn, ex.csr_operand);
      hart_.write_reg(ex.ctl.rd, ex.csr_old);
      if (recording_) trace_.at(trace_.tail - 1).rec.rd_value = ex.ctl.rd != 0 ? ex.csr_old : 0;
      counting_changed = true;
    }
    if (!kPlain && recording_) {
      RetireRecord& r = trace_.at(trace_.tail - 1).rec;  // EX's
      if (is_trap(ex.ctl.sys)) r.next_pc = hart_.mtvec_base();
      if (ex.ctl.sys == Sys::kMret) r.next_pc = hart_.mepc();
    }
    leave_ex(branch_skip);
  }
  s.wb_valid = (ex_done && !branch_skip) || (s.wb_valid && !wb_done);

  // ---- controller actions on the CSRs
  if (!kPlain && save) hart_.enter_trap(save_cause, save_epc);
  if (!kPlain && mret) hart_.mret();

  // ---- performance events (registered: counted in the next cycle)
  uint32_t events = ev(csr::kEvCycles);
  if (id_ready && c.counts) {
    events |= ev(csr::kEvInstr);
    if (!kPlain && count_hpm_ != 0) {
      if (c.mem_load) events |= ev(csr::kEvLd);
      if (c.mem_store) events |= ev(csr::kEvSt);
      if (c.xfer == Xfer::kJal || c.xfer == Xfer::kJalr) events |= ev(csr::kEvJump);
      if (c.xfer == Xfer::kBranch) events |= ev(csr::kEvBranch);
      if (c.compressed) events |= ev(csr::kEvCompInstr);
    }
  }
  if (!kPlain && count_hpm_ != 0) {
    // A stall counts once, in its first cycle: only when ID could pass an instruction on in
    // the cycle before. IMISS: ID could take an instruction but the fetch has none.
    if (load_stall && !halt_id && s.id_moved) events |= ev(csr::kEvLdStall);
    if (jr_stall && !halt_id && s.id_moved) events |= ev(csr::kEvJmpStall);
    if (fetch_req && !halt_if && !pc_set && !if_valid && (!s.id_valid || id_ready)) {
      events |= ev(csr::kEvImiss);
    }
    if (branch_taken) events |= ev(csr::kEvBranchTaken);
  }

  // ---- the sleep unit: core_sleep_o once the controller idles in WFI and neither port had
  // a request made or outstanding in the cycle before; the lines end it at once
  // (Decoding, the controller was not idle in the cycle before: busy.)
  // Whether the caller may let the cycles pass is the environment's to say when a line (not
  // enabled, or it would wake the core) is high.
  const bool sleeping = !kPlain && s.fetch_enable && !wakeup && !s.busy;
  s.asleep = sleeping && !ireq && !data_req && s.instr_q.count == 0 && s.data_q.count == 0 &&
             env_.sleeps_through(irq_i);
  if (!kPlain) {
    if (sleeping) {
      slept_ = true;
    } else if (slept_) {
      slept_ = false;
      env_.awake();
    }
  }
  s.busy = !ctrl_idle || ireq || s.outstanding != 0 || data_req || s.lsu_cnt != 0;
  count(sleeping, written);
  if (memo_recording_ && (s.events_q & ev(csr::kEvInstr))) ++memo_rec_.instr_events;
  s.events_q = events;
  if (!kPlain && counting_changed) refresh_counting();

  // ---- ID -> EX
  if (id_ready) issue(now);
  s.ex_valid = id_ready || (s.ex_valid && !ex_done);
  s.ex_first = id_ready;
  if (id_ready) {
    s.ex_redirected = false;
  } else if (branch_taken) {
    s.ex_redirected = true;
  }
  if (irq_ack) {
    s.intr_tag = true;
    s.intr_tag_id = static_cast<uint8_t>(irq_id);
  } else if (id_ready) {
    s.intr_tag = false;
  }

  // ---- LSU registers
  if (ex_done) {
    s.phase = false;
  } else if (lsu_active && phase_done && !last) {
    s.phase = true;
  }
  if (drvalid) {
    s.out_last[0] = s.out_last[1];
    --s.lsu_cnt;
  }
  if (dgranted) {
    s.out_last[s.lsu_cnt & 1] = last;
    ++s.lsu_cnt;
  }

  // ---- IF registers
  if (resp_live) {
    s.fifo[s.fifo_cnt & 1] = irdata;
    ++s.fifo_cnt;
  }
  if (consume) {
    s.fifo[0] = s.fifo[1];
    --s.fifo_cnt;
  }
  if (pc_set) s.fifo_cnt = 0;
  const unsigned out_after_resp = s.outstanding - (irvalid ? 1 : 0);
  const unsigned disc_after_resp = s.discard - ((irvalid && s.discard != 0) ? 1 : 0);
  s.discard = (pc_set ? out_after_resp : disc_after_resp) + ((igranted && granted_stale) ? 1 : 0);
  s.outstanding = out_after_resp + (igranted ? 1 : 0);
  if (pc_set) s.fetch_addr = target & ~3u;
  if (!s.pend && want_new) s.fetch_addr = new_addr + 4;
  s.pend_stale = s.pend && (s.pend_stale || pc_set);
  s.pend = ireq && !igrant;
  s.pend_addr = iaddr;

  // ---- controller state
  Ctrl next = s.ctrl;
  bool jump_done_d = false;
  switch (kPlain ? Ctrl::kDecode : s.ctrl) {
    case Ctrl::kReset:
      if (s.fetch_enable) next = Ctrl::kBootSet;
      break;
    case Ctrl::kBootSet:
      next = Ctrl::kFirstFetch;
      break;
    case Ctrl::kFirstFetch:
      next = Ctrl::kDecode;
      break;
    case Ctrl::kDecode:
      if (is_decoding) {
        if (c.sys != Sys::kNone) {
          if (id_ready) {
            next = Ctrl::kFlushEx;
            s.flush_sys = c.sys;
            s.flush_csr = c.csr_access;
            s.flush_pc = s.id->pc;
          }
        } else if (pc_set) {
          jump_done_d = !id_ready;  // the jump is taken; its instruction may stay in ID
        } else {
          jump_done_d = s.jump_done && !id_ready;
        }
      }
      break;
    case Ctrl::kFlushEx:
      // An illegal instruction reaches EX with every unit disabled: the CV32E40P's FLUSH_EX
      // then waits one cycle more (an illegal CSR access does not).
      if (ex_ready && !(s.flush_sys == Sys::kIllegal && !s.flush_csr && s.ctrl_prev == Ctrl::kDecode)) {
        next = Ctrl::kFlushWb;
      }
      break;
    case Ctrl::kFlushWb:
      next = s.flush_sys == Sys::kMret ? Ctrl::kXretJump
             : s.flush_sys == Sys::kWfi ? Ctrl::kWaitSleep
                                        : Ctrl::kDecode;
      break;
    case Ctrl::kXretJump:
      next = Ctrl::kDecode;
      break;
    case Ctrl::kWaitSleep:
      next = Ctrl::kSleep;
      break;
    case Ctrl::kSleep:
      if (wakeup) next = Ctrl::kFirstFetch;
      break;
  }
  s.ctrl_prev = s.ctrl;
  s.ctrl = next;
  s.jump_done = jump_done_d;

  // ---- ID register (the aligner's pc is this cycle's)
  const bool id_valid_d = if_accept || (s.id_valid && !id_ready && !kill_id);
  if (if_accept) {
    s.id = &decode_at(s.if_pc, raw);
  }
  s.id_valid = id_valid_d;
  s.if_pc = pc_d;
  s.half = half_d;
  s.half_valid = half_valid_d;

  // ---- other registers
  s.id_moved = !halt_id && id_free;
  s.fetch_enable = true;  // fetch_enable_i is high from cycle 0; the core registers it
  s.irq_q = irq_i & csr::kIrqMask;

  if (__builtin_expect(fetch_faulted_, 0)) return false;
  ++s.cycle;
  s.plain = plain_next();
  return true;
}

void Cv32e40pTiming::mark_failed_fetch(uint32_t addr) {
  memo_abort();
  for (uint32_t a : failed_fetches_) {
    if (a == addr) return;
  }
  failed_fetches_.push_back(addr);
}

void Cv32e40pTiming::note_failed_fetch(const InFlight& f) {
  if (fetch_faulted_) return;
  fetch_faulted_ = true;
  fault_ = "bus error: instruction fetch of 4 bytes at " + hex(f.bad_fetch_addr) +
           " (unmapped or refused), for the instruction at pc " + hex(f.rec.pc);
}

template bool Cv32e40pTiming::cycle<true>();
template bool Cv32e40pTiming::cycle<false>();

}  // namespace socsim
