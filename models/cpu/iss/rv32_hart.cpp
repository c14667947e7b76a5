#include "models/cpu/iss/rv32_hart.h"

namespace socsim {
namespace {

int32_t sext(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return static_cast<int32_t>((v ^ m) - m);
}

}  // namespace

Rv32Hart::Rv32Hart(const IssConfig& config) : config_(config) { reset(); }

void Rv32Hart::reset() {
  x_.fill(0);
  mstatus_mie_ = mstatus_mpie_ = false;
  mie_ = 0;
  mtvec_base_ = config_.mtvec_addr & ~0xFFu;
  mtvec_vectored_ = true;
  mscratch_ = mepc_ = mcause_ = mip_ = 0;
  counters_ = Counters{};
  counters_.implemented = 0x5u | (((1u << config_.num_mhpmcounters) - 1) << 3);
  counters_.inhibit = counters_.implemented;  // every counter inhibited until cleared
}

unsigned Rv32Hart::access_bytes(Op op) {
  switch (op) {
    case Op::kLb: case Op::kLbu: case Op::kSb: return 1;
    case Op::kLh: case Op::kLhu: case Op::kSh: return 2;
    default: return 4;
  }
}

uint32_t Rv32Hart::complete_load(const DecodedInsn& d, uint32_t bytes) {
  uint32_t v;
  switch (d.op) {
    case Op::kLb: v = static_cast<uint32_t>(sext(bytes & 0xFF, 8)); break;
    case Op::kLh: v = static_cast<uint32_t>(sext(bytes & 0xFFFF, 16)); break;
    case Op::kLbu: v = bytes & 0xFF; break;
    case Op::kLhu: v = bytes & 0xFFFF; break;
    default: v = bytes; break;
  }
  write_reg(d.rd, v);
  return d.rd != 0 ? v : 0;
}

// ---- CSRs ---------------------------------------------------------------------------------

uint32_t Rv32Hart::csr_read(uint32_t addr) const {
  if (csr::is_counter(addr)) {
    const unsigned i = addr & 0x1F;
    const uint64_t v = i == 0 ? counters_.mcycle : i == 2 ? counters_.minstret : counters_.hpm[i];
    return (addr & 0x80) ? static_cast<uint32_t>(v >> 32) : static_cast<uint32_t>(v);
  }
  if (addr >= csr::kMhpmevent3 && addr <= csr::kMhpmevent31) return counters_.event[addr & 0x1F];
  switch (addr) {
    case csr::kMstatus:
      return csr::kMstatusMpp | (mstatus_mpie_ ? csr::kMstatusMpie : 0) |
             (mstatus_mie_ ? csr::kMstatusMie : 0);
    case csr::kMisa: return csr::kMisaValue;
    case csr::kMie: return mie_;
    case csr::kMtvec: return mtvec_base_ | (mtvec_vectored_ ? 1u : 0u);
    case csr::kMcountinhibit: return counters_.inhibit;
    case csr::kMscratch: return mscratch_;
    case csr::kMepc: return mepc_;
    case csr::kMcause: return mcause_;
    case csr::kMip: return mip_;
    case csr::kMvendorid: return csr::kMvendoridValue;
    case csr::kMarchid: return csr::kMarchidValue;
    case csr::kMhartid: return config_.hart_id;
    default: return 0;  // mtval, mimpid, the trigger CSRs
  }
}

int Rv32Hart::csr_write(const DecodedInsn& d, uint32_t operand) {
  const uint32_t addr = static_cast<uint32_t>(d.imm);
  uint32_t v = operand;
  switch (d.op) {
    case Op::kCsrrs: case Op::kCsrrsi:
      if (d.rs1 == 0) return -1;
      v = csr_read(addr) | operand;
      break;
    case Op::kCsrrc: case Op::kCsrrci:
      if (d.rs1 == 0) return -1;
      v = csr_read(addr) & ~operand;
      break;
    default:
      break;
  }
  if (csr::is_counter(addr)) {  // machine counters (the user shadows are read-only)
    const unsigned i = addr & 0x1F;
    if (((counters_.implemented >> i) & 1) == 0) return -1;
    uint64_t& c = i == 0 ? counters_.mcycle : i == 2 ? counters_.minstret : counters_.hpm[i];
    c = (addr & 0x80) ? (c & 0xFFFFFFFFull) | (uint64_t(v) << 32) : (c & ~0xFFFFFFFFull) | v;
    return static_cast<int>(i);
  }
  if (addr >= csr::kMhpmevent3 && addr <= csr::kMhpmevent31) {
    const unsigned i = addr & 0x1F;
    if ((counters_.implemented >> i) & 1) counters_.event[i] = v & 0xFFFF;
    return -1;
  }
  switch (addr) {
    case csr::kMstatus:
      mstatus_mie_ = (v & csr::kMstatusMie) != 0;
      mstatus_mpie_ = (v & csr::kMstatusMpie) != 0;
      break;
    case csr::kMie: mie_ = v & csr::kIrqMask; break;
    case csr::kMtvec:
      mtvec_base_ = v & ~0xFFu;
      mtvec_vectored_ = (v & 1) != 0;
      break;
    case csr::kMcountinhibit: counters_.inhibit = v & counters_.implemented; break;
    case csr::kMscratch: mscratch_ = v; break;
    case csr::kMepc: mepc_ = v & ~1u; break;
    case csr::kMcause: mcause_ = v & (csr::kInterruptBit | 0x1F); break;
    default: break;  // misa, mtval, mip, the trigger CSRs: writes have no effect
  }
  return -1;
}

// ---- traps --------------------------------------------------------------------------------

void Rv32Hart::enter_trap(uint32_t cause, uint32_t epc) {
  mepc_ = epc;
  mcause_ = cause;
  mstatus_mpie_ = mstatus_mie_;
  mstatus_mie_ = false;
}

void Rv32Hart::mret() {
  mstatus_mie_ = mstatus_mpie_;
  mstatus_mpie_ = true;
}

}  // namespace socsim
