// CSR addresses, mcause values and mhpmevent bits of the CV32E40P (machine mode,
// COREV_PULP=0, FPU=0), as listed in its user manual.
#pragma once

#include <cstdint>

namespace socsim::csr {

enum Address : uint32_t {
  kFflags = 0x001,
  kFrm = 0x002,
  kFcsr = 0x003,
  kMstatus = 0x300,
  kMisa = 0x301,
  kMie = 0x304,
  kMtvec = 0x305,
  kMcountinhibit = 0x320,
  kMhpmevent3 = 0x323,
  kMhpmevent31 = 0x33F,
  kMscratch = 0x340,
  kMepc = 0x341,
  kMcause = 0x342,
  kMtval = 0x343,
  kMip = 0x344,
  kTselect = 0x7A0,
  kTriggerLast = 0x7AA,
  kDcsr = 0x7B0,
  kDscratch1 = 0x7B3,
  kMcycle = 0xB00,
  kMinstret = 0xB02,
  kMhpmcounter3 = 0xB03,
  kMhpmcounter31 = 0xB1F,
  kMcycleh = 0xB80,
  kMinstreth = 0xB82,
  kMhpmcounter3h = 0xB83,
  kMhpmcounter31h = 0xB9F,
  kCycle = 0xC00,
  kTime = 0xC01,
  kInstret = 0xC02,
  kHpmcounter3 = 0xC03,
  kHpmcounter31 = 0xC1F,
  kCycleh = 0xC80,
  kTimeh = 0xC81,
  kInstreth = 0xC82,
  kHpmcounter3h = 0xC83,
  kHpmcounter31h = 0xC9F,
  kMvendorid = 0xF11,
  kMarchid = 0xF12,
  kMimpid = 0xF13,
  kMhartid = 0xF14,
};

constexpr uint32_t kMstatusMie = 1u << 3;
constexpr uint32_t kMstatusMpie = 1u << 7;
constexpr uint32_t kMstatusMpp = 3u << 11;
constexpr unsigned kMstatusFsShift = 13;  ///< FS, bits 14:13 (with the FPU)
constexpr uint32_t kMstatusSd = 1u << 31;  ///< SD: FS is Dirty
constexpr uint32_t kMisaF = 1u << 5;
constexpr uint32_t kMstatusReset = 0x1800;
constexpr uint32_t kMisaValue = 0x40001104;  // RV32 I M C
constexpr uint32_t kMvendoridValue = 0x602;
constexpr uint32_t kMarchidValue = 4;
constexpr uint32_t kMcountinhibitReset = 0xD;

enum Cause : uint32_t {
  kIllegalInstruction = 2,
  kBreakpoint = 3,
  kEcallM = 11,
  kInterruptBit = 0x80000000u,
};

/// mhpmevent bit positions (one-hot event selection).
enum Event : unsigned {
  kEvCycles = 0,
  kEvInstr = 1,
  kEvLdStall = 2,
  kEvJmpStall = 3,
  kEvImiss = 4,
  kEvLd = 5,
  kEvSt = 6,
  kEvJump = 7,
  kEvBranch = 8,
  kEvBranchTaken = 9,
  kEvCompInstr = 10,
  kEvPipeStall = 11,
  kEventCount = 16,
};

/// mcycle(h), minstret(h), mhpmcounter3..31(h) and their user read-only shadows (cycle,
/// instret, hpmcounter3..31); time(h) is not implemented.
constexpr bool is_counter(uint32_t addr) {
  const uint32_t page = addr >> 8, group = (addr >> 5) & 7;
  return (page == 0xB || page == 0xC) && (group == 0 || group == 4) && (addr & 0x1F) != 1;
}

/// The CSRs the CV32E40P has outside debug mode (COREV_PULP = 0, FPU = 0). The debug CSRs
/// (dcsr, dpc, dscratch0/1) exist only in debug mode and are illegal here.
constexpr bool csr_exists(uint32_t addr) {
  if (is_counter(addr)) return true;
  if (addr >= kMhpmevent3 && addr <= kMhpmevent31) return true;
  if (addr >= kTselect && addr <= kTriggerLast) return true;
  switch (addr) {
    case kMstatus: case kMisa: case kMie: case kMtvec: case kMcountinhibit: case kMscratch:
    case kMepc: case kMcause: case kMtval: case kMip: case kMvendorid: case kMarchid:
    case kMimpid: case kMhartid:
      return true;
    default:
      return false;
  }
}

/// fflags, frm, fcsr: they exist only on a core with its FPU (and are legal only while
/// mstatus.FS is not Off); csr_exists() leaves them out.
constexpr bool is_float_csr(uint32_t addr) { return addr >= kFflags && addr <= kFcsr; }

/// CSRs 0xC00-0xFFF are read-only: writing one is an illegal instruction.
constexpr bool csr_read_only(uint32_t addr) { return (addr >> 10) == 3; }

constexpr uint32_t kIrqMask = 0xFFFF0888u;  ///< lines that exist: 31..16, 11, 7, 3

}  // namespace socsim::csr
