// Cv32e40pTiming: the cycle model of the CV32E40P pipeline that gives the ISS the RTL core's
// cycles. It computes, cycle for cycle, what socsim's rv_core (rtl/, checked request for
// request against the OpenHW CV32E40P) computes for pipeline control, and drives the
// functional ISS (Rv32Hart) in program order at the cycles the core does each step:
//
//   IF   the prefetch buffer (2 words; a request whenever buffered plus outstanding words are
//        fewer than 2; responses of a flushed stream dropped; a request held until granted)
//        and the aligner (16/32-bit instructions at any halfword; after a jump to a halfword
//        address the first word is only taken when ID can take an instruction; a compressed
//        instruction kept from a word goes on only while the buffer offers the next word);
//   ID   decode, the load-use and jalr stalls evaluated on the ID register whether or not it
//        holds a valid instruction (the stale-ID rules of rtl/README.md), jumps taken here;
//   EX   the ALU, the multiplier (mulh* 5 cycles), the divider (3 + clz / 2 + leading ones),
//        the LSU with two outstanding transactions, misaligned accesses as two, and the
//        lsu_ready_ex rule; taken branches redirect here; CSRs are read in the first EX cycle
//        and written when the instruction leaves EX; a branch leaves EX even while WB waits;
//   WB   load data; every instruction retires here, in order;
//   the controller (flushes for ecall, ebreak, mret, wfi, fence, illegal instructions and
//        status CSRs; interrupts taken in ID; the sleep unit), the interrupt controller
//        (registered lines, wake-up from the lines themselves) and the counters with the
//        registered performance events.
//
// Bus requests are made in the cycles the core makes them and served through ObiServer, with
// the grants and response delays the environment gives (TLM latencies in the SoC), so loads,
// stores and fetches reach memory and devices in the same cycles as on the RTL core.
//
// Speed: a cycle in the common case (decoding, no interrupt enabled, no CSR or system
// instruction in flight) is evaluated with the rare cases left out, and memory with a DMI
// window is read and written directly. Above all, repeated behaviour is memoized (in the
// manner of FastSim, Schnarr and Larus, ASPLOS 1998; cv32e40p_memo.cpp): a block, the
// instructions from one control transfer's successor through the next control transfer,
// takes the same cycles, makes the same requests and leaves the pipeline in the same state
// whenever it starts from the same pipeline state and its instructions behave alike (same
// jump target, same alignment of accesses, same divider latency). The first time, the
// cycles are simulated and recorded; later, the block is executed and checked against the
// record and the pipeline jumps to the recorded end state (undone and simulated if a check
// fails). Only blocks that touch nothing but zero-wait memory windows are memoized.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/cpu/iss/rv32_hart.h"
#include "models/cpu/iss_timing/core_environment.h"
#include "models/cpu/iss_timing/cv32e40p_control.h"
#include "models/cpu/obi_server.h"
#include "models/cpu/retire.h"
#include "models/cpu/rtl/obi_response_queue.h"

namespace socsim {

class Cv32e40pTiming {
 public:
  enum class Status {
    kRunning,  ///< the target cycle was reached
    kSleep,    ///< the core sleeps (WFI), no line is high and no transaction is pending
    kStopped,  ///< a fault (fault()) or the stop flag
  };

  Cv32e40pTiming(Rv32Hart& hart, CoreEnvironment& env);

  /// Reset released, fetch enable high from cycle 0 (the first fetch goes out in cycle 2).
  void reset();
  /// Simulates cycles until cycle() == until_cycle, the core is asleep after a cycle, a fault,
  /// or `*stop` is true after a cycle.
  Status run(uint64_t until_cycle, const bool* stop);
  /// Lets `n` cycles pass while asleep (nothing changes then but the cycle count).
  void skip_sleep_cycles(uint64_t n) { s_.cycle += n; }

  /// Completed cycles since reset.
  uint64_t cycle() const { return s_.cycle; }
  /// Retire records delivered so far, and the pc of the last one (0 before any).
  uint64_t delivered() const { return trace_.delivered; }
  uint32_t last_pc() const { return trace_.last_pc; }
  const std::string& fault() const { return fault_; }

  /// Receives every retired instruction, in order, as the RTL core reports them: a record is
  /// delivered when its successor retires (an interrupt taken after it is marked on it), a
  /// conditional branch that skipped WB right after the instruction WB held (same cycle).
  void set_retire_observer(RetireObserver* observer) {
    observer_ = observer;
    recording_ = observer != nullptr;
  }
  /// Delivers the record still held (end of a run).
  void flush_retire();
  /// Sees every cycle's bus requests (slower: only for traces and checks).
  void set_request_observer(ObiRequestObserver* observer) { request_observer_ = observer; }
  ObiServer& server() { return server_; }
  /// Checks the memo: every span it would skip is simulated as well and the two results are
  /// compared (state, registers, retirements); a difference stops the run with a fault.
  void set_memo_check(bool check) { memo_check_ = check; }
  /// A debugger's halt (DebugHalt, models/cpu/retire.h), as rtl/rv_core.sv has it; nullptr:
  /// none (the default: runs without a debugger take no halt). With one, every cycle is
  /// simulated (no plain cycles, no memo).
  void set_debug_halt(DebugHalt* hook) { debug_ = hook; }

 private:
  // An instruction as decoded in ID: a decode-cache entry.
  struct DecodeEntry {
    uint32_t pc = 1;  // odd: empty
    uint32_t raw = 0;
    uint8_t fp_key = 0;  // FpDecodeState::key() it was decoded with
    DecodedInsn insn;
    cv32e40p::Control ctl;
  };
  // The instruction in EX, and what it computed.
  struct ExReg {
    DecodedInsn insn;
    cv32e40p::Control ctl{cv32e40p::Unit::kNone, cv32e40p::Xfer::kNone, cv32e40p::Sys::kNone};
    bool taken = false;       // branch taken
    bool intr = false;        // first instruction of an interrupt handler
    uint8_t intr_id = 0;
    uint64_t ready_at = 0;    // mul/div: the cycle the unit is done
    // LSU
    bool split = false;       // two transactions
    uint8_t be = 0;           // byte enables of both words (8 bits)
    uint32_t word = 0;        // word address of the first transaction
    uint32_t wdata = 0;       // store data in its lanes
    uint32_t lo = 0;          // loaded lanes of the first word of a split load
    uint32_t addr = 0;        // byte address of a load or store
    uint32_t pc = 0;
    uint32_t target = 0;      // a branch's target
    uint32_t csr_operand = 0;
    uint32_t csr_old = 0;     // read in the first EX cycle
    uint32_t apu_cycles = 0;  // an APU operation: cycles from its request to its result
    uint32_t apu_nack = 0;    // ... and cycles its request is not granted (before those)
  };

  // The retire trace: a record per instruction from the cycle it enters EX to its delivery,
  // in program order: the one retired last (pending: held until its successor retires, which
  // may mark an interrupt on it), WB's, the branches that skipped WB, EX's.
  struct InFlight {
    RetireRecord rec;  // (without an observer only its pc is kept)
    bool intr;         // the first instruction of an interrupt handler
    bool bad_fetch;    // it overlaps a word whose fetch failed (at bad_fetch_addr)
    uint32_t intr_cause;
    uint32_t bad_fetch_addr;
  };
  struct Trace {
    std::vector<InFlight> ring = std::vector<InFlight>(64);  // a power of two
    uint64_t mask = 63;
    uint64_t head = 0, tail = 0;  // [head, tail): not delivered
    bool has_pending = false;     // ring[head] has retired and is held
    uint64_t order = 0;
    uint64_t delivered = 0;
    uint32_t last_pc = 0;
    InFlight& at(uint64_t i) { return ring[i & mask]; }
  };

  enum class Ctrl : uint8_t {
    kReset, kBootSet, kFirstFetch, kDecode, kFlushEx, kFlushWb, kXretJump, kWaitSleep, kSleep,
    kDbgHalt
  };

  // The combinational signals of one cycle (the wires of rtl/rv_core.sv and its modules),
  // each set by the stage function that computes it and read by the stages after it.
  struct Wires {
    uint64_t now = 0;
    // inputs of the cycle (rv_core_sim.sv)
    bool igrant = true, dgrant = true;
    uint32_t irq_i = 0, irdata = 0, drdata = 0;
    bool irvalid = false, drvalid = false;
    // interrupt controller (rv_csr.sv)
    uint32_t pending = 0;
    bool wakeup = false, irq_req = false;
    // LSU (rv_lsu.sv)
    bool lsu_active = false, data_req = false, last = false, dgranted = false;
    bool phase_done = false, resp_final = false;
    // EX and WB (rv_core.sv)
    bool wb_done = false, wb_free = false, ex_done = false, branch_skip = false;
    bool ex_ready = false, branch_taken = false;
    // ID hazards, on the ID register's instruction (rv_controller.sv)
    const cv32e40p::Control* id_ctl = nullptr;
    bool load_stall = false, jr_stall = false, id_free = false;
    // controller outputs (rv_controller.sv)
    bool fetch_req = true, pc_set = false, halt_if = false, halt_id = false;
    bool is_decoding = false, kill_id = false, save = false, irq_ack = false, mret = false;
    bool ctrl_idle = false, id_ready = false;
    // the debugger's halt (rv_core.sv): taken in DECODE, resumed, halted and drained
    bool dbg_halt = false, dbg_resume = false, dbg_halted = false;
    uint32_t target = 0, save_cause = 0, save_epc = 0;
    unsigned irq_id = 0;
    // the APU dispatcher and the write ports (cv32e40p_apu_disp.sv, cv32e40p_ex_stage.sv)
    bool apu_valid = false;       // the operation in flight returns its result this cycle
    bool apu_hold = false;        // a multicycle result is held (written in a later cycle)
    bool apu_valid_req = false;   // EX's APU operation is requested
    bool apu_req = false;         // ... and granted
    bool apu_returned_req = false;  // ... and its result comes in this cycle (class 1)
    bool apu_stall_type = false;  // EX's APU operation waits for the one in flight
    bool wb_contention = false;   // a class-3 result takes the ALU port from EX's instruction
    bool apu_id_stall = false;    // ID's instruction depends on an APU result
    // aligner and prefetcher (rv_fetch.sv)
    bool resp_live = false, raw_valid = false, consume = false, if_valid = false;
    bool if_accept = false, half_valid_d = false;
    uint32_t raw = 0, pc_d = 0, half_d = 0;
    bool want_new = false, ireq = false, igranted = false, granted_stale = false;
    uint32_t new_addr = 0, iaddr = 0;
    // what the cycle did: the CSR written (-1: none), events, the sleep unit (rv_csr.sv,
    // rv_controller.sv)
    int written = -1;
    bool counting_changed = false, sleeping = false;
    uint32_t events = 0;
  };

  template <bool kPlain>
  bool cycle();                                 // false: a fault
  // The stages of a cycle, one function per block of the RTL, in the order cycle() runs
  // them (cv32e40p_timing.cpp). First what the cycle computes:
  template <bool kPlain>
  void core_sim_inputs(Wires& w);               // rv_core_sim: grants, lines, responses
  template <bool kPlain>
  void csr_irq_requests(Wires& w);              // rv_csr: EX's CSR read, interrupt requests
  void lsu_handshake(Wires& w);                 // rv_lsu: a phase or the access is done
  void apu_dispatcher(Wires& w);                // the genuine core's APU path (FPU only)
  void core_ex_wb_handshake(Wires& w);          // rv_core: EX and WB done, free, ready
  void controller_hazards(Wires& w);            // rv_controller: load-use and jalr stalls
  template <bool kPlain>
  void controller_outputs(Wires& w);            // rv_controller: redirects, halts, traps
  void fetch_aligner(Wires& w);                 // rv_fetch: the instruction offered to ID
  void fetch_prefetcher(Wires& w);              // rv_fetch: the instruction request
  template <bool kPlain>
  bool core_sim_bus(Wires& w);                  // rv_core_sim: granted requests served
  // then what it does:
  void core_wb_retire(const Wires& w);          // rv_core: WB's instruction retires
  template <bool kPlain>
  void core_ex_leave(Wires& w);                 // rv_core: EX's instruction leaves
  template <bool kPlain>
  void csr_trap_and_events(Wires& w);           // rv_csr: trap entry, mret, events
  template <bool kPlain>
  void controller_sleep_unit(Wires& w);         // rv_controller: core_sleep_o
  template <bool kPlain>
  void csr_counters(const Wires& w);            // rv_csr: the counters advance
  // and the registers take their next values:
  void core_id_to_ex(const Wires& w);           // rv_core: ID -> EX
  void apu_registers(const Wires& w);           // the APU dispatcher (FPU only)
  void lsu_registers(const Wires& w);           // rv_lsu
  void fetch_registers(const Wires& w);         // rv_fetch: buffer, outstanding, pc
  template <bool kPlain>
  void controller_registers(const Wires& w);    // rv_controller: the state machine
  void core_id_register(const Wires& w);        // rv_core: ID register, other registers
  // Whether the cycle s_.cycle is a plain one (see cycle()).
  bool plain_next() const {
    const State& s = s_;
    return fast_allowed_ & (count_hpm_ == 0) & (s.ctrl == Ctrl::kDecode) & !s.pend &
           (s.discard == 0) & s.irq_known & (s.cycle <= s.irq_stable_until) &
           (((s.irq_q | s.irq_lines) & hart_.mie()) == 0) &
           !(s.ex_valid & (s.ex.ctl.unit == cv32e40p::Unit::kCsr)) &
           !(s.id_valid & (s.id->ctl.sys != cv32e40p::Sys::kNone));
  }
  void memo_boundary(uint64_t until);           // a block begins (cv32e40p_memo.cpp)
  void memo_abort() { memo_recording_ = false; }
  const DecodeEntry& decode_at(uint32_t pc, uint32_t raw);
  void issue(uint64_t now);                     // the ID instruction enters EX
  bool serve_data(uint64_t now, bool last);     // EX's granted data request
  void leave_ex(bool skips_wb);                 // EX's instruction is done
  InFlight& push_record();                      // for the instruction entering EX
  static void describe_issue(RetireRecord* r, uint32_t pc, uint32_t raw, const DecodedInsn& insn,
                             const cv32e40p::Control& c, const Execution& e);
  void retire_next(uint64_t now);               // the oldest unretired instruction retires
  void deliver();
  void count(bool sleeping, int written);
  // A failed fetch (nothing mapped): the word is an illegal instruction, a fault only if an
  // instruction that overlaps it retires (a prefetch beyond the end of memory is no fault).
  void mark_failed_fetch(uint32_t addr);
  void note_failed_fetch(const InFlight& f);
  void refresh_counting();
  void refresh_irq(uint64_t now);

  // Every register of the pipeline, with its reset value.
  struct State {
    uint64_t cycle = 0;

    // controller
    Ctrl ctrl = Ctrl::kReset, ctrl_prev = Ctrl::kReset;
    cv32e40p::Sys flush_sys = cv32e40p::Sys::kNone;
    bool flush_csr = false;
    uint32_t flush_pc = 0;
    bool jump_done = false;
    bool fetch_enable = false;
    // the debugger's halt (rv_core.sv's dbg_issued_q, dbg_pc_q; the resume the hook gave)
    bool dbg_issued = false;
    bool dbg_resume = false;
    uint32_t dbg_pc = 0;
    uint32_t dbg_resume_pc = 0;

    // IF
    uint32_t fifo[2] = {0, 0};
    unsigned fifo_cnt = 0;
    unsigned outstanding = 0;
    unsigned discard = 0;
    uint32_t fetch_addr = 0;
    bool pend = false;
    uint32_t pend_addr = 0;
    bool pend_stale = false;
    uint32_t if_pc = 0;
    uint32_t half = 0;
    bool half_valid = false;
    ObiResponseQueue instr_q;

    // ID: the instruction in (or last in) the ID register. An entry of the decode cache, which
    // is only written when the next instruction enters ID.
    bool id_valid = false;
    const DecodeEntry* id = nullptr;

    // EX
    bool ex_valid = false;
    bool ex_first = false;
    bool ex_redirected = false;
    ExReg ex;

    // LSU
    bool phase = false;
    unsigned lsu_cnt = 0;
    bool out_last[2] = {false, false};
    ObiResponseQueue data_q;

    // WB
    bool wb_valid = false, wb_load = false, wb_mem = false;
    uint8_t wb_rd = 0;
    uint8_t wb_waddr6 = 0;  // (FPU) the register WB's instruction writes, 6-bit address
    unsigned held = 0;  // branches that left EX past WB's waiting instruction, not yet retired

    // the APU dispatcher (FPU only): the operation in flight (one slot: the "waiting" one is
    // never used by the classes the decoder gives), its class (apu_lat), and a held result
    bool apu_active = false;
    uint8_t apu_addr = 0;
    uint8_t apu_class = 0;
    uint64_t apu_return_at = 0;
    bool apu_rvalid_q = false;

    // other registers
    bool intr_tag = false;
    uint8_t intr_tag_id = 0;
    bool id_moved = false;
    bool busy = false;
    uint32_t irq_q = 0;
    uint32_t events_q = 0;
    bool asleep = false;  // after the last cycle: asleep (see Status::kSleep)
    bool plain = false;   // the next cycle is a plain one (cycle())
    bool boundary = false;     // a control transfer entered EX in the last cycle: a block begins
    uint32_t boundary_pc = 0;  // ... at this pc

    // interrupt lines: irq_lines holds through cycle irq_stable_until
    uint32_t irq_lines = 0;
    uint64_t irq_stable_until = 0;
    bool irq_known = false;
  };

  Rv32Hart& hart_;
  CoreEnvironment& env_;
  ObiServer server_;
  RetireObserver* observer_ = nullptr;
  ObiRequestObserver* request_observer_ = nullptr;
  bool withholds_grants_ = false;
  bool fpu_ = false;  // the core has the FPU (the APU path is simulated)
  bool fast_allowed_ = false;  // plain cycles may be taken (no grants withheld, no observer)
  State s_;
  Trace trace_;
  std::string fault_;
  std::vector<uint32_t> failed_fetches_;  // word addresses whose fetch failed (few)
  bool fetch_faulted_ = false;            // an instruction from one of them retired
  bool slept_ = false;                    // the core slept since it was last seen awake

  // counting: which counters advance (from mcountinhibit and mhpmevent)
  bool count_mcycle_ = false, count_minstret_ = false;
  uint32_t count_hpm_ = 0;  // bit i: mhpmcounter i counts
  bool recording_ = false;  // an observer wants full records
  DebugHalt* debug_ = nullptr;  // a debugger's halt (set_debug_halt)

  // Memoization (cv32e40p_memo.cpp).
  struct MemoInsn {  // an instruction of a recorded block and what it did
    uint32_t pc;
    uint32_t raw;
    DecodedInsn insn;
    cv32e40p::Control ctl;
    bool split;          // a misaligned access (two transactions)
    uint8_t div_cycles;  // the divider's latency
    uint32_t next_pc;    // (checked for jumps)
  };
  struct MemoEntry {
    uint32_t pc = 0;                 // the block's first instruction
    std::vector<uint64_t> key;       // the pipeline state it started from (memo_key())
    uint64_t cycles = 0;             // the span: cycles from its start to the next block's
    uint64_t instr_events = 0;       // INSTR events counted in the span (minstret)
    std::vector<MemoInsn> insns;
    std::vector<std::pair<uint32_t, uint32_t>> fetched;  // words fetched in the span
    std::vector<uint32_t> retire_offsets;                // cycles of the retirements
    State exit;                      // the state at the next block, times from the span's start
    uint32_t exit_id_pc = 0, exit_id_raw = 0;  // the instruction in ID then
    uint64_t generation = 0;         // changes when the entry is replaced
    // The end state decides the next block and its key: the entry found for it is remembered
    // (for a conditional branch at the end, one for each outcome).
    MemoEntry* next[2] = {nullptr, nullptr};
    uint64_t next_generation[2] = {0, 0};
  };
  void memo_key(const State& s, std::vector<uint64_t>* key) const;
  void memo_key(std::vector<uint64_t>* key) const { memo_key(s_, key); }
  bool memo_check_span(const MemoEntry& e, const State& predicted);
  bool memo_apply(const MemoEntry& e, uint64_t until, bool* taken);
  MemoEntry* memo_lookup();
  void memo_finish();
  void memo_record_issue(const Execution& e);
  static void memo_shift_times(State* s, int64_t delta);

  static constexpr unsigned kMemoEntries = 2048;
  static constexpr unsigned kMemoMaxInsns = 64;
  std::vector<std::unique_ptr<MemoEntry>> memo_;
  MemoEntry memo_rec_;                // the block being recorded
  bool memo_recording_ = false;
  uint64_t memo_start_ = 0;           // the cycle its span began
  MemoEntry* memo_before_ = nullptr;  // the entry applied just before it began, if any
  bool memo_before_taken_ = false;    // ... and the outcome of its last branch
  uint64_t memo_before_generation_ = 0;  // ... and its generation (it may be replaced meanwhile)
  uint64_t memo_generation_ = 0;
  std::vector<uint64_t> memo_key_;    // scratch
  struct MemoUndo {                   // a store of a block being checked, to undo
    uint8_t* p;
    uint32_t old;
    unsigned bytes;
  };
  std::vector<MemoUndo> memo_undo_;
  bool memo_check_ = false;           // simulate every memoized span too, and compare
  std::array<uint32_t, 32> memo_regs_;

  static constexpr unsigned kDecodeEntries = 4096;
  std::vector<DecodeEntry> decode_cache_;
  DecodeEntry reset_entry_;  // the ID register after reset (raw 0: illegal)
};

// ---- helpers of the cycle and of the memo, inlined into both ------------------------------------

// The retire record of an instruction entering EX, from its decode and execution (a load's
// value and bytes are filled in when it completes).
inline void Cv32e40pTiming::describe_issue(RetireRecord* r, uint32_t pc, uint32_t raw,
                                           const DecodedInsn& insn, const cv32e40p::Control& c,
                                           const Execution& e) {
  const bool mem = c.unit == cv32e40p::Unit::kLsu;
  const unsigned bytes = mem ? Rv32Hart::access_bytes(insn.op) : 0;
  r->pc = pc;
  r->insn = raw;
  r->next_pc = e.next_pc;
  r->rd = c.wb_rd;
  r->rd_value = e.rd_value;
  r->mem_valid = mem;
  r->mem_write = c.mem_store;
  r->mem_size = static_cast<uint8_t>(bytes);
  r->mem_addr = mem ? e.mem_addr : 0;
  r->mem_data = c.mem_store ? (bytes == 4 ? e.store_data : e.store_data & ((1u << (8 * bytes)) - 1))
                            : 0;
  r->trap = cv32e40p::is_trap(c.sys);
  r->interrupt = false;
  r->cause = r->trap ? cv32e40p::trap_cause(c.sys) : 0;
}

inline const Cv32e40pTiming::DecodeEntry& Cv32e40pTiming::decode_at(uint32_t pc, uint32_t raw) {
  DecodeEntry& e = decode_cache_[(pc >> 1) & (kDecodeEntries - 1)];
  const FpDecodeState fp = hart_.fp_decode_state();
  if (e.pc != pc || e.raw != raw || e.fp_key != fp.key()) {
    e.pc = pc;
    e.raw = raw;
    e.fp_key = fp.key();
    e.insn = decode(raw, fp);
    e.ctl = cv32e40p::control_of(e.insn, {hart_.config().fpu_addmul_lat,
                                          hart_.config().fpu_others_lat,
                                          hart_.config().zfinx});
  }
  return e;
}

inline Cv32e40pTiming::InFlight& Cv32e40pTiming::push_record() {
  Trace& t = trace_;
  if (t.tail - t.head == t.ring.size()) {  // (many branches past a long wait): grow
    std::vector<InFlight> bigger(2 * t.ring.size());
    for (uint64_t i = t.head; i < t.tail; ++i) bigger[i & (bigger.size() - 1)] = t.at(i);
    t.ring.swap(bigger);
    t.mask = t.ring.size() - 1;
  }
  return t.at(t.tail++);
}

inline void Cv32e40pTiming::retire_next(uint64_t now) {
  Trace& t = trace_;
  InFlight& f = t.at(t.head + (t.has_pending ? 1 : 0));
  if (__builtin_expect(f.bad_fetch | fetch_faulted_, 0)) {
    note_failed_fetch(f);  // not retired: the run stops with a fault
    return;
  }
  if (t.has_pending) {
    if (f.intr) {
      // The interrupt was taken after the previous instruction: it leads to this one.
      RetireRecord& p = t.at(t.head).rec;
      p.interrupt = true;
      p.cause = f.intr_cause;
      p.next_pc = f.rec.pc;
    }
    deliver();
  }
  t.has_pending = true;
  f.rec.cycle = now;
  f.rec.order = t.order++;
  if (memo_recording_) memo_rec_.retire_offsets.push_back(static_cast<uint32_t>(now - memo_start_));
}

inline void Cv32e40pTiming::deliver() {
  Trace& t = trace_;
  const RetireRecord& r = t.at(t.head++).rec;
  ++t.delivered;
  t.last_pc = r.pc;
  if (observer_ != nullptr) observer_->on_retire(r);
}

}  // namespace socsim
