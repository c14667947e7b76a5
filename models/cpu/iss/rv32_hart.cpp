#include "models/cpu/iss/rv32_hart.h"

namespace socsim {
namespace {

int32_t sext(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return static_cast<int32_t>((v ^ m) - m);
}

}  // namespace

// fdiv.s / fsqrt.s cycles as measured on the genuine core (docs/fpu.md), what each costs
// alone: 4 for special operands (zero, infinite or NaN; a negative square root). fdiv.s:
// with d the difference of the operands' exponents (a subnormal's normalised), 6 when
// d > 128 or d < -150 (the result overflows or vanishes: no iterations); otherwise, if the
// quotient of the significands is exact with q significant bits, 7 + floor(q / 2) (the
// divider ends when its partial remainder becomes zero, two bits a round; a quotient below
// 1 counts its leading 0 as a bit), else 20; a
// subnormal divisor adds 1. fsqrt.s: 7 + floor(q / 2) for an exact root with q significant
// bits, else 20. The subnormal divisor's cycle is one before the request is granted.
uint32_t divsqrt_cycles(uint32_t a, uint32_t b, bool is_div, uint32_t result) {
  const auto special = [](uint32_t v) {
    const uint32_t exp = (v >> 23) & 0xFF;
    return exp == 0xFF || (v & 0x7FFFFFFFu) == 0;
  };
  if (special(a) || (is_div && special(b)) || (!is_div && (a >> 31))) return 4;
  const auto bits_of = [](uint32_t significand) {  // significant bits, trailing zeros left out
    return 32 - static_cast<unsigned>(__builtin_clz(significand)) -
           static_cast<unsigned>(__builtin_ctz(significand));
  };
  if (!is_div) {
    // A root is never subnormal; exact when a * 1 squared back: the result has no rounding.
    const uint32_t significand = (result & 0x7FFFFFu) | 0x800000u;
    const uint64_t m = significand;
    // exact iff m^2 equals a's significand scaled by the exponent's parity
    const uint32_t exp_a = (a >> 23) & 0xFF;
    uint64_t ma = exp_a == 0 ? (a & 0x7FFFFFu) : ((a & 0x7FFFFFu) | 0x800000u);
    int ea = exp_a == 0 ? -126 : static_cast<int>(exp_a) - 127;
    while (ma < 0x800000u) {
      ma <<= 1;
      --ea;
    }
    // value = ma * 2^(ea - 23); root = m * 2^(er - 23) with er = floor(ea / 2)
    const int shift = (ea & 1) ? 1 : 0;  // odd exponent: the significand takes a factor 2
    const bool exact = m * m == (ma << (23 + shift));
    return exact ? 7 + bits_of(significand) / 2 : 20;
  }
  const auto normalise = [](uint32_t v, uint32_t* m) {
    const uint32_t exp = (v >> 23) & 0xFF;
    int e = exp == 0 ? -126 : static_cast<int>(exp) - 127;
    *m = exp == 0 ? (v & 0x7FFFFFu) : ((v & 0x7FFFFFu) | 0x800000u);
    while (*m < 0x800000u) {
      *m <<= 1;
      --e;
    }
    return e;
  };
  uint32_t ma = 0, mb = 0;
  const int d = normalise(a, &ma) - normalise(b, &mb);
  const uint32_t extra = ((b >> 23) & 0xFF) == 0 ? 1 : 0;
  if (d > 128 || d < -150) return 6 + extra;
  // ma / mb exact: mb / gcd(ma, mb) is a power of two; its significand is ma / gcd.
  uint32_t x = ma, y = mb;
  while (y != 0) {
    const uint32_t t = x % y;
    x = y;
    y = t;
  }
  const uint32_t denominator = mb / x;
  if ((denominator & (denominator - 1)) != 0) return 20 + extra;
  // A quotient below 1 (ma < mb) has a leading 0 bit: one more bit to compute.
  return 7 + (bits_of(ma / x) + (ma < mb ? 1 : 0)) / 2 + extra;
}

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
  f_.fill(0);
  fflags_ = frm_ = fs_ = 0;
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
    case Op::kFlw:  // to an F register: no x register written
      f_[d.rd] = bytes;
      fs_ = 3;
      return 0;
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
             (mstatus_mie_ ? csr::kMstatusMie : 0) | (fs_ << csr::kMstatusFsShift) |
             (fs_ == 3 ? csr::kMstatusSd : 0);
    case csr::kMisa: return csr::kMisaValue | (config_.fpu && !config_.zfinx ? csr::kMisaF : 0);
    case csr::kMimpid: return config_.fpu ? 1 : 0;
    case csr::kFflags: return fflags_;
    case csr::kFrm: return frm_;
    case csr::kFcsr: return (frm_ << 5) | fflags_;
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
      if (config_.fpu && !config_.zfinx) fs_ = (v >> csr::kMstatusFsShift) & 3;
      break;
    // fflags, frm, fcsr (the decoder lets them through only with the FPU and FS not Off, or
    // with Zfinx): writing one makes FS Dirty (not with Zfinx: FS stays Off).
    case csr::kFflags: fflags_ = v & 0x1F; fs_ = fs_dirty(); break;
    case csr::kFrm: frm_ = v & 7; fs_ = fs_dirty(); break;
    case csr::kFcsr:
      fflags_ = v & 0x1F;
      frm_ = (v >> 5) & 7;
      fs_ = fs_dirty();
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

// ---- RV32F --------------------------------------------------------------------------------

FloatResult execute_float_op(const DecodedInsn& d, uint32_t frm, uint32_t a, uint32_t b,
                             uint32_t c, uint32_t xa) {
  const uint32_t rm_field = (d.bits >> 12) & 7;
  const auto rm = static_cast<f32::Rounding>(rm_field == 7 ? frm : rm_field);
  FloatResult r;
  uint32_t& v = r.value;
  uint32_t* flags = &r.flags;
  switch (d.op) {
    case Op::kFmaddS: v = f32::fma(a, b, c, false, false, rm, flags); break;
    case Op::kFmsubS: v = f32::fma(a, b, c, false, true, rm, flags); break;
    case Op::kFnmsubS: v = f32::fma(a, b, c, true, false, rm, flags); break;
    case Op::kFnmaddS: v = f32::fma(a, b, c, true, true, rm, flags); break;
    case Op::kFaddS: v = f32::add(a, b, rm, flags); break;
    case Op::kFsubS: v = f32::sub(a, b, rm, flags); break;
    case Op::kFmulS: v = f32::mul(a, b, rm, flags); break;
    case Op::kFdivS:
      v = f32::div(a, b, rm, flags);
      r.cycles = divsqrt_cycles(a, b, true, v);
      r.nack = ((b >> 23) & 0xFF) == 0 && (b & 0x7FFFFFu) != 0 && ((a >> 23) & 0xFF) != 0xFF &&
                       (a & 0x7FFFFFFFu) != 0
                   ? 1
                   : 0;
      break;
    case Op::kFsqrtS:
      v = f32::sqrt(a, rm, flags);
      r.cycles = divsqrt_cycles(a, 0x3F800000u, false, v);
      break;
    case Op::kFsgnjS: v = f32::sign_inject(a, b); break;
    case Op::kFsgnjnS: v = f32::sign_inject_negated(a, b); break;
    case Op::kFsgnjxS: v = f32::sign_inject_xor(a, b); break;
    case Op::kFminS: v = f32::min(a, b, flags); break;
    case Op::kFmaxS: v = f32::max(a, b, flags); break;
    case Op::kFcvtWS: v = f32::to_int32(a, rm, flags); break;
    case Op::kFcvtWuS: v = f32::to_uint32(a, rm, flags); break;
    case Op::kFmvXW: v = a; break;
    case Op::kFeqS: v = f32::eq(a, b, flags); break;
    case Op::kFltS: v = f32::lt(a, b, flags); break;
    case Op::kFleS: v = f32::le(a, b, flags); break;
    case Op::kFclassS: v = f32::classify(a); break;
    case Op::kFcvtSW: v = f32::from_int32(xa, rm, flags); break;
    case Op::kFcvtSWu: v = f32::from_uint32(xa, rm, flags); break;
    case Op::kFmvWX: v = xa; break;
    default: r.valid = false; break;
  }
  return r;
}

void Rv32Hart::execute_float(const DecodedInsn& d, Execution* e) {
  const uint32_t xa = x_[d.rs1];
  switch (d.op) {
    case Op::kFlw:
      e->mem_addr = xa + static_cast<uint32_t>(d.imm);
      return;
    case Op::kFsw:
      e->mem_addr = xa + static_cast<uint32_t>(d.imm);
      e->store_data = f_[d.rs2];
      return;
    default:
      break;
  }
  // Zfinx: the float operands are x registers (x0 reads 0).
  const auto& regs = config_.zfinx ? x_ : f_;
  const FloatResult r =
      execute_float_op(d, frm_, regs[d.rs1], regs[d.rs2], regs[d.bits >> 27], xa);
  if (!r.valid) return;
  if (d.op == Op::kFdivS || d.op == Op::kFsqrtS) {
    e->operand_b = r.cycles;
    e->fpu_nack = r.nack;
  }
  // Every FPU result writes fflags (ORed) and makes FS Dirty (FS stays Off with Zfinx).
  fflags_ |= r.flags;
  fs_ = fs_dirty();
  if (writes_f_register(d.op) && !config_.zfinx) {
    f_[d.rd] = r.value;
  } else {
    write_reg(d.rd, r.value);
    e->rd_value = d.rd != 0 ? r.value : 0;
  }
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
