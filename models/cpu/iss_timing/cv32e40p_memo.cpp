// Memoization of the pipeline's behaviour for repeated blocks (see cv32e40p_timing.h).
//
// A block begins in the cycle after a control transfer entered EX (State::boundary): none of
// its instructions has been executed then, and every older one has. Its span ends when the
// next one begins. What decides the span's cycles, given the instructions, is the state of
// the pipeline at its start (memo_key(): every register of State but the bookkeeping, times
// relative to the start) and what the instructions do that the timing depends on: where a
// jump goes, whether an access is misaligned, the divider's latency, and the words the fetch
// read. A recorded block is applied only when all of these
// are the same; its instructions are executed first (loads and stores on their zero-wait
// windows), and undone if one of them differs, in which case the cycles are simulated.
//
// The last instruction is a control transfer that enters EX in the span's last cycle. A jump
// redirects the fetch from ID, inside the span: its target counts. A conditional branch
// resolves in EX, after the span: its outcome changes only what the end state says about it
// (taken, target, the next block), which is set from the execution.
#include <cstring>

#include "models/cpu/iss_timing/cv32e40p_timing.h"

namespace socsim {

using cv32e40p::Sys;
using cv32e40p::Unit;
using cv32e40p::Xfer;

namespace {

// Packs values into 64-bit words.
class KeyWriter {
 public:
  explicit KeyWriter(std::vector<uint64_t>* out) : out_(out) { out_->clear(); }
  void put(uint64_t v, unsigned bits) {
    if (used_ + bits > 64) flush();
    word_ |= (bits == 64 ? v : v & ((uint64_t(1) << bits) - 1)) << used_;
    used_ += bits;
  }
  void flush() {
    if (used_ == 0) return;
    out_->push_back(word_);
    word_ = 0;
    used_ = 0;
  }

 private:
  std::vector<uint64_t>* out_;
  uint64_t word_ = 0;
  unsigned used_ = 0;
};

uint64_t hash_key(uint32_t pc, const std::vector<uint64_t>& key) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ pc;
  for (uint64_t w : key) h = (h ^ w) * 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 29);
}

bool is_mul_or_div(Unit u) { return u == Unit::kMul || u == Unit::kDiv; }

}  // namespace

void Cv32e40pTiming::memo_key(const State& s, std::vector<uint64_t>* key) const {
  const uint64_t now = s.cycle;
  KeyWriter k(key);
  k.put(static_cast<unsigned>(s.ctrl), 4);
  k.put(static_cast<unsigned>(s.ctrl_prev), 4);
  k.put(static_cast<unsigned>(s.flush_sys), 4);
  k.put(s.flush_csr, 1);
  k.put(s.jump_done, 1);
  k.put(s.fetch_enable, 1);
  k.put(s.fifo_cnt, 2);
  k.put(s.outstanding, 2);
  k.put(s.discard, 2);
  k.put(s.pend, 1);
  k.put(s.pend_stale, 1);
  k.put(s.half_valid, 1);
  k.put(s.half, 16);
  k.put(s.flush_pc, 32);
  k.put(s.fifo[0], 32);
  k.put(s.fifo[1], 32);
  k.put(s.fetch_addr, 32);
  k.put(s.pend_addr, 32);
  k.put(s.if_pc, 32);
  // Response times; the data of fetches (the data port's are not used: a load completes when
  // it is granted).
  for (const ObiResponseQueue* q : {&s.instr_q, &s.data_q}) {
    k.put(q->count, 3);
    for (unsigned i = 0; i < q->count; ++i) {
      const ObiResponseQueue::Response& r = q->slots[(q->head + i) % 4];
      k.put(r.due - now, 16);
      if (q == &s.instr_q) k.put(r.data, 32);
    }
    if (q->count != 0) k.put(q->last_due - now, 16);
  }
  k.put(s.id_valid, 1);
  k.put(s.id->pc, 32);
  k.put(s.id->raw, 32);
  const ExReg& x = s.ex;
  k.put(s.ex_valid, 1);
  k.put(s.ex_first, 1);
  k.put(s.ex_redirected, 1);
  k.put(x.taken, 1);
  k.put(x.intr, 1);
  k.put(x.intr_id, 5);
  k.put(x.insn.length, 3);
  k.put(is_mul_or_div(x.ctl.unit) ? x.ready_at - now : 0, 16);
  k.put(x.insn.bits, 32);
  k.put(x.pc, 32);
  k.put(x.target, 32);
  // (what EX's instruction left in the fields of other units is not looked at)
  if (x.ctl.unit == Unit::kLsu) {
    k.put(x.split, 1);
    k.put(x.be, 8);
    k.put(x.word, 32);
    k.put(x.wdata, 32);
    k.put(x.lo, 32);
    k.put(x.addr, 32);
  }
  if (x.ctl.unit == Unit::kCsr) {
    k.put(x.csr_operand, 32);
    k.put(x.csr_old, 32);
  }
  k.put(s.phase, 1);
  k.put(s.lsu_cnt, 2);
  k.put(s.out_last[0], 1);
  k.put(s.out_last[1], 1);
  k.put(s.wb_valid, 1);
  k.put(s.wb_load, 1);
  k.put(s.wb_mem, 1);
  k.put(s.wb_rd, 5);
  k.put(s.held, 16);
  k.put(s.intr_tag, 1);
  k.put(s.intr_tag_id, 5);
  k.put(s.id_moved, 1);
  k.put(s.busy, 1);
  k.put(s.events_q, 16);
  k.put(s.irq_q, 32);
  k.put(s.irq_lines, 32);
  k.put(s.boundary_pc, 32);
  k.flush();
}

void Cv32e40pTiming::memo_shift_times(State* s, int64_t delta) {
  s->cycle += delta;
  for (ObiResponseQueue* q : {&s->instr_q, &s->data_q}) {
    for (unsigned i = 0; i < q->count; ++i) q->slots[(q->head + i) % 4].due += delta;
    if (q->count != 0) q->last_due += delta;
  }
  if (is_mul_or_div(s->ex.ctl.unit)) s->ex.ready_at += delta;
}

// ---- recording --------------------------------------------------------------------------------

void Cv32e40pTiming::memo_record_issue(const Execution& e) {
  const State& s = s_;
  if (memo_rec_.insns.size() == kMemoMaxInsns) {
    memo_recording_ = false;  // no control transfer for long: not memoized
    return;
  }
  const DecodeEntry& id = *s.id;
  MemoInsn m;
  m.pc = id.pc;
  m.raw = id.raw;
  m.insn = id.insn;
  m.ctl = id.ctl;
  m.split = s.ex.split;
  m.div_cycles = static_cast<uint8_t>(id.ctl.unit == Unit::kDiv ? s.ex.ready_at - s.cycle : 0);
  m.next_pc = e.next_pc;
  memo_rec_.insns.push_back(m);
}

void Cv32e40pTiming::memo_finish() {
  memo_recording_ = false;
  MemoEntry& r = memo_rec_;
  // A block is its instructions through a control transfer (a run may also stop right at a
  // boundary: then nothing was recorded).
  if (r.insns.empty() || r.insns.back().ctl.xfer == Xfer::kNone) return;
  r.cycles = s_.cycle - memo_start_;
  r.exit = s_;
  r.exit_id_pc = s_.id->pc;
  r.exit_id_raw = s_.id->raw;
  memo_shift_times(&r.exit, -static_cast<int64_t>(memo_start_));
  std::unique_ptr<MemoEntry>& slot = memo_[hash_key(r.pc, r.key) % kMemoEntries];
  if (!slot) slot = std::make_unique<MemoEntry>();
  r.generation = ++memo_generation_;
  r.next[0] = r.next[1] = nullptr;
  std::swap(*slot, r);
  // (If this replaced the entry the block followed, that entry is gone: no link.)
  if (memo_before_ != nullptr && memo_before_->generation == memo_before_generation_) {
    memo_before_->next[memo_before_taken_] = slot.get();
    memo_before_->next_generation[memo_before_taken_] = slot->generation;
  }
}

Cv32e40pTiming::MemoEntry* Cv32e40pTiming::memo_lookup() {
  memo_key(&memo_key_);
  MemoEntry* e = memo_[hash_key(s_.boundary_pc, memo_key_) % kMemoEntries].get();
  return e != nullptr && e->pc == s_.boundary_pc && e->key == memo_key_ ? e : nullptr;
}

// ---- at a boundary -----------------------------------------------------------------------------

void Cv32e40pTiming::memo_boundary(uint64_t until) {
  if (memo_recording_) memo_finish();
  MemoEntry* before = nullptr;  // the entry applied last
  bool taken = false;           // ... and the outcome of its last branch
  bool keyed = false;           // memo_key_ is the current state's
  while (s_.boundary && s_.plain) {
    // After an entry, the next one is known (its key is that of the entry's end state).
    MemoEntry* e = nullptr;
    keyed = false;
    if (before != nullptr && before->next[taken] != nullptr &&
        before->next[taken]->generation == before->next_generation[taken]) {
      e = before->next[taken];
    } else {
      e = memo_lookup();
      keyed = true;
      if (e != nullptr && before != nullptr) {
        before->next[taken] = e;
        before->next_generation[taken] = e->generation;
      }
    }
    if (e == nullptr || !memo_apply(*e, until, &taken)) break;
    before = e;
  }
  if (!(s_.boundary && s_.plain)) return;
  // Record this block.
  if (!keyed) memo_key(&memo_key_);
  memo_recording_ = true;
  memo_before_ = before;
  memo_before_taken_ = taken;
  memo_before_generation_ = before != nullptr ? before->generation : 0;
  memo_start_ = s_.cycle;
  memo_rec_.pc = s_.boundary_pc;
  memo_rec_.key = memo_key_;
  memo_rec_.instr_events = 0;
  memo_rec_.insns.clear();
  memo_rec_.fetched.clear();
  memo_rec_.retire_offsets.clear();
}

bool Cv32e40pTiming::memo_apply(const MemoEntry& e, uint64_t until, bool* branch_taken) {
  State& s = s_;
  const uint64_t start = s.cycle;
  const uint64_t end = start + e.cycles;
  // The span must end by the run's limit, and the lines stay as they are meanwhile.
  if (end > until || !s.irq_known || end > s.irq_stable_until) return false;
  for (const auto& [addr, word] : e.fetched) {
    const DirectWindow* w = server_.zero_wait_window(BusPort::kInstr, addr, 4, false);
    uint32_t now_there;
    if (w == nullptr) return false;
    std::memcpy(&now_there, w->data + (addr - w->base), 4);
    if (now_there != word) return false;
  }

  // Execute the block, checking what its timing depends on; undo on a difference.
  memo_regs_ = hart_.regs();
  memo_undo_.clear();
  const uint64_t tail = trace_.tail;
  bool same = true;
  Execution x;
  for (const MemoInsn& m : e.insns) {
    hart_.execute(m.insn, m.pc, &x);
    InFlight& f = push_record();
    f.intr = false;
    f.bad_fetch = false;
    RetireRecord& r = f.rec;
    r.pc = m.pc;
    if (recording_) describe_issue(&r, m.pc, m.raw, m.insn, m.ctl, x);
    if (m.ctl.unit == Unit::kLsu) {
      const unsigned bytes = Rv32Hart::access_bytes(m.insn.op);
      const uint32_t addr = x.mem_addr;
      const DirectWindow* w = server_.zero_wait_window(BusPort::kData, addr, bytes, m.ctl.mem_store);
      if (((addr & 3) + bytes > 4) != m.split || w == nullptr) {
        same = false;
        break;
      }
      uint8_t* p = w->data + (addr - w->base);
      uint32_t v = 0;
      std::memcpy(&v, p, bytes);
      if (m.ctl.mem_store) {
        memo_undo_.push_back(MemoUndo{p, v, bytes});
        std::memcpy(p, &x.store_data, bytes);
      } else {
        r.rd_value = hart_.complete_load(m.insn, v);
        r.mem_data = v;
      }
    } else if (m.ctl.unit == Unit::kDiv) {
      if (cv32e40p::divide_cycles(x.operand_b, m.insn.op == Op::kDiv || m.insn.op == Op::kRem) !=
          m.div_cycles) {
        same = false;
        break;
      }
    }
    if (m.ctl.xfer != Xfer::kBranch && x.next_pc != m.next_pc) {
      same = false;
      break;
    }
  }
  if (!same) {
    for (auto u = memo_undo_.rbegin(); u != memo_undo_.rend(); ++u) std::memcpy(u->p, &u->old, u->bytes);
    hart_.set_regs(memo_regs_);
    trace_.tail = tail;
    return false;
  }

  // The recorded end state, with the block's branch as it went.
  State end_state = e.exit;
  memo_shift_times(&end_state, static_cast<int64_t>(start));
  end_state.irq_lines = s.irq_lines;
  end_state.irq_stable_until = s.irq_stable_until;
  end_state.irq_known = true;
  end_state.id = &decode_at(e.exit_id_pc, e.exit_id_raw);
  if (end_state.ex.ctl.xfer == Xfer::kBranch) {  // the block's last instruction, now in EX
    end_state.ex.taken = x.taken;
    end_state.ex.target = x.next_pc;
    end_state.boundary_pc = x.next_pc;
  }
  *branch_taken = end_state.ex.ctl.xfer == Xfer::kBranch && x.taken;
  end_state.asleep = false;
  if (memo_check_) {
    // Undo the block and simulate the span instead; compare.
    const std::array<uint32_t, 32> executed = hart_.regs();
    hart_.set_regs(memo_regs_);
    for (auto u = memo_undo_.rbegin(); u != memo_undo_.rend(); ++u) std::memcpy(u->p, &u->old, u->bytes);
    trace_.tail = tail;
    memo_regs_ = executed;
    return memo_check_span(e, end_state);
  }

  // Take the recorded span: retirements, counters, the end state.
  for (uint32_t offset : e.retire_offsets) retire_next(start + offset);
  Counters& k = hart_.counters();
  if (count_mcycle_) k.mcycle += e.cycles;
  if (count_minstret_) k.minstret += e.instr_events;
  s = end_state;
  s.plain = plain_next();
  return true;
}

// (memo_check_) Simulates the span `e` predicted from the current state and compares the
// result with the prediction: state, registers (memo_regs_: those the block's execution left),
// the cycles of the retirements. Returns true with the simulated result in place.
bool Cv32e40pTiming::memo_check_span(const MemoEntry& e, const State& predicted) {
  const uint64_t start = s_.cycle;
  const uint64_t retired_before = trace_.order;
  memo_check_ = false;  // no memo inside
  std::vector<uint64_t> retired;
  while (s_.cycle < start + e.cycles) {
    const uint64_t order = trace_.order;
    if (!(s_.plain ? cycle<true>() : cycle<false>())) break;
    for (uint64_t i = order; i < trace_.order; ++i) retired.push_back(s_.cycle - 1 - start);
  }
  memo_check_ = true;
  std::vector<uint64_t> want, got;
  memo_key(predicted, &want);
  memo_key(s_, &got);
  std::string diff;
  if (want != got || predicted.cycle != s_.cycle) diff = "pipeline state";
  if (hart_.regs() != memo_regs_) diff += " registers";
  std::vector<uint64_t> offsets(e.retire_offsets.begin(), e.retire_offsets.end());
  if (offsets != retired) diff += " retirements";
  if (!diff.empty()) {
    fault_ = "memo check: the span of the block at " + hex(e.pc) + " from cycle " +
             std::to_string(start) + " differs from its simulation: " + diff + " (" +
             std::to_string(trace_.order - retired_before) + " retired)";
    return false;
  }
  return true;
}

}  // namespace socsim
