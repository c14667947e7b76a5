#include "models/cpu/rtl/rtl_core.h"

#include "models/cpu/rtl/debug_hooks.h"

#include "Vrv_core_sim.h"
#ifndef SOCSIM_GENUINE_CV32E40P
#include "Vrv_core_sim___024root.h"
#endif
#ifdef SOCSIM_RTL_FPU_MODEL
#include "Vrv_core_sim_fpu.h"
#include "Vrv_core_sim_fpu___024root.h"
#else
// A build of the genuine core has no model with socsim's FPU: top_fpu_ stays empty.
class Vrv_core_sim_fpu {};
#endif
#include "verilated.h"
#ifdef SOCSIM_RTL_TRACE
#include "verilated_fst_c.h"
#endif

namespace socsim {

namespace {

// The debugger's halt, as rv_core.sv's hooks see it: one core per process.
struct DebugHooks {
  DebugHalt* hook = nullptr;
  bool resume = false;      // the debugger let the halted core go: it resumes this cycle
  uint32_t resume_pc = 0;
};
DebugHooks g_debug;

}  // namespace

// The waveform file: only the traced build (SOCSIM_RTL_TRACE) has one; in the default build
// the type stays empty and no cycle looks at it.
struct RtlCore::Waveform {
#ifdef SOCSIM_RTL_TRACE
  VerilatedFstC fst;
  uint64_t first = 0, end = 0, period_ps = 0;
#endif
};

#ifdef SOCSIM_RTL_TRACE
bool RtlCore::has_waveforms() { return true; }

std::string RtlCore::open_waveform(const std::string& path, uint64_t first, uint64_t end,
                                   uint64_t period_ps) {
  if (!top_) {
    return "the traced build has the core without its FPU only: no waveforms with cpu.fpu: on";
  }
  context_->traceEverOn(true);
  waveform_ = std::make_unique<Waveform>();
  waveform_->first = first;
  waveform_->end = end;
  waveform_->period_ps = period_ps;
  top_->trace(&waveform_->fst, 99);
  waveform_->fst.set_time_unit("1ps");
  waveform_->fst.set_time_resolution("1ps");
  waveform_->fst.open(path.c_str());
  if (!waveform_->fst.isOpen()) {
    waveform_.reset();
    return "cannot write " + path;
  }
  return "";
}

void RtlCore::close_waveform() {
  if (waveform_) waveform_->fst.close();
  waveform_.reset();
}

void RtlCore::dump_waveform(bool falling) {
  if (!waveform_ || cycle_ < waveform_->first ||
      (waveform_->end != 0 && cycle_ >= waveform_->end)) {
    return;
  }
  waveform_->fst.dump(cycle_ * waveform_->period_ps + (falling ? waveform_->period_ps / 2 : 0));
}
#else
bool RtlCore::has_waveforms() { return false; }
std::string RtlCore::open_waveform(const std::string&, uint64_t, uint64_t, uint64_t) {
  return "this build of the rtl CPU model has no waveform tracing (socsim-trace has)";
}
void RtlCore::close_waveform() {}
void RtlCore::dump_waveform(bool) {}
#endif

RtlCore::RtlCore(const RtlCoreConfig& config)
    : config_(config), context_(std::make_unique<VerilatedContext>()) {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (config_.fpu) {
    top_fpu_ = std::make_unique<Vrv_core_sim_fpu>(context_.get(), "rv_core_sim");
    init_top(*top_fpu_);
    return;
  }
#endif
  top_ = std::make_unique<Vrv_core_sim>(context_.get(), "rv_core_sim");
  init_top(*top_);
}

template <class Top>
void RtlCore::init_top(Top& top) {
  top.boot_addr_i = config_.boot_addr;
  top.mtvec_addr_i = config_.mtvec_addr;
  top.hart_id_i = config_.hart_id;
  top.dm_halt_addr_i = config_.dm_halt_addr;
  top.dm_exception_addr_i = config_.dm_exception_addr;
  top.fpu_i = config_.fpu ? 1 : 0;
  top.fpu_addmul_lat_i = config_.fpu_addmul_lat & 3;
  top.fpu_others_lat_i = config_.fpu_others_lat & 3;
  top.fpu_zfinx_i = config_.fpu && config_.zfinx ? 1 : 0;
  top.debug_req_i = 0;
  ports_.instr_req = &top.instr_req_o;
  ports_.instr_addr = &top.instr_addr_o;
  ports_.data_req = &top.data_req_o;
  ports_.data_we = &top.data_we_o;
  ports_.data_be = &top.data_be_o;
  ports_.data_addr = &top.data_addr_o;
  ports_.data_wdata = &top.data_wdata_o;
  ports_.core_sleep = &top.core_sleep_o;
}

RtlCore::~RtlCore() {
  close_waveform();
  if (top_) top_->final();
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) top_fpu_->final();
#endif
}

#ifdef SOCSIM_GENUINE_CV32E40P
bool RtlCore::has_retire_trace() { return false; }
const char* RtlCore::description() { return "OpenHW CV32E40P (" SOCSIM_GENUINE_CV32E40P ")"; }
bool RtlCore::has_runtime_fpu() { return false; }
#else
bool RtlCore::has_retire_trace() { return true; }
const char* RtlCore::description() { return "socsim rv_core"; }
#ifdef SOCSIM_RTL_FPU_MODEL
bool RtlCore::has_runtime_fpu() { return true; }
#else
bool RtlCore::has_runtime_fpu() { return false; }
#endif
#endif

std::string RtlCore::description(const RtlCoreConfig& config) {
  std::string d = description();
  if (has_runtime_fpu() && config.fpu) {
    d += " (CV32E40P with FPU=1, FPU_ADDMUL_LAT=" + std::to_string(config.fpu_addmul_lat) +
         ", FPU_OTHERS_LAT=" + std::to_string(config.fpu_others_lat) +
         ", ZFINX=" + (config.zfinx ? "1" : "0") + ")";
  }
  return d;
}

void RtlCore::reset() {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) {
    reset_top(*top_fpu_);
  } else {
    reset_top(*top_);
  }
#else
  reset_top(*top_);
#endif
  cycle_ = 0;
  order_ = 0;
  has_pending_ = false;
  held_branches_.clear();
  delivered_ = 0;
  last_delivered_pc_ = 0;
  failed_fetches_.clear();
  failed_fetch_executed_ = false;
}

template <class Top>
void RtlCore::reset_top(Top& top) {
  top.instr_gnt_i = 0;
  top.instr_rvalid_i = 0;
  top.data_gnt_i = 0;
  top.data_rvalid_i = 0;
  top.irq_i = 0;
  top.fetch_enable_i = 0;
  top.clk_i = 0;
  top.rst_ni = 1;
  top.eval();
  top.rst_ni = 0;  // a real falling edge: the reset is asynchronous
  top.eval();
  for (int i = 0; i < 2; ++i) {
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
  }
  top.rst_ni = 1;
  top.fetch_enable_i = 1;  // seen by the core from the first cycle on
  top.eval();
}

void RtlCore::begin_cycle(const ObiInputs& instr, const ObiInputs& data) {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) {
    begin_cycle_top(*top_fpu_, instr, data);
    return;
  }
#endif
  begin_cycle_top(*top_, instr, data);
#ifdef SOCSIM_RTL_TRACE
  dump_waveform(false);
#endif
}

template <class Top>
void RtlCore::begin_cycle_top(Top& top, const ObiInputs& instr, const ObiInputs& data) {
  top.instr_gnt_i = instr.gnt;
  top.instr_rvalid_i = instr.rvalid;
  top.instr_rdata_i = instr.rdata;
  top.data_gnt_i = data.gnt;
  top.data_rvalid_i = data.rvalid;
  top.data_rdata_i = data.rdata;
  top.irq_i = irq_;
  top.clk_i = 1;  // the edge that starts the cycle
  top.eval();
}

bool RtlCore::irq_ack() const {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) return top_fpu_->irq_ack_o != 0;
#endif
  return top_->irq_ack_o != 0;
}
uint32_t RtlCore::irq_ack_id() const {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) return top_fpu_->irq_id_o;
#endif
  return top_->irq_id_o;
}

void RtlCore::end_cycle() {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) {
    end_cycle_top(*top_fpu_);
    ++cycle_;
    if (debug_ != nullptr) debug_cycle(*top_fpu_);
    return;
  }
#endif
  end_cycle_top(*top_);
#ifdef SOCSIM_RTL_TRACE
  dump_waveform(true);
#endif
  ++cycle_;
  if (debug_ != nullptr) debug_cycle(*top_);
}

template <class Top>
void RtlCore::end_cycle_top(Top& top) {
  if (top.rvfi_valid_o) {
    capture_retire(top);
  }
  if (top.rvfi_br_valid_o) {
    // A branch that skipped WB: it is younger than the instruction WB still holds, so it is
    // reported right after that one retires.
    held_branches_.push_back(HeldBranch{top.rvfi_br_pc_o, top.rvfi_br_insn_o,
                                        top.rvfi_br_next_pc_o, top.rvfi_br_intr_o != 0,
                                        top.rvfi_br_intr_cause_o});
  }
  top.clk_i = 0;
  top.eval();
}

#ifdef SOCSIM_GENUINE_CV32E40P
bool RtlCore::set_debug_halt(DebugHalt*) { return false; }
uint32_t RtlCore::read_register(unsigned) const { return 0; }
void RtlCore::write_register(unsigned, uint32_t) {}
template <class Top>
void RtlCore::debug_cycle(Top&) {}
#else
bool RtlCore::set_debug_halt(DebugHalt* hook) {
  debug_ = hook;
  g_debug = DebugHooks{hook, false, 0};
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) {
    top_fpu_->debug_req_i = hook != nullptr;
    return true;
  }
#endif
  top_->debug_req_i = hook != nullptr;
  return true;
}

uint32_t RtlCore::read_register(unsigned index) const {
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) return top_fpu_->rootp->rv_core_sim__DOT__u_core__DOT__u_regfile__DOT__regs_q[index & 31];
#endif
  return top_->rootp->rv_core_sim__DOT__u_core__DOT__u_regfile__DOT__regs_q[index & 31];
}

void RtlCore::write_register(unsigned index, uint32_t value) {
  if ((index & 31) == 0) return;
#ifdef SOCSIM_RTL_FPU_MODEL
  if (top_fpu_) {
    top_fpu_->rootp->rv_core_sim__DOT__u_core__DOT__u_regfile__DOT__regs_q[index & 31] = value;
    return;
  }
#endif
  top_->rootp->rv_core_sim__DOT__u_core__DOT__u_regfile__DOT__regs_q[index & 31] = value;
}

template <class Top>
void RtlCore::debug_cycle(Top& top) {
  // The cycle the core resumed in ends the resume; a halted, drained core is the debugger's.
  g_debug.resume = false;
  debug_->cycle_done();
  if (!top.debug_halted_o) return;
  const uint32_t pc = top.rootp->rv_core_sim__DOT__u_core__DOT__dbg_pc_q;
  g_debug.resume_pc = debug_->halted(pc, cycle_, order_);  // all retired: nothing in flight
  g_debug.resume = true;
}
#endif

void RtlCore::mark_failed_fetch(uint32_t addr) {
  for (uint32_t a : failed_fetches_) {
    if (a == addr) return;
  }
  failed_fetches_.push_back(addr);
}

bool RtlCore::from_failed_fetch(uint32_t pc, uint32_t insn) {
  const uint32_t length = (insn & 3) == 3 ? 4 : 2;
  for (uint32_t a : failed_fetches_) {
    if (uint64_t{pc} < uint64_t{a} + 4 && a < uint64_t{pc} + length) {
      failed_fetch_executed_ = true;
      failed_fetch_pc_ = pc;
      failed_fetch_addr_ = a;
      return true;
    }
  }
  return false;
}

template <class Top>
void RtlCore::capture_retire(Top& top) {
  if (!failed_fetches_.empty() && from_failed_fetch(top.rvfi_pc_o, top.rvfi_insn_o)) return;
  if (observer_ == nullptr) {
    order_ += 1 + held_branches_.size();
    held_branches_.clear();
    return;
  }
  // Filled in place, every field: no copy of a whole record per instruction.
  RetireRecord& r = next_record(top.rvfi_intr_o != 0, top.rvfi_intr_cause_o, top.rvfi_pc_o);
  r.pc = top.rvfi_pc_o;
  r.insn = top.rvfi_insn_o;
  r.next_pc = top.rvfi_next_pc_o;
  r.rd = static_cast<uint8_t>(top.rvfi_rd_o);
  r.rd_value = top.rvfi_rd_value_o;
  r.mem_valid = top.rvfi_mem_valid_o != 0;
  r.mem_write = top.rvfi_mem_write_o != 0;
  r.mem_size = static_cast<uint8_t>(top.rvfi_mem_size_o);
  r.mem_addr = top.rvfi_mem_addr_o;
  r.mem_data = top.rvfi_mem_data_o;
  r.trap = top.rvfi_trap_o != 0;
  r.interrupt = false;
  r.cause = top.rvfi_trap_cause_o;
  if (!held_branches_.empty()) take_held_branches();
}

RetireRecord& RtlCore::next_record(bool intr, uint32_t intr_cause, uint32_t pc) {
  if (has_pending_) {
    if (intr) {
      // The interrupt was taken after the previous instruction: it leads to this one.
      pending_.interrupt = true;
      pending_.cause = intr_cause;
      pending_.next_pc = pc;
    }
    deliver();
  }
  has_pending_ = true;
  pending_.cycle = cycle_;
  pending_.order = order_++;
  return pending_;
}

void RtlCore::take_held_branches() {
  for (const HeldBranch& b : held_branches_) {
    if (!failed_fetches_.empty() && from_failed_fetch(b.pc, b.insn)) break;
    RetireRecord& r = next_record(b.intr, b.intr_cause, b.pc);
    r.pc = b.pc;
    r.insn = b.insn;
    r.next_pc = b.next_pc;
    r.rd = 0;
    r.rd_value = 0;
    r.mem_valid = false;
    r.mem_write = false;
    r.mem_size = 0;
    r.mem_addr = 0;
    r.mem_data = 0;
    r.trap = false;
    r.interrupt = false;
    r.cause = 0;
  }
  held_branches_.clear();
}

void RtlCore::deliver() {
  ++delivered_;
  last_delivered_pc_ = pending_.pc;
  observer_->on_retire(pending_);
}

void RtlCore::flush_retire() {
  if (observer_ == nullptr) {
    order_ += held_branches_.size();
    held_branches_.clear();
  } else if (!held_branches_.empty()) {
    take_held_branches();
  }
  if (has_pending_ && observer_ != nullptr) {
    deliver();
  }
  has_pending_ = false;
}

}  // namespace socsim

// rv_core.sv's hooks for the debugger's halt ($c, debug_hooks.h): asked only while
// debug_req_i is high.
bool socsim_debug_halt(unsigned pc, unsigned instr, unsigned rs1, unsigned issued) {
  return socsim::g_debug.hook != nullptr &&
         socsim::g_debug.hook->halt_before(pc, instr, rs1, issued != 0);
}

bool socsim_debug_resume() { return socsim::g_debug.resume; }

unsigned socsim_debug_resume_pc() { return socsim::g_debug.resume_pc; }
