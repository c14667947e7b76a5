#include "models/cpu/iss/rv32_iss.h"

#include <cstdio>
#include <cstring>

#include "models/common/hex.h"

namespace socsim {
namespace {

uint32_t bits(uint32_t v, unsigned hi, unsigned lo) { return (v >> lo) & ((1u << (hi - lo + 1)) - 1); }
int32_t sext(uint32_t v, unsigned width) {
  const uint32_t m = 1u << (width - 1);
  return static_cast<int32_t>((v ^ m) - m);
}
int32_t imm_i(uint32_t i) { return static_cast<int32_t>(i) >> 20; }
int32_t imm_s(uint32_t i) { return sext((bits(i, 31, 25) << 5) | bits(i, 11, 7), 12); }
int32_t imm_b(uint32_t i) {
  return sext((bits(i, 31, 31) << 12) | (bits(i, 7, 7) << 11) | (bits(i, 30, 25) << 5) |
                  (bits(i, 11, 8) << 1),
              13);
}
int32_t imm_j(uint32_t i) {
  return sext((bits(i, 31, 31) << 20) | (bits(i, 19, 12) << 12) | (bits(i, 20, 20) << 11) |
                  (bits(i, 30, 21) << 1),
              21);
}
unsigned clz32(uint32_t v) { return v ? __builtin_clz(v) : 32; }
unsigned clo32(uint32_t v) { return clz32(~v); }

// Cycle estimates of the CV32E40P timing table (CV32E40P-FACTS.md) that are not 1.
constexpr unsigned kJumpCycles = 2;
constexpr unsigned kBranchTakenCycles = 3;
constexpr unsigned kMulhCycles = 5;
constexpr unsigned kCsrSlowCycles = 4;
constexpr unsigned kFenceCycles = 4;
constexpr unsigned kTrapEntryCycles = 5;
constexpr unsigned kMretCycles = 4;
constexpr unsigned kWfiPendingCycles = 6;
constexpr unsigned kInterruptEntryCycles = 4;

// Divider latency: 3 + clz(divisor) when unsigned or the divisor is non-negative; for a
// negative signed divisor, 2 + its number of leading ones. The dividend never matters.
unsigned divide_cycles(uint32_t divisor, bool is_signed) {
  if (is_signed && static_cast<int32_t>(divisor) < 0) return 2 + clo32(divisor);
  return 3 + clz32(divisor);
}

}  // namespace

Rv32Iss::Rv32Iss(const IssConfig& config, CpuBus& bus, IrqLines& irq)
    : config_(config), bus_(bus), irq_(irq) {
  reset();
}

void Rv32Iss::reset() {
  x_.fill(0);
  pc_ = config_.boot_addr;
  mstatus_ = csr::kMstatusReset;
  mie_ = 0;
  mtvec_ = (config_.mtvec_addr & ~0xFFu) | 1u;
  mscratch_ = mepc_ = mcause_ = 0;
  mcountinhibit_ = csr::kMcountinhibitReset;
  mcycle_ = minstret_ = 0;
  mhpmevent_.fill(0);
  mhpmcounter_.fill(0);
  cycle_ = retired_ = 0;
  sleeping_ = false;
  fault_.clear();
  fetch_window_ = DirectWindow{};
  data_window_ = DirectWindow{};
  prev_load_rd_ = prev2_load_rd_ = prev_alu_rd_ = 0;
}

void Rv32Iss::wake(uint64_t cycle) {
  if (cycle > cycle_) cycle_ = cycle;
  sleeping_ = false;
}

Rv32Iss::Status Rv32Iss::run(uint64_t until_cycle, const bool* stop_flag) {
  if (sleeping_) return Status::kSleep;
  while (cycle_ < until_cycle) {
    if (!step()) return sleeping_ ? Status::kSleep : Status::kStopped;
    if (*stop_flag) return Status::kStopped;
  }
  return Status::kRunning;
}

// ---- memory ------------------------------------------------------------------------------

bool Rv32Iss::bus_fault(const char* what, uint32_t addr, unsigned bytes) {
  fault_ = std::string("bus error: ") + what + " of " + std::to_string(bytes) +
           " byte(s) at " + hex(addr) + " (unmapped or refused) by the instruction at pc " +
           hex(pc_);
  return false;
}

bool Rv32Iss::fetch(uint32_t addr, uint32_t* insn, unsigned* length) {
  uint32_t lo;
  if (fetch_window_.contains(addr, 2)) {
    uint16_t h;
    std::memcpy(&h, fetch_window_.data + (addr - fetch_window_.base), 2);
    lo = h;
  } else {
    fetch_window_ = bus_.direct_window(BusPort::kInstr, addr);
    if (fetch_window_.contains(addr, 2) && fetch_window_.read_wait == 0) return fetch(addr, insn, length);
    fetch_window_ = DirectWindow{};
    uint32_t word;
    BusResult r = bus_.read(BusPort::kInstr, addr & ~3u, 4, &word, cycle_);
    if (!r.ok) return bus_fault("instruction fetch", addr & ~3u, 4);
    stall_cycles_ += r.wait_cycles;
    lo = (addr & 2) ? (word >> 16) : (word & 0xFFFF);
  }
  if ((lo & 3) != 3) {
    *insn = lo;
    *length = 2;
    return true;
  }
  uint32_t hi;
  const uint32_t addr_hi = addr + 2;
  if (fetch_window_.contains(addr_hi, 2)) {
    uint16_t h;
    std::memcpy(&h, fetch_window_.data + (addr_hi - fetch_window_.base), 2);
    hi = h;
  } else {
    uint32_t word;
    BusResult r = bus_.read(BusPort::kInstr, addr_hi & ~3u, 4, &word, cycle_);
    if (!r.ok) return bus_fault("instruction fetch", addr_hi & ~3u, 4);
    stall_cycles_ += r.wait_cycles;
    hi = (addr_hi & 2) ? (word >> 16) : (word & 0xFFFF);
  }
  *insn = lo | (hi << 16);
  *length = 4;
  return true;
}

bool Rv32Iss::load(uint32_t addr, unsigned bytes, uint32_t* value) {
  if (data_window_.contains(addr, bytes)) {
    uint32_t v = 0;
    std::memcpy(&v, data_window_.data + (addr - data_window_.base), bytes);
    *value = v;
    stall_cycles_ += data_window_.read_wait;
    if ((addr & 3) + bytes > 4) stall_cycles_ += 1 + data_window_.read_wait;  // split access
    return true;
  }
  DirectWindow w = bus_.direct_window(BusPort::kData, addr);
  if (w.contains(addr, bytes)) {
    data_window_ = w;
    return load(addr, bytes, value);
  }
  // Accesses that cross a word boundary become two bus transactions, lower address first.
  const unsigned first = (addr & 3) + bytes > 4 ? 4 - (addr & 3) : bytes;
  uint32_t lo = 0, hi = 0;
  BusResult r = bus_.read(BusPort::kData, addr, first, &lo, cycle_);
  if (!r.ok) return bus_fault("load", addr, first);
  stall_cycles_ += r.wait_cycles;
  if (first < bytes) {
    r = bus_.read(BusPort::kData, addr + first, bytes - first, &hi, cycle_ + 1);
    if (!r.ok) return bus_fault("load", addr + first, bytes - first);
    stall_cycles_ += 1 + r.wait_cycles;
  }
  *value = first < bytes ? (lo | (hi << (8 * first))) : lo;
  return true;
}

bool Rv32Iss::store(uint32_t addr, unsigned bytes, uint32_t value) {
  if (data_window_.contains(addr, bytes) && data_window_.writable) {
    std::memcpy(data_window_.data + (addr - data_window_.base), &value, bytes);
    stall_cycles_ += data_window_.write_wait;
    if ((addr & 3) + bytes > 4) stall_cycles_ += 1 + data_window_.write_wait;
    return true;
  }
  DirectWindow w = bus_.direct_window(BusPort::kData, addr);
  if (w.contains(addr, bytes) && w.writable) {
    data_window_ = w;
    return store(addr, bytes, value);
  }
  const unsigned first = (addr & 3) + bytes > 4 ? 4 - (addr & 3) : bytes;
  BusResult r = bus_.write(BusPort::kData, addr, first, value, cycle_);
  if (!r.ok) return bus_fault("store", addr, first);
  stall_cycles_ += r.wait_cycles;
  if (first < bytes) {
    r = bus_.write(BusPort::kData, addr + first, bytes - first, value >> (8 * first), cycle_ + 1);
    if (!r.ok) return bus_fault("store", addr + first, bytes - first);
    stall_cycles_ += 1 + r.wait_cycles;
  }
  return true;
}

bool Rv32Iss::is_32bit_at_halfword(uint32_t target) {
  if ((target & 2) == 0) return false;
  uint32_t insn;
  unsigned length;
  const unsigned saved = stall_cycles_;
  const bool ok = fetch(target, &insn, &length);
  stall_cycles_ = saved;
  fault_.clear();
  return ok && length == 4;
}

// ---- CSRs --------------------------------------------------------------------------------

unsigned Rv32Iss::csr_cycles(uint32_t addr) const {
  switch (addr) {
    case csr::kMscratch:
    case csr::kMie:
    case csr::kMisa:
    case csr::kMhartid:
      return 1;
    default:
      return kCsrSlowCycles;
  }
}

uint32_t Rv32Iss::read_counter(unsigned index, bool high) const {
  uint64_t v = 0;
  if (index == 0) {
    v = mcycle_;
  } else if (index == 2) {
    v = minstret_;
  } else if (index >= 3 && index < 3 + config_.num_mhpmcounters) {
    v = mhpmcounter_[index];
  }
  return high ? static_cast<uint32_t>(v >> 32) : static_cast<uint32_t>(v);
}

bool Rv32Iss::csr_read(uint32_t addr, uint32_t* value) {
  switch (addr) {
    case csr::kMstatus: *value = mstatus_; return true;
    case csr::kMisa: *value = csr::kMisaValue; return true;
    case csr::kMie: *value = mie_; return true;
    case csr::kMtvec: *value = mtvec_; return true;
    case csr::kMcountinhibit: *value = mcountinhibit_; return true;
    case csr::kMscratch: *value = mscratch_; return true;
    case csr::kMepc: *value = mepc_; return true;
    case csr::kMcause: *value = mcause_; return true;
    case csr::kMtval: *value = 0; return true;
    case csr::kMip: *value = irq_.pending(cycle_); return true;
    case csr::kMvendorid: *value = csr::kMvendoridValue; return true;
    case csr::kMarchid: *value = csr::kMarchidValue; return true;
    case csr::kMimpid: *value = 0; return true;
    case csr::kMhartid: *value = config_.hart_id; return true;
    case csr::kTime:
    case csr::kTimeh:
      return false;
    default:
      break;
  }
  if (addr >= csr::kMhpmevent3 && addr <= csr::kMhpmevent31) {
    const unsigned i = addr - csr::kMhpmevent3 + 3;
    *value = i < 3 + config_.num_mhpmcounters ? mhpmevent_[i] : 0;
    return true;
  }
  if (addr >= csr::kTselect && addr <= csr::kTriggerLast) {
    *value = 0;  // no trigger is implemented in machine mode
    return true;
  }
  if ((addr >= csr::kMcycle && addr <= csr::kMhpmcounter31) ||
      (addr >= csr::kCycle && addr <= csr::kHpmcounter31)) {
    *value = read_counter(addr & 0x1F, false);
    return true;
  }
  if ((addr >= csr::kMcycleh && addr <= csr::kMhpmcounter31h) ||
      (addr >= csr::kCycleh && addr <= csr::kHpmcounter31h)) {
    *value = read_counter(addr & 0x1F, true);
    return true;
  }
  return false;  // includes the debug CSRs, which exist in debug mode only
}

bool Rv32Iss::csr_write(uint32_t addr, uint32_t value) {
  if ((addr >> 10) == 3) return false;  // read-only space
  switch (addr) {
    case csr::kMstatus:
      mstatus_ = (value & (csr::kMstatusMie | csr::kMstatusMpie)) | csr::kMstatusMpp;
      return true;
    case csr::kMisa:
    case csr::kMtval:
    case csr::kMip:
      return true;  // writes ignored
    case csr::kMie: mie_ = value & 0xFFFF0888u; return true;
    case csr::kMtvec: mtvec_ = (value & ~0xFFu) | (value & 1u); return true;
    case csr::kMcountinhibit: mcountinhibit_ = value & 0xFFFFFFFDu; return true;
    case csr::kMscratch: mscratch_ = value; return true;
    case csr::kMepc: mepc_ = value & ~1u; return true;
    case csr::kMcause: mcause_ = value & 0x8000001Fu; return true;
    default:
      break;
  }
  if (addr >= csr::kMhpmevent3 && addr <= csr::kMhpmevent31) {
    const unsigned i = addr - csr::kMhpmevent3 + 3;
    if (i < 3 + config_.num_mhpmcounters) mhpmevent_[i] = value & ((1u << csr::kEventCount) - 1);
    return true;
  }
  if (addr >= csr::kTselect && addr <= csr::kTriggerLast) return true;
  auto set_half = [](uint64_t& reg, uint32_t v, bool high) {
    reg = high ? ((reg & 0xFFFFFFFFull) | (uint64_t(v) << 32)) : ((reg & ~0xFFFFFFFFull) | v);
  };
  if (addr >= csr::kMcycle && addr <= csr::kMhpmcounter31h) {
    const bool high = addr >= csr::kMcycleh;
    const unsigned i = addr & 0x1F;
    if (i == 0) set_half(mcycle_, value, high);
    else if (i == 2) set_half(minstret_, value, high);
    else if (i >= 3 && i < 3 + config_.num_mhpmcounters) set_half(mhpmcounter_[i], value, high);
    return (i != 1);
  }
  return false;
}

// ---- traps -------------------------------------------------------------------------------

void Rv32Iss::trap(uint32_t cause, uint32_t epc) {
  mepc_ = epc;
  mcause_ = cause;
  mstatus_ = (mstatus_ & ~csr::kMstatusMpie) |
             ((mstatus_ & csr::kMstatusMie) ? csr::kMstatusMpie : 0);
  mstatus_ &= ~csr::kMstatusMie;
  const uint32_t base = mtvec_ & ~0xFFu;
  const bool vectored = (mtvec_ & 1u) != 0;
  pc_ = (vectored && (cause & csr::kInterruptBit)) ? base + 4 * (cause & 0x1F) : base;
}

void Rv32Iss::illegal(uint32_t insn_bits) {
  rec_.trap = true;
  rec_.cause = csr::kIllegalInstruction;
  trap(csr::kIllegalInstruction, pc_);
  (void)insn_bits;
}

bool Rv32Iss::take_interrupt_if_pending() {
  const uint32_t pending = irq_.pending(cycle_) & mie_;
  if (pending == 0 || (mstatus_ & csr::kMstatusMie) == 0) return false;
  // Priority: irq 31..16, then 11 (external), 3 (software), 7 (timer).
  unsigned id;
  if (pending & 0xFFFF0000u) {
    id = 31 - __builtin_clz(pending & 0xFFFF0000u);
  } else if (pending & (1u << 11)) {
    id = 11;
  } else if (pending & (1u << 3)) {
    id = 3;
  } else {
    id = 7;
  }
  trap(csr::kInterruptBit | id, pc_);
  cycle_ += kInterruptEntryCycles;
  if (!(mcountinhibit_ & 1)) mcycle_ += kInterruptEntryCycles;
  rec_.interrupt = true;
  rec_.cause = csr::kInterruptBit | id;
  return true;
}

void Rv32Iss::retire_counters(unsigned cycles) {
  if (!(mcountinhibit_ & 1u)) mcycle_ += cycles;
  const bool retired = !rec_.trap;
  if (retired && !(mcountinhibit_ & 4u)) ++minstret_;
  if (retired) events_ |= 1u << csr::kEvInstr;
  for (unsigned i = 3; i < 3 + config_.num_mhpmcounters; ++i) {
    if (mcountinhibit_ & (1u << i)) continue;
    const uint32_t sel = mhpmevent_[i];
    if (sel & (1u << csr::kEvCycles)) mhpmcounter_[i] += cycles;
    if (sel & events_ & ~(1u << csr::kEvCycles)) mhpmcounter_[i] += 1;
  }
}

// ---- execution ---------------------------------------------------------------------------

bool Rv32Iss::step() {
  const bool had_interrupt = take_interrupt_if_pending();
  if (!had_interrupt) rec_.interrupt = false;

  uint32_t insn;
  unsigned length;
  stall_cycles_ = 0;
  events_ = 0;
  if (!fetch(pc_, &insn, &length)) return false;

  rec_.trap = false;
  rec_.rd = 0;
  rec_.rd_value = 0;
  rec_.mem_valid = false;
  if (!rec_.interrupt) rec_.cause = 0;
  const uint32_t pc = pc_;
  uint32_t next_pc = pc + length;
  uint32_t i = insn;
  if (length == 2) {
    events_ |= 1u << csr::kEvCompInstr;
    i = expand_compressed(static_cast<uint16_t>(insn));
  }

  unsigned cycles = 1;
  bool is_load = false;
  const uint32_t opcode = i & 0x7F;
  const unsigned rd = bits(i, 11, 7);
  const unsigned rs1 = bits(i, 19, 15);
  const unsigned rs2 = bits(i, 24, 20);
  const uint32_t f3 = bits(i, 14, 12);
  const uint32_t f7 = bits(i, 31, 25);
  const uint32_t a = x_[rs1];
  const uint32_t b = x_[rs2];
  bool uses_rs1 = false, uses_rs2 = false;

  switch (opcode) {
    case 0x37:  // lui
      write_rd(rd, i & 0xFFFFF000u);
      break;
    case 0x17:  // auipc
      write_rd(rd, pc + (i & 0xFFFFF000u));
      break;
    case 0x6F: {  // jal
      next_pc = pc + imm_j(i);
      write_rd(rd, pc + length);
      cycles = kJumpCycles + (is_32bit_at_halfword(next_pc) ? 1 : 0);
      events_ |= 1u << csr::kEvJump;
      break;
    }
    case 0x67: {  // jalr
      if (f3 != 0) {
        illegal(i);
        break;
      }
      uses_rs1 = true;
      next_pc = (a + imm_i(i)) & ~1u;
      write_rd(rd, pc + length);
      cycles = kJumpCycles;
      if (rs1 != 0 && rs1 == prev_load_rd_) {
        cycles += 2;
      } else if (rs1 != 0 && (rs1 == prev2_load_rd_ || rs1 == prev_alu_rd_)) {
        cycles += 1;
      }
      // rd == rs1: the jalr left behind in ID stalls on its own link write (a call through
      // auipc/jalr), holding the target out of ID for a cycle.
      if (rd != 0 && rd == rs1) cycles += 1;
      if (cycles > kJumpCycles) events_ |= 1u << csr::kEvJmpStall;
      events_ |= 1u << csr::kEvJump;
      break;
    }
    case 0x63: {  // branches
      uses_rs1 = uses_rs2 = true;
      bool taken;
      switch (f3) {
        case 0: taken = a == b; break;
        case 1: taken = a != b; break;
        case 4: taken = static_cast<int32_t>(a) < static_cast<int32_t>(b); break;
        case 5: taken = static_cast<int32_t>(a) >= static_cast<int32_t>(b); break;
        case 6: taken = a < b; break;
        case 7: taken = a >= b; break;
        default:
          illegal(i);
          taken = false;
          break;
      }
      if (rec_.trap) break;
      events_ |= 1u << csr::kEvBranch;
      if (taken) {
        next_pc = pc + imm_b(i);
        cycles = kBranchTakenCycles + (is_32bit_at_halfword(next_pc) ? 1 : 0);
        events_ |= 1u << csr::kEvBranchTaken;
      }
      break;
    }
    case 0x03: {  // loads
      uses_rs1 = true;
      static constexpr unsigned kSize[8] = {1, 2, 4, 0, 1, 2, 0, 0};
      const unsigned size = kSize[f3];
      if (size == 0) {
        illegal(i);
        break;
      }
      const uint32_t addr = a + imm_i(i);
      uint32_t v;
      if (!load(addr, size, &v)) return false;
      rec_.mem_valid = true;
      rec_.mem_write = false;
      rec_.mem_size = static_cast<uint8_t>(size);
      rec_.mem_addr = addr;
      rec_.mem_data = v;
      switch (f3) {
        case 0: v = static_cast<uint32_t>(sext(v & 0xFF, 8)); break;
        case 1: v = static_cast<uint32_t>(sext(v & 0xFFFF, 16)); break;
        default: break;
      }
      write_rd(rd, v);
      is_load = true;
      events_ |= 1u << csr::kEvLd;
      break;
    }
    case 0x23: {  // stores
      uses_rs1 = uses_rs2 = true;
      if (f3 > 2) {
        illegal(i);
        break;
      }
      const unsigned size = 1u << f3;
      const uint32_t addr = a + imm_s(i);
      const uint32_t data = size == 4 ? b : (b & ((1u << (8 * size)) - 1));
      rec_.mem_valid = true;
      rec_.mem_write = true;
      rec_.mem_size = static_cast<uint8_t>(size);
      rec_.mem_addr = addr;
      rec_.mem_data = data;
      if (!store(addr, size, data)) return false;
      events_ |= 1u << csr::kEvSt;
      break;
    }
    case 0x13: {  // OP-IMM
      uses_rs1 = true;
      const int32_t imm = imm_i(i);
      const unsigned shamt = rs2;
      uint32_t v;
      switch (f3) {
        case 0: v = a + imm; break;
        case 2: v = static_cast<int32_t>(a) < imm; break;
        case 3: v = a < static_cast<uint32_t>(imm); break;
        case 4: v = a ^ imm; break;
        case 6: v = a | imm; break;
        case 7: v = a & imm; break;
        case 1:
          if (f7 != 0) {
            illegal(i);
            v = 0;
            break;
          }
          v = a << shamt;
          break;
        default:  // 5
          if (f7 == 0) {
            v = a >> shamt;
          } else if (f7 == 0x20) {
            v = static_cast<uint32_t>(static_cast<int32_t>(a) >> shamt);
          } else {
            illegal(i);
            v = 0;
          }
          break;
      }
      if (!rec_.trap) write_rd(rd, v);
      break;
    }
    case 0x33: {  // OP
      uses_rs1 = uses_rs2 = true;
      uint32_t v = 0;
      if (f7 == 1) {
        const int64_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
        switch (f3) {
          case 0: v = a * b; break;
          case 1: v = static_cast<uint32_t>((sa * sb) >> 32); cycles = kMulhCycles; break;
          case 2:
            v = static_cast<uint32_t>((sa * static_cast<int64_t>(uint64_t(b))) >> 32);
            cycles = kMulhCycles;
            break;
          case 3: v = static_cast<uint32_t>((uint64_t(a) * uint64_t(b)) >> 32); cycles = kMulhCycles; break;
          case 4:  // div
            v = b == 0 ? 0xFFFFFFFFu
                : (a == 0x80000000u && b == 0xFFFFFFFFu) ? a
                : static_cast<uint32_t>(static_cast<int32_t>(a) / static_cast<int32_t>(b));
            cycles = divide_cycles(b, true);
            break;
          case 5:  // divu
            v = b == 0 ? 0xFFFFFFFFu : a / b;
            cycles = divide_cycles(b, false);
            break;
          case 6:  // rem
            v = b == 0 ? a
                : (a == 0x80000000u && b == 0xFFFFFFFFu) ? 0
                : static_cast<uint32_t>(static_cast<int32_t>(a) % static_cast<int32_t>(b));
            cycles = divide_cycles(b, true);
            break;
          default:  // remu
            v = b == 0 ? a : a % b;
            cycles = divide_cycles(b, false);
            break;
        }
        if (cycles > 1) events_ |= 1u << csr::kEvPipeStall;
      } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
        switch (f3) {
          case 0: v = f7 ? a - b : a + b; break;
          case 1: v = a << (b & 31); break;
          case 2: v = static_cast<int32_t>(a) < static_cast<int32_t>(b); break;
          case 3: v = a < b; break;
          case 4: v = a ^ b; break;
          case 5:
            v = f7 ? static_cast<uint32_t>(static_cast<int32_t>(a) >> (b & 31)) : a >> (b & 31);
            break;
          case 6: v = a | b; break;
          default: v = a & b; break;
        }
      } else {
        illegal(i);
        break;
      }
      write_rd(rd, v);
      break;
    }
    case 0x0F:  // fence, fence.i (decoded alike)
      if (f3 > 1) {
        illegal(i);
        break;
      }
      cycles = kFenceCycles + (is_32bit_at_halfword(next_pc) ? 1 : 0);
      fetch_window_ = DirectWindow{};
      break;
    case 0x73: {  // SYSTEM
      if (f3 == 0) {
        if (i == 0x00000073) {  // ecall
          rec_.trap = true;
          rec_.cause = csr::kEcallM;
          trap(csr::kEcallM, pc);
          next_pc = pc_;
          cycles = kTrapEntryCycles;
        } else if (i == 0x00100073) {  // ebreak
          rec_.trap = true;
          rec_.cause = csr::kBreakpoint;
          trap(csr::kBreakpoint, pc);
          next_pc = pc_;
          cycles = kTrapEntryCycles;
        } else if (i == 0x30200073) {  // mret
          next_pc = mepc_;
          mstatus_ = (mstatus_ & ~csr::kMstatusMie) |
                     ((mstatus_ & csr::kMstatusMpie) ? csr::kMstatusMie : 0);
          mstatus_ |= csr::kMstatusMpie;
          cycles = kMretCycles;
        } else if (i == 0x10500073) {  // wfi
          if ((irq_.pending(cycle_) & mie_) != 0) {
            cycles = kWfiPendingCycles;
          } else {
            sleeping_ = true;  // retires now; the wrapper advances time until a wake-up
          }
        } else {
          illegal(i);
        }
        break;
      }
      if (f3 == 4) {
        illegal(i);
        break;
      }
      const uint32_t csr_addr = i >> 20;
      const uint32_t operand = (f3 & 4) ? rs1 : a;
      uses_rs1 = !(f3 & 4);
      const bool writes = (f3 & 3) == 1 || rs1 != 0;  // csrrs/c with rs1 = x0 only read
      uint32_t old = 0;
      if (!csr_read(csr_addr, &old)) {
        illegal(i);
        break;
      }
      uint32_t value = old;
      switch (f3 & 3) {
        case 1: value = operand; break;
        case 2: value = old | operand; break;
        default: value = old & ~operand; break;
      }
      if (writes && !csr_write(csr_addr, value)) {
        illegal(i);
        break;
      }
      write_rd(rd, old);
      cycles = csr_cycles(csr_addr);
      break;
    }
    default:
      illegal(i);
      break;
  }

  if (rec_.trap) {
    next_pc = pc_;  // trap() set the handler address
    if (rec_.cause == csr::kIllegalInstruction) cycles = kTrapEntryCycles;
  }

  // Load-use hazard: +1 when this instruction reads the previous load's destination.
  if (prev_load_rd_ != 0 && opcode != 0x67 &&
      ((uses_rs1 && rs1 == prev_load_rd_) || (uses_rs2 && rs2 == prev_load_rd_))) {
    cycles += 1;
    events_ |= 1u << csr::kEvLdStall;
  }
  prev2_load_rd_ = prev_load_rd_;
  prev_load_rd_ = (is_load && !rec_.trap) ? static_cast<uint8_t>(rd) : 0;
  prev_alu_rd_ = (!is_load && !rec_.trap) ? rec_.rd : 0;

  cycles += stall_cycles_;
  retire_counters(cycles);
  cycle_ += cycles;
  pc_ = next_pc;
  ++retired_;

  if (observer_ != nullptr) {
    rec_.cycle = cycle_ - 1;  // the last cycle the instruction occupied (retire.h)
    rec_.order = retired_ - 1;
    rec_.pc = pc;
    rec_.insn = insn;
    rec_.next_pc = next_pc;
    observer_->on_retire(rec_);
  }
  return !sleeping_;
}

}  // namespace socsim
