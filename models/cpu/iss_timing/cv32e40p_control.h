// What the CV32E40P's decoder tells its pipeline control about an instruction (the fields of
// rv_pkg::decode_t the stall, flush and forwarding logic use), derived from the ISS's decode.
// Timing only: the semantics are the ISS's (models/cpu/iss/rv32_hart.h).
#pragma once

#include <cstdint>

#include "models/cpu/iss/rv32_decode.h"

namespace socsim::cv32e40p {

/// The EX unit an instruction occupies.
/// kApu: an F operation sent to the FPU through the APU dispatcher (FPU only).
enum class Unit : uint8_t { kAlu, kMul, kDiv, kLsu, kCsr, kNone, kApu };
/// Control transfers: jumps are taken in ID, branches resolve in EX.
enum class Xfer : uint8_t { kNone, kJal, kJalr, kBranch };
/// Instructions the controller handles by stopping the fetch and flushing the pipeline.
enum class Sys : uint8_t { kNone, kIllegal, kEcall, kEbreak, kMret, kWfi, kFence, kCsrStatus };

struct Control {
  Unit unit = Unit::kNone;
  Xfer xfer = Xfer::kNone;
  Sys sys = Sys::kIllegal;
  uint8_t rd = 0, rs1 = 0, rs2 = 0;  ///< the register fields, whatever the format
  uint32_t reads = 0;       ///< registers read in ID (bit n: xn; x0 never)
  bool rd_we = false;       ///< written from EX (ALU, mul, div, CSR, link), x0 included
  bool mem_load = false;
  bool mem_store = false;
  bool mulh = false;        ///< mulh, mulhsu, mulhu: 5 cycles in EX
  bool csr_access = false;  ///< a SYSTEM instruction with funct3 != 0 (also an illegal one)
  bool compressed = false;
  bool counts = false;      ///< counts as an instruction (INSTR event): not illegal/ecall/ebreak
  uint8_t wb_rd = 0;        ///< the register WB reports (written from EX or by a load), or 0
  uint32_t freads = 0;      ///< F registers read in ID (bit n: fn; FPU only)
  // The genuine core's 6-bit register addresses (x0..x31, then f0..f31 as 32..63; FPU only).
  uint64_t reads6 = 0;      ///< registers read in ID (x0 left out)
  /// The registers the APU dispatcher's dependence check sees read (apu_read_regs, from the
  /// operand multiplexers, x0 included: the dispatcher does not leave it out): reads6, for
  /// OP-FP instructions but fmv the register named by the rs2 field even when it is not an
  /// operand (fsqrt.s, fclass.s, the conversions), the rs1 and rs2 fields of the system
  /// instructions and fence (the multiplexers' defaults), and address 0 for every
  /// instruction whose third operand is left at its default (all but stores, branches,
  /// jumps, fadd.s, fsub.s and the fused four).
  uint64_t apu_reads6 = 0;
  uint8_t waddr6 = 0;       ///< the register written (an x or F register), valid with we6
  bool we6 = false;         ///< writes a register (x0 included), through the ALU or LSU port
  bool alu_port = false;    ///< writes through the ALU port (regfile_alu_we), not an APU op
  /// The APU latency class (the decoder's apu_lat): 1 a result in the cycle of the request
  /// (written through the ALU port), 2 one cycle later (LSU port), 3 "multicycle" (ALU port,
  /// FPU_*_LAT = 2 and fdiv.s/fsqrt.s); 0 not an APU operation.
  uint8_t apu_class = 0;
  uint8_t apu_cycles = 0;   ///< classes 2 and 3 but fdiv/fsqrt: cycles to the result
};

/// The genuine core's FPU latency parameters (IssConfig::fpu_addmul_lat, fpu_others_lat)
/// and ZFINX (IssConfig::zfinx: float operands and results in the x registers).
struct FpuLatency {
  unsigned addmul = 0;
  unsigned others = 0;
  bool zfinx = false;
};

/// Illegal instructions, ecall and ebreak trap (they do not count as instructions).
inline bool is_trap(Sys sys) { return sys == Sys::kIllegal || sys == Sys::kEcall || sys == Sys::kEbreak; }
/// The exception cause of a trapping instruction (mcause).
inline uint32_t trap_cause(Sys sys) { return sys == Sys::kIllegal ? 2 : sys == Sys::kEcall ? 11 : 3; }

/// The decoder's outputs for `d` (the CV32E40P decoder, rtl/rv_decoder.sv of socsim's core).
Control control_of(const DecodedInsn& d, FpuLatency lat = {});

/// A status CSR access flushes the pipeline (4 cycles): mstatus, mepc, mtvec, mcause,
/// mcountinhibit, every counter and mhpmevent.
bool is_status_csr(uint32_t addr);

/// Cycles the divider takes for `divisor`: 3 + clz(divisor) unsigned or non-negative; for a
/// negative signed divisor 2 + its leading ones. The dividend never matters.
inline unsigned divide_cycles(uint32_t divisor, bool is_signed) {
  const auto clz = [](uint32_t v) { return v != 0 ? static_cast<unsigned>(__builtin_clz(v)) : 32u; };
  if (is_signed && static_cast<int32_t>(divisor) < 0) return 2 + clz(~divisor);
  return 3 + clz(divisor);
}

}  // namespace socsim::cv32e40p
