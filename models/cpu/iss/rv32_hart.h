// Rv32Hart: the architectural state of the CV32E40P (registers, machine-mode CSRs, the 64-bit
// counters) and the semantics of each instruction, one small case per opcode. It has no notion
// of time: the pipeline model (models/cpu/iss_timing) calls it in program order, at the cycles
// in which the CV32E40P does each step: operands are read when an instruction leaves ID, a CSR
// is read in the instruction's first EX cycle and written when it leaves EX, loads and stores
// reach memory when their bus requests are granted, traps and interrupts are entered when the
// controller flushes the pipeline, and the counters advance cycle by cycle.
#pragma once

#include <array>
#include <cstdint>

#include "models/cpu/iss/rv32_csr.h"
#include "models/cpu/iss/rv32_decode.h"
#include "models/cpu/iss/rv32_float.h"

namespace socsim {

/// The core's top-level configuration (the CV32E40P's parameters and static inputs).
struct IssConfig {
  uint32_t boot_addr = 0x80;
  uint32_t mtvec_addr = 0x0;  ///< mtvec_addr_i: mtvec resets to {mtvec_addr[31:8], 0, 01}
  uint32_t hart_id = 0;
  unsigned num_mhpmcounters = 1;  ///< NUM_MHPMCOUNTERS, 0..29
  /// FPU = 1 (FPU_ADDMUL_LAT = FPU_OTHERS_LAT = 0, ZFINX = 0): f0..f31, fflags/frm/fcsr,
  /// mstatus.FS, misa.F, mimpid 1 (docs/fpu.md).
  bool fpu = false;
  /// With `fpu`: the genuine core's FPU_ADDMUL_LAT and FPU_OTHERS_LAT (0..2), pipeline
  /// registers of FPnew's ADDMUL and NONCOMP/CONV groups (timing only).
  unsigned fpu_addmul_lat = 0;
  unsigned fpu_others_lat = 0;
  /// With `fpu`: ZFINX = 1, float instructions read and write the x registers. No F
  /// registers, no flw/fsw/fmv.x.w/fmv.w.x/c.flw/c.fsw/c.flwsp/c.fswsp, misa.F reads 0 and
  /// mstatus.FS is not used (reads Off, F instructions legal whatever it holds); fflags, frm
  /// and fcsr remain (docs/fpu.md).
  bool zfinx = false;
};

/// What an executed instruction computed, for the pipeline and the retire trace.
struct Execution {
  uint32_t next_pc = 0;      ///< the next instruction in program order (the target if taken)
  bool taken = false;        ///< a conditional branch is taken
  uint32_t rd_value = 0;     ///< the value written to rd (0 when rd is x0 or not written)
  uint32_t operand_b = 0;    ///< the rs2 value (the divider's latency depends on the divisor);
                             ///< fdiv.s / fsqrt.s: their cycles
  uint32_t mem_addr = 0;     ///< loads and stores: the byte address
  uint32_t store_data = 0;   ///< stores: the rs2 value
  uint32_t csr_operand = 0;  ///< CSR instructions: the rs1 value or the zero-extended immediate
  /// fdiv.s: cycles the FPU does not grant the request (a subnormal divisor: 1; included in
  /// operand_b's cycles)
  uint32_t fpu_nack = 0;
};

/// An RV32F operation's outcome (execute_float_op()).
struct FloatResult {
  bool valid = true;    ///< false: not an FPU operation (flw, fsw, anything else)
  uint32_t value = 0;   ///< the result: an F register's bits or an x register's value
  uint32_t flags = 0;   ///< the fflags it raises
  uint32_t cycles = 0;  ///< fdiv.s / fsqrt.s: what it costs alone (divsqrt_cycles())
  uint32_t nack = 0;    ///< fdiv.s: cycles its request is not granted (a subnormal divisor)
};

/// The arithmetic of an RV32F operation `d` (not flw/fsw) on its operands: F registers a
/// (rs1), b (rs2), c (rs3), x register xa (rs1); frm for the dynamic rounding mode. The one
/// implementation of F semantics: the ISS's hart and socsim's Verilated core (through DPI-C,
/// models/cpu/rtl/rv_fpu_dpi.cpp) both call it.
FloatResult execute_float_op(const DecodedInsn& d, uint32_t frm, uint32_t a, uint32_t b,
                             uint32_t c, uint32_t xa);

/// fdiv.s (is_div) / fsqrt.s cycles on the genuine core, the request and the following
/// instruction's cycle included, for operands a, b and the result (docs/fpu.md).
uint32_t divsqrt_cycles(uint32_t a, uint32_t b, bool is_div, uint32_t result);

/// mcycle, minstret, the mhpmcounters, their event selectors and mcountinhibit.
struct Counters {
  uint64_t mcycle = 0;
  uint64_t minstret = 0;
  std::array<uint64_t, 32> hpm{};    ///< mhpmcounter3..31 at [3..31]
  std::array<uint32_t, 32> event{};  ///< mhpmevent3..31 at [3..31] (one-hot csr::Event bits)
  uint32_t inhibit = 0;              ///< mcountinhibit
  uint32_t implemented = 0;          ///< counters that exist: bits 0, 2, 3..
};

class Rv32Hart {
 public:
  explicit Rv32Hart(const IssConfig& config);

  void reset();
  const IssConfig& config() const { return config_; }

  uint32_t reg(unsigned i) const { return x_[i]; }
  /// All registers (a block executed ahead of its timing may have to be undone).
  const std::array<uint32_t, 32>& regs() const { return x_; }
  void set_regs(const std::array<uint32_t, 32>& regs) { x_ = regs; }
  void write_reg(unsigned i, uint32_t value) {
    if (i != 0) x_[i] = value;
  }

  /// The F registers (all 0 without the FPU) and what F decoding depends on now.
  uint32_t freg(unsigned i) const { return f_[i]; }
  FpDecodeState fp_decode_state() const {
    return FpDecodeState{config_.fpu, config_.zfinx || fs_ != 0, static_cast<uint8_t>(frm_),
                         config_.zfinx};
  }

  /// Executes `d`, the instruction at `pc`: results written to rd, control flow. Loads and
  /// stores only compute their access (the pipeline performs it, then complete_load()); CSR
  /// instructions only read their operand; system instructions have no effect here.
  void execute(const DecodedInsn& d, uint32_t pc, Execution* e);
  /// The target of the jump `d` at `pc` (jalr: from the registers as they are now).
  uint32_t jump_target(const DecodedInsn& d, uint32_t pc) const {
    return d.op == Op::kJalr ? (x_[d.rs1] + static_cast<uint32_t>(d.imm)) & ~1u
                             : pc + static_cast<uint32_t>(d.imm);
  }
  /// Bytes a load accesses (1, 2, 4) and whether it is a store, for Op loads/stores.
  static unsigned access_bytes(Op op);
  /// Completes the load `d`: `bytes` are the loaded bytes, right-aligned. Writes rd with the
  /// sign- or zero-extended value and returns that value.
  uint32_t complete_load(const DecodedInsn& d, uint32_t bytes);

  /// The value of CSR `addr` now (the decoder has checked that it exists).
  uint32_t csr_read(uint32_t addr) const;
  /// The write of the CSR instruction `d` with its operand: csrrw writes the operand, csrrs /
  /// csrrc set / clear its bits in the CSR's current value; csrrs/csrrc with rs1 = x0 do not
  /// write. Returns the counter written (csr::Address of mcycle etc. & 0x1F), or -1.
  int csr_write(const DecodedInsn& d, uint32_t operand);

  /// The handler address of a trap with `cause`: the mtvec base for exceptions, base + 4 * id
  /// for interrupts when mtvec is vectored.
  uint32_t trap_vector(uint32_t cause) const {
    return (cause & csr::kInterruptBit) && mtvec_vectored_ ? mtvec_base_ + 4 * (cause & 0x1F)
                                                           : mtvec_base_;
  }
  /// Trap entry: mepc, mcause, mstatus.MPIE <- MIE, MIE <- 0.
  void enter_trap(uint32_t cause, uint32_t epc);
  /// mret's mstatus update: MIE <- MPIE, MPIE <- 1.
  void mret();

  // State the pipeline reads and drives.
  uint32_t mie() const { return mie_; }
  bool mstatus_mie() const { return mstatus_mie_; }
  uint32_t mtvec_base() const { return mtvec_base_; }
  uint32_t mepc() const { return mepc_; }
  /// mip: the registered interrupt lines (the pipeline sets it before a CSR read).
  void set_mip(uint32_t lines) { mip_ = lines; }
  Counters& counters() { return counters_; }
  const Counters& counters() const { return counters_; }

 private:
  IssConfig config_;
  std::array<uint32_t, 32> x_{};
  bool mstatus_mie_ = false;
  bool mstatus_mpie_ = false;
  uint32_t mie_ = 0;
  uint32_t mtvec_base_ = 0;
  bool mtvec_vectored_ = true;
  uint32_t mscratch_ = 0;
  uint32_t mepc_ = 0;
  uint32_t mcause_ = 0;
  uint32_t mip_ = 0;
  Counters counters_;
  // The FPU's state (config_.fpu): f0..f31 (not with ZFINX), fcsr's fields and mstatus.FS
  // (0 with ZFINX).
  std::array<uint32_t, 32> f_{};
  uint32_t fflags_ = 0;
  uint32_t frm_ = 0;
  uint32_t fs_ = 0;  // 0 Off, 1 Initial, 2 Clean, 3 Dirty

  void execute_float(const DecodedInsn& d, Execution* e);
  /// FS after a float result or an fcsr write: Dirty, or Off with Zfinx (FS is not used).
  uint32_t fs_dirty() const { return config_.zfinx ? 0 : 3; }
};

// ---- the semantics of each instruction (inline: the pipeline model executes one per cycle) ----

namespace rv32 {

// Quotient and remainder as the M extension defines them for division by zero and overflow.
inline uint32_t div_signed(uint32_t a, uint32_t b) {
  if (b == 0) return 0xFFFFFFFFu;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return a;
  return static_cast<uint32_t>(static_cast<int32_t>(a) / static_cast<int32_t>(b));
}
inline uint32_t rem_signed(uint32_t a, uint32_t b) {
  if (b == 0) return a;
  if (a == 0x80000000u && b == 0xFFFFFFFFu) return 0;
  return static_cast<uint32_t>(static_cast<int32_t>(a) % static_cast<int32_t>(b));
}
inline uint32_t mulh(int64_t a, int64_t b) { return static_cast<uint32_t>(static_cast<uint64_t>(a * b) >> 32); }

}  // namespace rv32

inline void Rv32Hart::execute(const DecodedInsn& d, uint32_t pc, Execution* e) {
  const uint32_t a = x_[d.rs1], b = x_[d.rs2], imm = static_cast<uint32_t>(d.imm);
  const int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
  const unsigned shamt = d.rs2;  // shift-immediate amount
  e->next_pc = pc + d.length;
  e->operand_b = b;
  e->rd_value = 0;
  uint32_t v;
  switch (d.op) {
    case Op::kLui: v = imm; break;
    case Op::kAuipc: v = pc + imm; break;
    case Op::kJal: v = pc + d.length; e->next_pc = pc + imm; break;
    case Op::kJalr: v = pc + d.length; e->next_pc = (a + imm) & ~1u; break;
    case Op::kBeq: e->taken = a == b; goto branch;
    case Op::kBne: e->taken = a != b; goto branch;
    case Op::kBlt: e->taken = sa < sb; goto branch;
    case Op::kBge: e->taken = sa >= sb; goto branch;
    case Op::kBltu: e->taken = a < b; goto branch;
    case Op::kBgeu: e->taken = a >= b; goto branch;
    case Op::kLb: case Op::kLh: case Op::kLw: case Op::kLbu: case Op::kLhu:
      e->mem_addr = a + imm;
      return;
    case Op::kSb: case Op::kSh: case Op::kSw:
      e->mem_addr = a + imm;
      e->store_data = b;
      return;
    case Op::kAddi: v = a + imm; break;
    case Op::kSlti: v = sa < d.imm; break;
    case Op::kSltiu: v = a < imm; break;
    case Op::kXori: v = a ^ imm; break;
    case Op::kOri: v = a | imm; break;
    case Op::kAndi: v = a & imm; break;
    case Op::kSlli: v = a << shamt; break;
    case Op::kSrli: v = a >> shamt; break;
    case Op::kSrai: v = static_cast<uint32_t>(sa >> shamt); break;
    case Op::kAdd: v = a + b; break;
    case Op::kSub: v = a - b; break;
    case Op::kSll: v = a << (b & 31); break;
    case Op::kSlt: v = sa < sb; break;
    case Op::kSltu: v = a < b; break;
    case Op::kXor: v = a ^ b; break;
    case Op::kSrl: v = a >> (b & 31); break;
    case Op::kSra: v = static_cast<uint32_t>(sa >> (b & 31)); break;
    case Op::kOr: v = a | b; break;
    case Op::kAnd: v = a & b; break;
    case Op::kMul: v = a * b; break;
    case Op::kMulh: v = rv32::mulh(sa, sb); break;
    case Op::kMulhsu: v = rv32::mulh(sa, static_cast<int64_t>(b)); break;
    case Op::kMulhu: v = static_cast<uint32_t>((uint64_t(a) * b) >> 32); break;
    case Op::kDiv: v = rv32::div_signed(a, b); break;
    case Op::kDivu: v = b == 0 ? 0xFFFFFFFFu : a / b; break;
    case Op::kRem: v = rv32::rem_signed(a, b); break;
    case Op::kRemu: v = b == 0 ? a : a % b; break;
    case Op::kCsrrw: case Op::kCsrrs: case Op::kCsrrc:
      e->csr_operand = a;
      return;
    case Op::kCsrrwi: case Op::kCsrrsi: case Op::kCsrrci:
      e->csr_operand = d.rs1;
      return;
#define SOCSIM_RV32F_CASE(name, mnemonic, mask, match) case Op::k##name:
    SOCSIM_RV32F_OPCODES(SOCSIM_RV32F_CASE)
#undef SOCSIM_RV32F_CASE
      execute_float(d, e);
      return;
    default:  // fence, fence.i, ecall, ebreak, mret, wfi, illegal: done by the pipeline
      return;
  }
  write_reg(d.rd, v);
  e->rd_value = d.rd != 0 ? v : 0;
  return;
branch:
  if (e->taken) e->next_pc = pc + imm;
}

}  // namespace socsim
