#include "models/cpu/iss_timing/cv32e40p_control.h"

#include "models/cpu/iss/rv32_csr.h"

namespace socsim::cv32e40p {
namespace {

// Operand use of each instruction class in the CV32E40P's decoder.
enum Reads : uint8_t { kNoRegs = 0, kRs1 = 1, kRs1Rs2 = 3 };

struct Row {
  Unit unit;
  Xfer xfer;
  Sys sys;
  uint8_t reads;
  bool rd_we;
};

// Indexed by Op.
constexpr Row row(Op op) {
  switch (op) {
    case Op::kLui: case Op::kAuipc: return {Unit::kAlu, Xfer::kNone, Sys::kNone, kNoRegs, true};
    case Op::kJal: return {Unit::kAlu, Xfer::kJal, Sys::kNone, kNoRegs, true};
    case Op::kJalr: return {Unit::kAlu, Xfer::kJalr, Sys::kNone, kRs1, true};
    case Op::kBeq: case Op::kBne: case Op::kBlt: case Op::kBge: case Op::kBltu: case Op::kBgeu:
      return {Unit::kAlu, Xfer::kBranch, Sys::kNone, kRs1Rs2, false};
    case Op::kLb: case Op::kLh: case Op::kLw: case Op::kLbu: case Op::kLhu:
      return {Unit::kLsu, Xfer::kNone, Sys::kNone, kRs1, false};
    case Op::kSb: case Op::kSh: case Op::kSw:
      return {Unit::kLsu, Xfer::kNone, Sys::kNone, kRs1Rs2, false};
    case Op::kAddi: case Op::kSlti: case Op::kSltiu: case Op::kXori: case Op::kOri: case Op::kAndi:
    case Op::kSlli: case Op::kSrli: case Op::kSrai:
      return {Unit::kAlu, Xfer::kNone, Sys::kNone, kRs1, true};
    case Op::kAdd: case Op::kSub: case Op::kSll: case Op::kSlt: case Op::kSltu: case Op::kXor:
    case Op::kSrl: case Op::kSra: case Op::kOr: case Op::kAnd:
      return {Unit::kAlu, Xfer::kNone, Sys::kNone, kRs1Rs2, true};
    case Op::kMul: case Op::kMulh: case Op::kMulhsu: case Op::kMulhu:
      return {Unit::kMul, Xfer::kNone, Sys::kNone, kRs1Rs2, true};
    case Op::kDiv: case Op::kDivu: case Op::kRem: case Op::kRemu:
      return {Unit::kDiv, Xfer::kNone, Sys::kNone, kRs1Rs2, true};
    case Op::kFence: case Op::kFenceI: return {Unit::kNone, Xfer::kNone, Sys::kFence, kNoRegs, false};
    case Op::kEcall: return {Unit::kNone, Xfer::kNone, Sys::kEcall, kNoRegs, false};
    case Op::kEbreak: return {Unit::kNone, Xfer::kNone, Sys::kEbreak, kNoRegs, false};
    case Op::kMret: return {Unit::kNone, Xfer::kNone, Sys::kMret, kNoRegs, false};
    case Op::kWfi: return {Unit::kNone, Xfer::kNone, Sys::kWfi, kNoRegs, false};
    case Op::kCsrrw: case Op::kCsrrs: case Op::kCsrrc:
      return {Unit::kCsr, Xfer::kNone, Sys::kNone, kRs1, true};
    case Op::kCsrrwi: case Op::kCsrrsi: case Op::kCsrrci:
      return {Unit::kCsr, Xfer::kNone, Sys::kNone, kNoRegs, true};
    // RV32F (FPU = 1): F operations go to the APU (control_of sets unit kApu and the latency
    // class); the rows say which x registers they read and whether they write one.
    case Op::kFlw: return {Unit::kLsu, Xfer::kNone, Sys::kNone, kRs1, false};
    case Op::kFsw: return {Unit::kLsu, Xfer::kNone, Sys::kNone, kRs1, false};
    case Op::kFdivS: case Op::kFsqrtS: return {Unit::kDiv, Xfer::kNone, Sys::kNone, kNoRegs, false};
    case Op::kFcvtSW: case Op::kFcvtSWu: case Op::kFmvWX:
      return {Unit::kAlu, Xfer::kNone, Sys::kNone, kRs1, false};
    case Op::kFcvtWS: case Op::kFcvtWuS: case Op::kFmvXW: case Op::kFeqS: case Op::kFltS:
    case Op::kFleS: case Op::kFclassS:
      return {Unit::kAlu, Xfer::kNone, Sys::kNone, kNoRegs, true};
    case Op::kFmaddS: case Op::kFmsubS: case Op::kFnmsubS: case Op::kFnmaddS: case Op::kFaddS:
    case Op::kFsubS: case Op::kFmulS: case Op::kFsgnjS: case Op::kFsgnjnS: case Op::kFsgnjxS:
    case Op::kFminS: case Op::kFmaxS:
      return {Unit::kAlu, Xfer::kNone, Sys::kNone, kNoRegs, false};
    case Op::kIllegal: break;
  }
  return {Unit::kNone, Xfer::kNone, Sys::kIllegal, kNoRegs, false};
}

}  // namespace

bool is_status_csr(uint32_t addr) {
  if (csr::is_counter(addr)) return true;
  if (addr >= csr::kMhpmevent3 && addr <= csr::kMhpmevent31) return true;
  switch (addr) {
    case csr::kMstatus: case csr::kMepc: case csr::kMtvec: case csr::kMcause:
    case csr::kMcountinhibit:
      return true;
    default:
      return false;
  }
}

Control control_of(const DecodedInsn& d, FpuLatency lat) {
  const Row r = row(d.op);
  Control c;
  c.unit = r.unit;
  c.xfer = r.xfer;
  c.sys = r.sys;
  c.rd = d.rd;
  c.rs1 = d.rs1;
  c.rs2 = d.rs2;
  if ((r.reads & kRs1) && d.rs1 != 0) c.reads |= 1u << d.rs1;
  if ((r.reads & 2) && d.rs2 != 0) c.reads |= 1u << d.rs2;
  c.rd_we = r.rd_we;
  c.mem_load = (d.op >= Op::kLb && d.op <= Op::kLhu) || d.op == Op::kFlw;
  c.mem_store = (d.op >= Op::kSb && d.op <= Op::kSw) || d.op == Op::kFsw;
  // F register fields: 6-bit addresses 32..63, or the x registers with Zfinx.
  const uint8_t fbase = lat.zfinx ? 0 : 32;
  if (lat.zfinx) {
    if (writes_f_register(d.op)) c.rd_we = true;  // the result goes to x rd
  } else if (writes_f_register(d.op) || d.op == Op::kFsw) {
    c.rd = 0;  // no x register written
  }
  uint64_t fregs6 = 0;  // F operands, 6-bit addresses
  if (is_float_op(d.op) && d.op != Op::kFlw) {
    const bool x_source = d.op == Op::kFcvtSW || d.op == Op::kFcvtSWu || d.op == Op::kFmvWX;
    const bool one_source = d.op == Op::kFsqrtS || d.op == Op::kFcvtWS ||
                            d.op == Op::kFcvtWuS || d.op == Op::kFmvXW || d.op == Op::kFclassS;
    if (d.op != Op::kFsw && !x_source) fregs6 |= uint64_t{1} << (fbase + d.rs1);
    if (!x_source && !one_source) fregs6 |= uint64_t{1} << (fbase + d.rs2);
    if (d.op >= Op::kFmaddS && d.op <= Op::kFnmaddS) fregs6 |= uint64_t{1} << (fbase + (d.bits >> 27));
  }
  if (lat.zfinx) {
    c.reads |= static_cast<uint32_t>(fregs6) & ~1u;  // x0 never (as for integer operands)
  } else {
    c.freads = static_cast<uint32_t>(fregs6 >> 32);
  }
  c.mulh = d.op == Op::kMulh || d.op == Op::kMulhsu || d.op == Op::kMulhu;
  c.csr_access = (d.bits & 0x7F) == 0x73 && ((d.bits >> 12) & 7) != 0;
  c.compressed = d.length == 2;
  if (r.unit == Unit::kCsr && is_status_csr(static_cast<uint32_t>(d.imm))) c.sys = Sys::kCsrStatus;
  // A write of frm or fcsr (not a read, not fflags) flushes like a status CSR (FPU only).
  const bool csr_writes = d.op == Op::kCsrrw || d.op == Op::kCsrrwi || d.rs1 != 0;
  if (r.unit == Unit::kCsr && csr_writes &&
      (d.imm == static_cast<int32_t>(csr::kFrm) || d.imm == static_cast<int32_t>(csr::kFcsr))) {
    c.sys = Sys::kCsrStatus;
  }
  c.counts = !is_trap(c.sys);
  c.wb_rd = (c.rd_we || c.mem_load) && c.counts ? c.rd : 0;
  // The genuine core's view (cv32e40p_decoder.sv, cv32e40p_id_stage.sv): 6-bit register
  // addresses, the APU latency class (ADDMUL: fadd, fsub, fmul, the fused four; DIVSQRT;
  // the rest NONCOMP or CONV), the write ports.
  c.reads6 = c.reads | (uint64_t{c.freads} << 32);
  c.apu_reads6 = c.reads6 | fregs6;
  if (is_float_op(d.op) && (d.bits & 0x7F) == 0x53 && d.op != Op::kFmvXW && d.op != Op::kFmvWX) {
    c.apu_reads6 |= uint64_t{1} << (fbase + d.rs2);
  }
  const uint32_t major = d.bits & 0x7F;
  if (major == 0x0F || (major == 0x73 && ((d.bits >> 12) & 7) == 0)) {
    c.apu_reads6 |= (uint64_t{1} << d.rs1) | (uint64_t{1} << d.rs2);  // fence, ecall, mret ...
  }
  // (fadd.s and fsub.s take rs2 as their third operand, the fused four rs3)
  const bool third_operand = c.mem_store || c.xfer != Xfer::kNone ||
                             (d.op >= Op::kFmaddS && d.op <= Op::kFnmaddS) ||
                             d.op == Op::kFaddS || d.op == Op::kFsubS;
  if (!third_operand && d.op != Op::kIllegal) c.apu_reads6 |= 1;  // REGC_ZERO: address 0
  if (d.op != Op::kIllegal) {
    // x0 as a named integer operand (x1..x31 are in reads already; Zfinx's in fregs6)
    if ((r.reads & kRs1) && d.rs1 == 0) c.apu_reads6 |= 1;
    if ((r.reads & 2) && d.rs2 == 0) c.apu_reads6 |= 1;
  }
  // (a status CSR access writes its rd through the ALU port like any CSR instruction)
  if (c.sys == Sys::kNone || c.sys == Sys::kCsrStatus) {
    c.alu_port = r.rd_we && !is_float_op(d.op);
    if (!lat.zfinx && (d.op == Op::kFlw || writes_f_register(d.op))) {
      c.we6 = true;
      c.waddr6 = static_cast<uint8_t>(32 + d.rd);
    } else if (c.rd_we || c.mem_load) {
      c.we6 = true;
      c.waddr6 = d.rd;
    }
    if (is_float_op(d.op) && d.op != Op::kFlw && d.op != Op::kFsw) {
      c.unit = Unit::kApu;
      const bool addmul = (d.op >= Op::kFmaddS && d.op <= Op::kFnmaddS) || d.op == Op::kFaddS ||
                          d.op == Op::kFsubS || d.op == Op::kFmulS;
      const bool divsqrt = d.op == Op::kFdivS || d.op == Op::kFsqrtS;
      const unsigned l = addmul ? lat.addmul : lat.others;
      c.apu_class = divsqrt ? 3 : l < 2 ? static_cast<uint8_t>(l + 1) : 3;
      c.apu_cycles = divsqrt ? 0 : static_cast<uint8_t>(l);
    }
  }
  return c;
}

}  // namespace socsim::cv32e40p
