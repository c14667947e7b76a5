#include "models/cpu/lockstep.h"

#include <cstdio>

#include "models/common/hex.h"

namespace socsim {

namespace {

// CSRs whose value only the hardware defines: the counters and mip.
bool hardware_defined_csr(uint32_t insn) {
  if ((insn & 0x7F) != 0x73 || ((insn >> 12) & 7) == 0 || ((insn >> 12) & 7) == 4) return false;
  const uint32_t csr_addr = insn >> 20;
  return csr_addr == csr::kMip || (csr_addr >= csr::kMcycle && csr_addr <= csr::kMhpmcounter31h) ||
         (csr_addr >= csr::kCycle && csr_addr <= csr::kHpmcounter31h);
}

}  // namespace

std::string describe(const RetireRecord& r) {
  std::string s = "pc " + hex(r.pc) + " insn " + hex(r.insn);
  if (r.rd != 0) s += " x" + std::to_string(r.rd) + "=" + hex(r.rd_value);
  if (r.mem_valid) {
    s += std::string(r.mem_write ? " store " : " load ") + std::to_string(r.mem_size) + "B @" +
         hex(r.mem_addr) + " data " + hex(r.mem_data);
  }
  if (r.trap) s += " trap cause " + std::to_string(r.cause);
  return s;
}

// ---- the ISS's view of memory -------------------------------------------------------------

bool LockstepChecker::ShadowBus::covered(uint32_t addr, unsigned bytes, bool write) const {
  return rtl != nullptr && rtl->mem_valid && rtl->mem_write == write && addr >= rtl->mem_addr &&
         uint64_t(addr) + bytes <= uint64_t(rtl->mem_addr) + rtl->mem_size;
}

BusResult LockstepChecker::ShadowBus::read(BusPort port, uint32_t addr, unsigned bytes,
                                           uint32_t* data, uint64_t cycle) {
  if (port == BusPort::kInstr) return memory_.read(port, addr, bytes, data, cycle);
  if (!covered(addr, bytes, false)) {
    if (mismatch.empty()) {
      mismatch = "the ISS loads " + std::to_string(bytes) + " byte(s) at " + hex(addr) +
                 " where the RTL core did not";
    }
    *data = 0;
    return {};
  }
  const unsigned shift = 8 * (addr - rtl->mem_addr);
  const uint32_t mask = bytes >= 4 ? 0xFFFFFFFFu : ((1u << (8 * bytes)) - 1);
  *data = (rtl->mem_data >> shift) & mask;
  return {};
}

BusResult LockstepChecker::ShadowBus::write(BusPort, uint32_t addr, unsigned bytes,
                                            uint32_t data, uint64_t) {
  if (!covered(addr, bytes, true)) {
    if (mismatch.empty()) {
      mismatch = "the ISS stores " + std::to_string(bytes) + " byte(s) at " + hex(addr) +
                 " where the RTL core did not";
    }
    return {};
  }
  const unsigned shift = 8 * (addr - rtl->mem_addr);
  const uint32_t mask = bytes >= 4 ? 0xFFFFFFFFu : ((1u << (8 * bytes)) - 1);
  if (((rtl->mem_data >> shift) & mask) != (data & mask) && mismatch.empty()) {
    mismatch = "store data at " + hex(addr) + ": rtl " + hex((rtl->mem_data >> shift) & mask) +
               ", iss " + hex(data & mask);
  }
  return {};
}

DirectWindow LockstepChecker::ShadowBus::direct_window(BusPort port, uint32_t addr) {
  if (port == BusPort::kInstr) return memory_.direct_window(port, addr);
  return {};  // every data access goes through read()/write() to be checked
}

// ---- checking -----------------------------------------------------------------------------

LockstepChecker::LockstepChecker(const IssConfig& config, CpuBus& memory, SimControl& control,
                                 RetireObserver* downstream)
    : bus_(memory), iss_(config, bus_, irq_), control_(control), downstream_(downstream) {
  iss_.set_retire_observer(&capture_);
}

void LockstepChecker::diverge(const RetireRecord& rtl, const std::string& what) {
  if (diverged_) return;
  diverged_ = true;
  std::string msg = "lockstep divergence at instruction #" + std::to_string(rtl.order) +
                    " (cycle " + std::to_string(rtl.cycle) + "): " + what +
                    "\n  rtl: " + describe(rtl);
  if (capture_.seen) msg += "\n  iss: " + describe(capture_.record);
  control_.report_fault(rtl.cycle, msg);
}

void LockstepChecker::on_retire(const RetireRecord& rtl) {
  if (diverged_) return;
  bus_.rtl = &rtl;
  bus_.mismatch.clear();
  capture_.seen = false;
  if (pending_irq_ >= 0) irq_.set_level(static_cast<unsigned>(pending_irq_), true);
  iss_.wake(iss_.cycle());
  const bool no_stop = false;
  const Rv32Iss::Status status = iss_.run(iss_.cycle() + 1, &no_stop);
  if (pending_irq_ >= 0) {
    irq_.set_level(static_cast<unsigned>(pending_irq_), false);
    pending_irq_ = -1;
  }
  if (status == Rv32Iss::Status::kStopped && !capture_.seen) {
    diverge(rtl, "the ISS stopped: " + iss_.fault());
    return;
  }
  if (!capture_.seen) {
    diverge(rtl, "the ISS retired no instruction");
    return;
  }
  RetireRecord& iss = capture_.record;
  if (hardware_defined_csr(iss.insn) && iss.rd != 0) {
    iss_.set_reg(iss.rd, rtl.rd_value);
    iss.rd_value = rtl.rd_value;
  }
  if (iss.pc != rtl.pc) return diverge(rtl, "pc");
  if (iss.insn != rtl.insn) return diverge(rtl, "instruction bits");
  if (iss.trap != rtl.trap || (rtl.trap && iss.cause != rtl.cause)) return diverge(rtl, "trap");
  if (iss.rd != rtl.rd || iss.rd_value != rtl.rd_value) return diverge(rtl, "destination register");
  if (!bus_.mismatch.empty()) return diverge(rtl, bus_.mismatch);
  if (iss.mem_valid != rtl.mem_valid ||
      (rtl.mem_valid && (iss.mem_write != rtl.mem_write || iss.mem_addr != rtl.mem_addr ||
                         iss.mem_size != rtl.mem_size || iss.mem_data != rtl.mem_data))) {
    return diverge(rtl, "memory access");
  }
  if (!rtl.interrupt && iss.next_pc != rtl.next_pc) return diverge(rtl, "next pc");
  if (rtl.interrupt) pending_irq_ = static_cast<int>(rtl.cause & 0x1F);
  ++checked_;
  if (downstream_ != nullptr) downstream_->on_retire(rtl);
}

}  // namespace socsim
