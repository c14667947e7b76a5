#include "models/cpu/rtl/rtl_core.h"

#include "Vrv_core_sim.h"
#include "verilated.h"

namespace socsim {

RtlCore::RtlCore(const RtlCoreConfig& config)
    : config_(config), context_(std::make_unique<VerilatedContext>()) {
  top_ = std::make_unique<Vrv_core_sim>(context_.get(), "rv_core_sim");
  top_->boot_addr_i = config_.boot_addr;
  top_->mtvec_addr_i = config_.mtvec_addr;
  top_->hart_id_i = config_.hart_id;
  top_->dm_halt_addr_i = config_.dm_halt_addr;
  top_->dm_exception_addr_i = config_.dm_exception_addr;
  top_->debug_req_i = 0;
}

RtlCore::~RtlCore() { top_->final(); }

#ifdef SOCSIM_GENUINE_CV32E40P
bool RtlCore::has_retire_trace() { return false; }
const char* RtlCore::description() { return "OpenHW CV32E40P (" SOCSIM_GENUINE_CV32E40P ")"; }
#else
bool RtlCore::has_retire_trace() { return true; }
const char* RtlCore::description() { return "socsim rv_core"; }
#endif

void RtlCore::reset() {
  top_->instr_gnt_i = 0;
  top_->instr_rvalid_i = 0;
  top_->data_gnt_i = 0;
  top_->data_rvalid_i = 0;
  top_->irq_i = 0;
  top_->fetch_enable_i = 0;
  top_->clk_i = 0;
  top_->rst_ni = 1;
  top_->eval();
  top_->rst_ni = 0;  // a real falling edge: the reset is asynchronous
  top_->eval();
  for (int i = 0; i < 2; ++i) {
    top_->clk_i = 1;
    top_->eval();
    top_->clk_i = 0;
    top_->eval();
  }
  top_->rst_ni = 1;
  top_->fetch_enable_i = 1;  // seen by the core from the first cycle on
  top_->eval();
  cycle_ = 0;
  order_ = 0;
  has_pending_ = false;
  held_branches_.clear();
}

void RtlCore::begin_cycle(const ObiInputs& instr, const ObiInputs& data) {
  top_->instr_gnt_i = instr.gnt;
  top_->instr_rvalid_i = instr.rvalid;
  top_->instr_rdata_i = instr.rdata;
  top_->data_gnt_i = data.gnt;
  top_->data_rvalid_i = data.rvalid;
  top_->data_rdata_i = data.rdata;
  top_->irq_i = irq_;
  top_->clk_i = 1;  // the edge that starts the cycle
  top_->eval();
}

ObiRequest RtlCore::instr_request() const {
  return ObiRequest{top_->instr_req_o != 0, false, 0xF, top_->instr_addr_o, 0};
}

ObiRequest RtlCore::data_request() const {
  return ObiRequest{top_->data_req_o != 0, top_->data_we_o != 0,
                    static_cast<uint8_t>(top_->data_be_o), top_->data_addr_o,
                    top_->data_wdata_o};
}

bool RtlCore::irq_ack() const { return top_->irq_ack_o != 0; }
uint32_t RtlCore::irq_ack_id() const { return top_->irq_id_o; }
bool RtlCore::sleeping() const { return top_->core_sleep_o != 0; }

void RtlCore::end_cycle() {
  if (top_->rvfi_valid_o) {
    capture_retire();
  }
  if (top_->rvfi_br_valid_o) {
    // A branch that skipped WB: it is younger than the instruction WB still holds, so it is
    // reported right after that one retires.
    HeldBranch b;
    b.record.pc = top_->rvfi_br_pc_o;
    b.record.insn = top_->rvfi_br_insn_o;
    b.record.next_pc = top_->rvfi_br_next_pc_o;
    b.intr = top_->rvfi_br_intr_o != 0;
    b.intr_cause = top_->rvfi_br_intr_cause_o;
    held_branches_.push_back(b);
  }
  top_->clk_i = 0;
  top_->eval();
  ++cycle_;
}

void RtlCore::capture_retire() {
  RetireRecord r;
  r.pc = top_->rvfi_pc_o;
  r.insn = top_->rvfi_insn_o;
  r.next_pc = top_->rvfi_next_pc_o;
  r.rd = static_cast<uint8_t>(top_->rvfi_rd_o);
  r.rd_value = top_->rvfi_rd_value_o;
  r.mem_valid = top_->rvfi_mem_valid_o != 0;
  r.mem_write = top_->rvfi_mem_write_o != 0;
  r.mem_size = static_cast<uint8_t>(top_->rvfi_mem_size_o);
  r.mem_addr = top_->rvfi_mem_addr_o;
  r.mem_data = top_->rvfi_mem_data_o;
  r.trap = top_->rvfi_trap_o != 0;
  r.cause = top_->rvfi_trap_cause_o;
  deliver(r, top_->rvfi_intr_o != 0, top_->rvfi_intr_cause_o);
  deliver_held_branches();
}

void RtlCore::deliver_held_branches() {
  for (const HeldBranch& b : held_branches_) deliver(b.record, b.intr, b.intr_cause);
  held_branches_.clear();
}

void RtlCore::deliver(RetireRecord r, bool intr, uint32_t intr_cause) {
  r.cycle = cycle_;
  r.order = order_++;
  if (observer_ == nullptr) {
    return;
  }
  if (intr && has_pending_) {
    // The interrupt was taken after the previous instruction: it leads to this one.
    pending_.interrupt = true;
    pending_.cause = intr_cause;
    pending_.next_pc = r.pc;
  }
  if (has_pending_) {
    observer_->on_retire(pending_);
  }
  pending_ = r;
  has_pending_ = true;
}

void RtlCore::flush_retire() {
  deliver_held_branches();
  if (has_pending_ && observer_ != nullptr) {
    observer_->on_retire(pending_);
  }
  has_pending_ = false;
}

}  // namespace socsim
