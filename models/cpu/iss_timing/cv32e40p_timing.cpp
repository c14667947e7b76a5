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
  fpu_ = hart_.config().fpu;
  refresh_counting();
}

Cv32e40pTiming::Status Cv32e40pTiming::run(uint64_t until_cycle, const bool* stop) {
  s_.irq_known = false;  // sources may have changed the lines since the last run
  s_.plain = false;
  fast_allowed_ = !withholds_grants_ && request_observer_ == nullptr && debug_ == nullptr;
  while (s_.cycle < until_cycle) {
    if (s_.boundary && !fpu_ && debug_ == nullptr) {  // no memo with the FPU (yet)
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
    case Unit::kApu:
      // fdiv.s / fsqrt.s: e.operand_b is what the operation costs alone (docs/fpu.md), its
      // request and the following instruction's cycle included.
      // A subnormal divisor: the request waits a cycle for its grant (stall_nack).
      x.apu_nack = e.fpu_nack;
      x.apu_cycles = c.apu_cycles != 0 || (id.insn.op != Op::kFdivS && id.insn.op != Op::kFsqrtS)
                         ? c.apu_cycles
                         : e.operand_b - 2 - e.fpu_nack;
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
  s.wb_waddr6 = x.ctl.waddr6;
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
//
// A cycle is the story of rtl/rv_core.sv told by its blocks: what each computes from the
// registers and the wires of the blocks before it, what the cycle then does (retirement, CSR
// writes, counting), and the registers' next values. Each stage is a function named after
// its RTL module, inlined into the cycle: the wires stay in host registers. cycle() itself
// comes after them, at the end.

// ---- inputs of this cycle (rv_core_sim.sv) ------------------------------------------------

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::core_sim_inputs(Wires& w) {
  State& s = s_;
  if (!kPlain && withholds_grants_) env_.grants(w.now, &w.igrant, &w.dgrant);
  if (!kPlain && (!s.irq_known || w.now > s.irq_stable_until)) refresh_irq(w.now);
  w.irq_i = s.irq_lines;
  w.irvalid = s.instr_q.pop_due(w.now, &w.irdata);
  w.drvalid = s.data_q.pop_due(w.now, &w.drdata);
}

// ---- CSR read and interrupt controller (rv_csr.sv) ----------------------------------------

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::csr_irq_requests(Wires& w) {
  State& s = s_;
  ExReg& ex = s.ex;
  // A CSR instruction reads its CSR in its first EX cycle (even if EX then waits for WB).
  if (!kPlain && s.ex_first && s.ex_valid && ex.ctl.unit == Unit::kCsr) {
    hart_.set_mip(s.irq_q);
    ex.csr_old = hart_.csr_read(static_cast<uint32_t>(ex.insn.imm));
  }
  // Requests from the registered lines, wake-up from the lines themselves.
  const uint32_t mie = kPlain ? 0 : hart_.mie();
  w.pending = s.irq_q & mie;
  w.wakeup = !kPlain && (w.irq_i & mie) != 0;
  w.irq_req = !kPlain && w.pending != 0 && hart_.mstatus_mie();
}

// ---- LSU handshake (rv_lsu.sv) ------------------------------------------------------------
//
// A phase is done when granted with nothing outstanding, granted together with WB's response
// with one outstanding, or at WB's response with two (lsu_ready_ex). (Written with & and | on
// flags: no branch for the host to mispredict.)

SOCSIM_HOT_INLINE void Cv32e40pTiming::lsu_handshake(Wires& w) {
  const State& s = s_;
  const ExReg& ex = s.ex;
  w.lsu_active = s.ex_valid & (ex.ctl.unit == Unit::kLsu);
  w.data_req = w.lsu_active & (s.lsu_cnt != 2);
  w.last = !ex.split | s.phase;
  w.dgranted = w.data_req & w.dgrant;
  w.phase_done = (s.lsu_cnt == 0)   ? w.dgranted
                 : (s.lsu_cnt == 1) ? (w.dgranted & w.drvalid)
                                    : w.drvalid;
  w.resp_final = w.drvalid & s.out_last[0];
}

// ---- the APU dispatcher (the genuine core's cv32e40p_apu_disp.sv and the APU part of
// cv32e40p_ex_stage.sv; FPU only) --------------------------------------------------------------
//
// An APU operation in EX is requested unless the one in flight could return out of order
// (stall_type: a class-1 or class-3 operation while one is in flight, a class-2 one after a
// class-3 one); FPnew grants every request the stall rules let through. A class-1 result comes
// in the cycle of its request, a class-2 one a cycle later on the LSU write port, a class-3 one
// ("multicycle") after the unit's cycles on the ALU write port: there it takes the port from a
// non-APU instruction in EX that writes it (wb_contention: EX waits a cycle), or is held a
// cycle while EX has a misaligned access, a load response meets an instruction writing the
// ALU port, a mulh computes its upper half, or a jalr in ID meets one (the
// APU_Result_Memorization register).

SOCSIM_HOT_INLINE void Cv32e40pTiming::apu_dispatcher(Wires& w) {
  const State& s = s_;
  const ExReg& ex = s.ex;
  const bool ex_apu = s.ex_valid & (ex.ctl.unit == Unit::kApu);
  // (APU operations do not set regfile_alu_we: the dispatcher writes their results)
  const bool ex_alu_we = s.ex_valid & ex.ctl.alu_port;
  const bool multicycle = s.apu_active & (s.apu_class == 3);
  const cv32e40p::Control& idc = s.id->ctl;
  const bool jalr_dep = s.id_valid & (s.ctrl == Ctrl::kDecode) & (idc.xfer == Xfer::kJalr) &
                        (((ex_apu & ex.ctl.we6) & (ex.ctl.waddr6 == idc.rs1)) |
                         (s.apu_active & (s.apu_addr == idc.rs1)));
  const bool hold = (s.ex_valid & ex.split) | (w.drvalid & ex_alu_we) |
                    (s.ex_valid & ex.ctl.mulh & (w.now + 3 >= ex.ready_at)) |
                    ((idc.xfer == Xfer::kJalr) & ex_alu_we & !jalr_dep);
  const bool rvalid_i = s.apu_active & (w.now == s.apu_return_at);
  w.apu_hold = hold;
  w.apu_valid = (rvalid_i | s.apu_rvalid_q) & !(multicycle & hold);
  w.wb_contention = w.apu_valid & multicycle & ex_alu_we;
  const uint8_t cls = ex.ctl.apu_class;
  w.apu_stall_type = ex_apu & s.apu_active &
                     ((cls == 1) | (cls == 3) | ((cls == 2) & (s.apu_class == 3)));
  // (As the genuine core's: an APU operation that stays in EX after its request, EX waiting
  // for WB, is requested again in the next cycle the stall rules allow.)
  w.apu_valid_req = ex_apu & !w.apu_stall_type;
  w.apu_req = w.apu_valid_req & (ex.apu_nack == 0);  // granted
  w.apu_returned_req = w.apu_req & (cls == 1);
}

// ---- EX and WB handshake (rv_core.sv) -----------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::core_ex_wb_handshake(Wires& w) {
  const State& s = s_;
  const ExReg& ex = s.ex;
  const bool lsu_done = w.lsu_active & w.phase_done & w.last;
  w.wb_done = !s.wb_mem | w.resp_final;
  w.wb_free = !s.wb_valid | w.wb_done;
  const bool unit_done = (ex.ctl.unit == Unit::kLsu ? lsu_done : (w.now >= ex.ready_at)) &
                         !w.apu_stall_type & !(w.apu_valid_req & !w.apu_req) & !w.wb_contention;
  // A conditional branch needs nothing from WB: it leaves EX after its cycle even while WB
  // waits (and skips WB). An empty EX is not ready while WB waits.
  const bool ex_branch = s.ex_valid & (ex.ctl.xfer == Xfer::kBranch);
  w.ex_done = s.ex_valid & unit_done & (w.wb_free | ex_branch);
  w.branch_skip = w.ex_done & ex_branch & !w.wb_free;
  w.ex_ready = s.ex_valid ? w.ex_done : w.wb_free;
  w.branch_taken = ex_branch & ex.taken & !s.ex_redirected;
}

// ---- ID hazards (rv_controller.sv) --------------------------------------------------------
//
// Evaluated on the ID register whether or not it holds a valid instruction (then the stale
// one that left it: only its register reads count).

SOCSIM_HOT_INLINE void Cv32e40pTiming::controller_hazards(Wires& w) {
  const State& s = s_;
  const ExReg& ex = s.ex;
  const cv32e40p::Control& c = s.id->ctl;
  w.id_ctl = &c;
  // Registers the ID instruction depends on: those it reads, and (if valid) the one it
  // writes through the EX port (write after write).
  const uint32_t depends = c.reads | (uint32_t(s.id_valid & c.rd_we) << c.rd);
  const bool ex_load = s.ex_valid & ex.ctl.mem_load;
  const bool wb_load_wait = s.wb_valid & s.wb_load & !w.resp_final;
  w.load_stall = (ex_load & ((depends >> ex.ctl.rd) & 1)) |
                 (wb_load_wait & ((depends >> s.wb_rd) & 1));
  // jalr forms its target from the register file without forwarding.
  w.jr_stall = (c.xfer == Xfer::kJalr) & (c.rs1 != 0) &
               ((s.ex_valid & (ex.ctl.rd_we | ex.ctl.mem_load) & (ex.ctl.rd == c.rs1)) |
                (s.wb_valid & s.wb_load & (s.wb_rd == c.rs1)));
  if (fpu_) {
    // With the FPU the load-use stall compares 6-bit register addresses (x0..x31, f0..f31):
    // the registers ID reads, and the one it writes through the ALU port (not an APU
    // operation's: the decoder leaves regfile_alu_we off for those), against a load's
    // destination in EX or waiting in WB.
    const bool id_alu_we = s.id_valid & c.alu_port;
    const uint64_t depends6 = c.reads6 | (uint64_t(id_alu_we & c.we6) << c.waddr6);
    w.load_stall = (ex_load & ((depends6 >> ex.ctl.waddr6) & 1)) |
                   (wb_load_wait & ((depends6 >> s.wb_waddr6) & 1));
    // The APU dispatcher's dependences (read_dep, write_dep, read_dep_for_jalr), on the
    // valid instruction being decoded: the operation requested in EX (not returning in this
    // cycle) and the one in flight (until its result is written).
    uint64_t busy = 0;
    if (w.apu_valid_req & (ex.ctl.apu_class != 1)) busy |= uint64_t{1} << ex.ctl.waddr6;
    if (s.apu_active & !w.apu_valid) busy |= uint64_t{1} << s.apu_addr;
    const bool decoding = s.id_valid & (s.ctrl == Ctrl::kDecode);
    const bool writes = c.we6 & ((busy >> c.waddr6) & 1) & (c.unit != Unit::kApu);
    w.apu_id_stall = decoding & (((c.apu_reads6 & busy) != 0) | writes);
    // A CSR access waits while an operation of class 2 or 3 is in EX or one is in flight.
    w.apu_id_stall |= c.csr_access &
                      ((s.ex_valid & (ex.ctl.unit == Unit::kApu) & (ex.ctl.apu_class >= 2)) |
                       s.apu_active);
    w.jr_stall |= decoding & (c.xfer == Xfer::kJalr) & s.apu_active & (s.apu_addr == c.rs1);
  }
  w.id_free = !w.load_stall & !w.jr_stall & !w.apu_id_stall & w.ex_ready;
}

// ---- controller outputs (rv_controller.sv) ------------------------------------------------

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::controller_outputs(Wires& w) {
  const State& s = s_;
  const cv32e40p::Control& c = *w.id_ctl;
  const auto take_irq = [&](uint32_t epc) {
    w.halt_if = w.halt_id = w.pc_set = w.irq_ack = w.save = true;
    w.irq_id = irq_priority_id(w.pending);
    w.save_cause = csr::kInterruptBit | w.irq_id;
    w.save_epc = epc;
    w.target = hart_.trap_vector(w.save_cause);
  };
  switch (kPlain ? Ctrl::kDecode : s.ctrl) {
    case Ctrl::kReset:
      w.fetch_req = false;
      w.halt_if = w.halt_id = true;
      break;
    case Ctrl::kBootSet:
      w.halt_if = w.halt_id = w.pc_set = true;
      w.target = hart_.config().boot_addr & ~3u;
      break;
    case Ctrl::kFirstFetch:
      if (w.irq_req) take_irq(s.if_pc);
      break;
    case Ctrl::kDecode:
      if (w.branch_taken) {
        w.pc_set = w.kill_id = true;
        w.target = s.ex.target;
      } else if (s.id_valid) {
        if (w.irq_req) {
          take_irq(s.id->pc);
          w.kill_id = true;
        } else if (!kPlain && debug_ != nullptr && w.id_free &&
                   debug_->halt_before(s.id->pc, s.id->insn.bits,
                                       hart_.reg((s.id->insn.bits >> 15) & 31), s.dbg_issued)) {
          w.halt_if = w.halt_id = w.kill_id = w.dbg_halt = true;
        } else {
          w.is_decoding = true;
          if (c.sys != Sys::kNone) {
            w.halt_if = true;
          } else if ((c.xfer == Xfer::kJal || c.xfer == Xfer::kJalr) && !w.jr_stall &&
                     !s.jump_done) {
            w.pc_set = true;
            w.target = hart_.jump_target(s.id->insn, s.id->pc);
          }
        }
      }
      break;
    case Ctrl::kFlushEx:
      w.halt_if = w.halt_id = true;
      break;
    case Ctrl::kFlushWb:
      w.halt_if = w.halt_id = true;
      switch (s.flush_sys) {
        case Sys::kIllegal:
        case Sys::kEcall:
        case Sys::kEbreak:
          w.pc_set = w.save = true;
          w.save_cause = trap_cause(s.flush_sys);
          w.save_epc = s.flush_pc;
          w.target = hart_.mtvec_base();
          break;
        case Sys::kMret:
          w.mret = true;
          break;
        case Sys::kFence:
          w.pc_set = true;
          w.target = s.flush_pc + 4;
          break;
        default:  // wfi, status CSR access
          break;
      }
      break;
    case Ctrl::kXretJump:
      w.halt_id = w.pc_set = true;
      w.target = hart_.mepc();
      break;
    case Ctrl::kDbgHalt: {
      // Halted until the pipeline is empty and the debugger let it go (the cycle after
      // halted() was called); then the refetch, as for mret.
      const bool drained = !s.ex_valid & !s.wb_valid & (s.lsu_cnt == 0) & !s.apu_active;
      w.dbg_resume = drained & s.dbg_resume;
      w.dbg_halted = drained & !s.dbg_resume;
      w.halt_if = !w.dbg_resume;
      w.halt_id = true;
      w.pc_set = w.dbg_resume;
      w.target = s.dbg_resume_pc;
      break;
    }
    case Ctrl::kWaitSleep:
      w.halt_if = w.halt_id = w.ctrl_idle = true;
      break;
    case Ctrl::kSleep:
      w.halt_if = w.halt_id = true;
      w.ctrl_idle = !w.wakeup;
      break;
  }
  w.id_ready = s.id_valid & w.is_decoding & !w.halt_id & w.id_free;
}

// ---- the aligner (rv_fetch.sv): one instruction offered from the buffer (and the live
// response) ------------------------------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::fetch_aligner(Wires& w) {
  const State& s = s_;
  const bool id_take = !w.halt_if & !w.pc_set & (s.id_valid ? w.id_ready : w.id_free);
  w.resp_live = w.irvalid & (s.discard == 0);
  const bool w0_valid = (s.fifo_cnt != 0) | w.resp_live;
  const uint32_t w0 = s.fifo_cnt != 0 ? s.fifo[0] : w.irdata;
  w.pc_d = s.if_pc;
  w.half_d = s.half;
  w.half_valid_d = s.half_valid;
  if (!(s.if_pc & 2)) {
    const bool full = (w0 & 3) == 3;
    w.raw_valid = w0_valid;
    w.raw = full ? w0 : (w0 & 0xFFFF);
    if (w0_valid && id_take) {
      w.consume = true;
      if (full) {
        w.pc_d += 4;
      } else {
        w.pc_d += 2;
        w.half_d = w0 >> 16;
        w.half_valid_d = true;
      }
    }
  } else if (s.half_valid) {
    w.raw_valid = w0_valid;
    if ((s.half & 3) != 3) {
      // The kept half is a whole instruction, but it goes to ID only while the buffer also
      // offers the next word (which is not consumed).
      w.raw = s.half;
      if (w0_valid && id_take) {
        w.pc_d += 2;
        w.half_valid_d = false;
      }
    } else {
      w.raw = (w0 << 16) | s.half;
      if (w0_valid && id_take) {
        w.consume = true;
        w.pc_d += 4;
        w.half_d = w0 >> 16;
      }
    }
  } else if (w0_valid) {
    // The first word after a redirect to a halfword address: its upper half is kept, taken
    // only when ID can take an instruction.
    const bool upper_compressed = ((w0 >> 16) & 3) != 3;
    if (upper_compressed) {
      w.raw_valid = true;
      w.raw = w0 >> 16;
    }
    if (id_take) {
      w.consume = true;
      w.half_d = w0 >> 16;
      if (upper_compressed) {
        w.pc_d += 2;
      } else {
        w.half_valid_d = true;
      }
    }
  }
  if (w.pc_set) {
    w.pc_d = w.target & ~1u;
    w.half_valid_d = false;
  }
  w.if_valid = w.raw_valid & !w.pc_set;
  w.if_accept = w.if_valid & id_take;
}

// ---- the prefetcher's request (rv_fetch.sv) -----------------------------------------------
//
// A new word whenever buffered (0 in a redirect cycle) plus outstanding words are fewer than
// 2; a request not granted is held unchanged.

SOCSIM_HOT_INLINE void Cv32e40pTiming::fetch_prefetcher(Wires& w) {
  const State& s = s_;
  const unsigned fifo_eff = w.pc_set ? 0 : s.fifo_cnt;
  w.want_new = w.fetch_req & (fifo_eff + s.outstanding < 2);
  w.ireq = s.pend | w.want_new;
  w.new_addr = w.pc_set ? (w.target & ~3u) : s.fetch_addr;
  w.iaddr = s.pend ? s.pend_addr : w.new_addr;
  w.igranted = w.ireq & w.igrant;
  w.granted_stale = s.pend & (s.pend_stale | w.pc_set);
}

// ---- the bus (rv_core_sim.sv): this cycle's granted requests, the fetch first (as the RTL
// wrapper serves them) -------------------------------------------------------------------------

template <bool kPlain>
SOCSIM_HOT_INLINE bool Cv32e40pTiming::core_sim_bus(Wires& w) {
  State& s = s_;
  const ExReg& ex = s.ex;
  if (!kPlain && request_observer_ != nullptr) {
    ObiRequest ir, dr;
    ir.req = w.ireq;
    ir.be = 0xF;
    ir.addr = w.iaddr;
    if (w.data_req) {
      dr.req = true;
      dr.we = ex.ctl.mem_store;
      dr.be = s.phase ? ex.be >> 4 : ex.be & 0xF;
      dr.addr = ex.word + (s.phase ? 4 : 0);
      dr.wdata = ex.wdata;
    }
    request_observer_->on_requests(w.now, ir, w.igrant, dr, w.dgrant);
  }
  if (w.igranted) {
    uint32_t word = 0, wait = 0;
    if (!server_.fetch(w.iaddr, w.now, &word, &wait)) {
      mark_failed_fetch(w.iaddr);  // word 0 (illegal), no wait cycles
      word = 0;
      wait = 0;
    }
    s.instr_q.push(w.now + 1 + wait, word);
    if (memo_recording_) {
      if (wait != 0 || server_.reached_device()) {
        memo_abort();
      } else {
        memo_rec_.fetched.emplace_back(w.iaddr, word);
      }
    }
  }
  if (w.dgranted && !serve_data(w.now, w.last)) {
    fault_ = server_.fault(trace_.last_pc);
    return false;
  }
  return true;
}

// ---- retirement (rv_core.sv): WB's instruction, then the branches that skipped WB behind
// it -------------------------------------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::core_wb_retire(const Wires& w) {
  State& s = s_;
  if (s.wb_valid && w.wb_done) {
    retire_next(w.now);
    for (; s.held != 0; --s.held) retire_next(w.now);
  }
}

// ---- EX's instruction leaves (rv_core.sv): CSR write, then on to WB (or past it) ----------

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::core_ex_leave(Wires& w) {
  State& s = s_;
  const ExReg& ex = s.ex;
  if (w.ex_done) {
    if (!kPlain && ex.ctl.unit == Unit::kCsr) {
      w.written = hart_.csr_write(ex.insn, ex.csr_operand);
      hart_.write_reg(ex.ctl.rd, ex.csr_old);
      if (recording_) trace_.at(trace_.tail - 1).rec.rd_value = ex.ctl.rd != 0 ? ex.csr_old : 0;
      w.counting_changed = true;
    }
    if (!kPlain && recording_) {
      RetireRecord& r = trace_.at(trace_.tail - 1).rec;  // EX's
      if (is_trap(ex.ctl.sys)) r.next_pc = hart_.mtvec_base();
      if (ex.ctl.sys == Sys::kMret) r.next_pc = hart_.mepc();
    }
    leave_ex(w.branch_skip);
  }
  s.wb_valid = (w.ex_done && !w.branch_skip) || (s.wb_valid && !w.wb_done);
}

// ---- the controller's actions on the CSRs and the performance events (rv_csr.sv) ----------
//
// The events are registered: counted in the next cycle.

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::csr_trap_and_events(Wires& w) {
  const State& s = s_;
  if (!kPlain && w.save) hart_.enter_trap(w.save_cause, w.save_epc);
  if (!kPlain && w.mret) hart_.mret();

  const cv32e40p::Control& c = *w.id_ctl;
  uint32_t events = ev(csr::kEvCycles);
  if (w.id_ready && c.counts) {
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
    if (w.load_stall && !w.halt_id && s.id_moved) events |= ev(csr::kEvLdStall);
    if (w.jr_stall && !w.halt_id && s.id_moved) events |= ev(csr::kEvJmpStall);
    if (w.fetch_req && !w.halt_if && !w.pc_set && !w.if_valid && (!s.id_valid || w.id_ready)) {
      events |= ev(csr::kEvImiss);
    }
    if (w.branch_taken) events |= ev(csr::kEvBranchTaken);
  }
  w.events = events;
}

// ---- the sleep unit (rv_controller.sv) ----------------------------------------------------
//
// core_sleep_o once the controller idles in WFI and neither port had a request made or
// outstanding in the cycle before; the lines end it at once. (Decoding, the controller was
// not idle in the cycle before: busy.) Whether the caller may let the cycles pass is the
// environment's to say when a line (not enabled, or it would wake the core) is high.

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::controller_sleep_unit(Wires& w) {
  State& s = s_;
  w.sleeping = !kPlain && s.fetch_enable && !w.wakeup && !s.busy;
  s.asleep = w.sleeping && !w.ireq && !w.data_req && s.instr_q.count == 0 &&
             s.data_q.count == 0 && env_.sleeps_through(w.irq_i);
  if (!kPlain) {
    if (w.sleeping) {
      slept_ = true;
    } else if (slept_) {
      slept_ = false;
      env_.awake();
    }
  }
  s.busy = !w.ctrl_idle || w.ireq || s.outstanding != 0 || w.data_req || s.lsu_cnt != 0;
}

// ---- the counters (rv_csr.sv): the last cycle's events, then this cycle's are registered ---

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::csr_counters(const Wires& w) {
  State& s = s_;
  count(w.sleeping, w.written);
  if (memo_recording_ && (s.events_q & ev(csr::kEvInstr))) ++memo_rec_.instr_events;
  s.events_q = w.events;
  if (!kPlain && w.counting_changed) refresh_counting();
}

// ---- ID -> EX (rv_core.sv) ----------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::core_id_to_ex(const Wires& w) {
  State& s = s_;
  if (w.id_ready) issue(w.now);
  s.ex_valid = w.id_ready || (s.ex_valid && !w.ex_done);
  s.ex_first = w.id_ready;
  if (w.id_ready) {
    s.ex_redirected = false;
  } else if (w.branch_taken) {
    s.ex_redirected = true;
  }
  if (w.irq_ack) {
    s.intr_tag = true;
    s.intr_tag_id = static_cast<uint8_t>(w.irq_id);
  } else if (w.id_ready) {
    s.intr_tag = false;
  }
}

// ---- the APU dispatcher's registers (FPU only) ----------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::apu_registers(const Wires& w) {
  State& s = s_;
  const bool rvalid_i = s.apu_active & (w.now == s.apu_return_at);
  const bool multicycle = s.apu_active & (s.apu_class == 3);
  if (rvalid_i & multicycle & w.apu_hold) {
    s.apu_rvalid_q = true;
  } else if (s.apu_rvalid_q & !w.apu_hold) {
    s.apu_rvalid_q = false;
  }
  if (w.apu_req & !w.apu_returned_req) {
    s.apu_active = true;
    s.apu_addr = s.ex.ctl.waddr6;
    s.apu_class = s.ex.ctl.apu_class;
    s.apu_return_at = w.now + s.ex.apu_cycles;
  } else if (w.apu_valid) {
    s.apu_active = false;
  }
  if (w.apu_valid_req & !w.apu_req) --s.ex.apu_nack;
}

// ---- LSU registers (rv_lsu.sv) ------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::lsu_registers(const Wires& w) {
  State& s = s_;
  if (w.ex_done) {
    s.phase = false;
  } else if (w.lsu_active && w.phase_done && !w.last) {
    s.phase = true;
  }
  if (w.drvalid) {
    s.out_last[0] = s.out_last[1];
    --s.lsu_cnt;
  }
  if (w.dgranted) {
    s.out_last[s.lsu_cnt & 1] = w.last;
    ++s.lsu_cnt;
  }
}

// ---- IF registers (rv_fetch.sv): the buffer, the outstanding and dropped responses, the
// held request -----------------------------------------------------------------------------------

SOCSIM_HOT_INLINE void Cv32e40pTiming::fetch_registers(const Wires& w) {
  State& s = s_;
  if (w.resp_live) {
    s.fifo[s.fifo_cnt & 1] = w.irdata;
    ++s.fifo_cnt;
  }
  if (w.consume) {
    s.fifo[0] = s.fifo[1];
    --s.fifo_cnt;
  }
  if (w.pc_set) s.fifo_cnt = 0;
  const unsigned out_after_resp = s.outstanding - (w.irvalid ? 1 : 0);
  const unsigned disc_after_resp = s.discard - ((w.irvalid && s.discard != 0) ? 1 : 0);
  s.discard =
      (w.pc_set ? out_after_resp : disc_after_resp) + ((w.igranted && w.granted_stale) ? 1 : 0);
  s.outstanding = out_after_resp + (w.igranted ? 1 : 0);
  if (w.pc_set) s.fetch_addr = w.target & ~3u;
  if (!s.pend && w.want_new) s.fetch_addr = w.new_addr + 4;
  s.pend_stale = s.pend && (s.pend_stale || w.pc_set);
  s.pend = w.ireq && !w.igrant;
  s.pend_addr = w.iaddr;
}

// ---- the controller's state (rv_controller.sv) --------------------------------------------

template <bool kPlain>
SOCSIM_HOT_INLINE void Cv32e40pTiming::controller_registers(const Wires& w) {
  State& s = s_;
  const cv32e40p::Control& c = *w.id_ctl;
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
      if (w.dbg_halt) {
        next = Ctrl::kDbgHalt;
        s.dbg_pc = s.id->pc;
      } else if (w.is_decoding) {
        if (c.sys != Sys::kNone) {
          if (w.id_ready) {
            next = Ctrl::kFlushEx;
            s.flush_sys = c.sys;
            s.flush_csr = c.csr_access;
            s.flush_pc = s.id->pc;
          }
        } else if (w.pc_set) {
          jump_done_d = !w.id_ready;  // the jump is taken; its instruction may stay in ID
        } else {
          jump_done_d = s.jump_done && !w.id_ready;
        }
      }
      break;
    case Ctrl::kFlushEx:
      // An illegal instruction reaches EX with every unit disabled: the CV32E40P's FLUSH_EX
      // then waits one cycle more (an illegal CSR access does not).
      if (w.ex_ready &&
          !(s.flush_sys == Sys::kIllegal && !s.flush_csr && s.ctrl_prev == Ctrl::kDecode)) {
        next = Ctrl::kFlushWb;
      }
      break;
    case Ctrl::kFlushWb:
      next = s.flush_sys == Sys::kMret  ? Ctrl::kXretJump
             : s.flush_sys == Sys::kWfi ? Ctrl::kWaitSleep
                                        : Ctrl::kDecode;
      break;
    case Ctrl::kXretJump:
      next = Ctrl::kDecode;
      break;
    case Ctrl::kDbgHalt:
      if (w.dbg_resume) {
        next = Ctrl::kDecode;
        s.dbg_resume = false;
      }
      break;
    case Ctrl::kWaitSleep:
      next = Ctrl::kSleep;
      break;
    case Ctrl::kSleep:
      if (w.wakeup) next = Ctrl::kFirstFetch;
      break;
  }
  s.ctrl_prev = s.ctrl;
  s.ctrl = next;
  s.jump_done = jump_done_d;
  s.dbg_issued = !w.dbg_resume && (s.dbg_issued || w.id_ready);
}

// ---- the ID register (the aligner's pc is this cycle's) and the other registers (rv_core.sv)

SOCSIM_HOT_INLINE void Cv32e40pTiming::core_id_register(const Wires& w) {
  State& s = s_;
  const bool id_valid_d = w.if_accept || (s.id_valid && !w.id_ready && !w.kill_id);
  if (w.if_accept) {
    s.id = &decode_at(s.if_pc, w.raw);
  }
  s.id_valid = id_valid_d;
  s.if_pc = w.pc_d;
  s.half = w.half_d;
  s.half_valid = w.half_valid_d;

  s.id_moved = !w.halt_id && w.id_free;
  s.fetch_enable = true;  // fetch_enable_i is high from cycle 0; the core registers it
  s.irq_q = w.irq_i & csr::kIrqMask;
}

// ---- the cycle, stage by stage ---------------------------------------------------------------

template <bool kPlain>
bool Cv32e40pTiming::cycle() {
  Wires w;
  w.now = s_.cycle;
  if (!kPlain && memo_recording_) memo_abort();  // only plain cycles are memoized
  s_.boundary = false;

  core_sim_inputs<kPlain>(w);
  csr_irq_requests<kPlain>(w);
  lsu_handshake(w);
  if (fpu_) apu_dispatcher(w);
  core_ex_wb_handshake(w);
  controller_hazards(w);
  controller_outputs<kPlain>(w);
  fetch_aligner(w);
  fetch_prefetcher(w);
  if (!core_sim_bus<kPlain>(w)) return false;

  core_wb_retire(w);
  core_ex_leave<kPlain>(w);
  csr_trap_and_events<kPlain>(w);
  controller_sleep_unit<kPlain>(w);
  csr_counters<kPlain>(w);

  if (fpu_) apu_registers(w);
  core_id_to_ex(w);
  lsu_registers(w);
  fetch_registers(w);
  controller_registers<kPlain>(w);
  core_id_register(w);

  if (__builtin_expect(fetch_faulted_, 0)) return false;
  ++s_.cycle;
  if (!kPlain && debug_ != nullptr) debug_->cycle_done();
  if (!kPlain && w.dbg_halted) {
    // The debugger holds the core here (rv_core.sv: debug_halted_o, seen by the driver at
    // the end of the cycle); it resumes in the next cycle.
    s_.dbg_resume_pc = debug_->halted(s_.dbg_pc, s_.cycle,
                                      trace_.delivered + (trace_.has_pending ? 1 : 0));
    s_.dbg_resume = true;
  }
  s_.plain = plain_next();
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
