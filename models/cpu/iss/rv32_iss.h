// An instruction-set simulator of the CV32E40P's architecture: RV32IMC + Zicsr + Zifencei,
// machine mode only, with the core's CSR set, counters, vectored traps and interrupts.
//
// It is the fast functional CPU model (`--cpu iss`) and the reference the RTL core is
// checked against in lockstep. It also estimates cycles from the CV32E40P timing table
// (pipeline penalties, divider latency, load-use stalls, memory wait states); these are
// estimates, labelled so in reports: only the RTL core is cycle-exact.
//
// Plain C++ with no SystemC: memory is reached through CpuBus; interrupts through IrqLines.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "models/common/irq.h"
#include "models/cpu/cpu_bus.h"
#include "models/cpu/iss/rv32_csr.h"
#include "models/cpu/retire.h"

namespace socsim {

struct IssConfig {
  uint32_t boot_addr = 0x80;
  uint32_t mtvec_addr = 0x0;  ///< mtvec_addr_i: mtvec resets to {mtvec_addr[31:8], 0, 01}
  uint32_t hart_id = 0;
  unsigned num_mhpmcounters = 1;
};

class Rv32Iss {
 public:
  enum class Status {
    kRunning,  ///< target cycle reached
    kSleep,    ///< in WFI with no enabled interrupt pending
    kStopped,  ///< a fault (see fault()) or an external stop request
  };

  Rv32Iss(const IssConfig& config, CpuBus& bus, IrqLines& irq);

  void reset();
  /// Executes instructions until the cycle count reaches `until_cycle`, the core sleeps,
  /// or `*stop_flag` becomes true (checked after every instruction).
  Status run(uint64_t until_cycle, const bool* stop_flag);
  /// Leaves WFI sleep at `cycle` (the caller found an enabled interrupt pending then).
  void wake(uint64_t cycle);

  /// Cycles since reset (estimated), including sleep.
  uint64_t cycle() const { return cycle_; }
  uint64_t instret() const { return retired_; }
  uint32_t pc() const { return pc_; }
  uint32_t reg(unsigned i) const { return x_[i]; }
  /// Overwrites a register (lockstep takes values the ISS cannot know, such as mcycle).
  void set_reg(unsigned i, uint32_t value) {
    if (i != 0) x_[i] = value;
  }
  /// Reads a CSR as the csrr instruction would, without its side effects (for debuggers).
  bool read_csr(uint32_t addr, uint32_t* value) { return csr_read(addr, value); }
  const std::string& fault() const { return fault_; }
  /// Interrupt lines that would wake a sleeping core (mie & pending), at `cycle`.
  uint32_t wake_mask(uint64_t cycle) const { return irq_.pending(cycle) & mie_; }
  uint32_t mie() const { return mie_; }

  void set_retire_observer(RetireObserver* observer) { observer_ = observer; }

 private:
  // One instruction; returns false when the run must stop (fault or sleep).
  bool step();
  bool take_interrupt_if_pending();
  void trap(uint32_t cause, uint32_t epc);
  void illegal(uint32_t insn_bits);
  bool load(uint32_t addr, unsigned bytes, uint32_t* value);
  bool store(uint32_t addr, unsigned bytes, uint32_t value);
  bool fetch(uint32_t addr, uint32_t* insn, unsigned* length);
  bool bus_fault(const char* what, uint32_t addr, unsigned bytes);
  bool csr_read(uint32_t addr, uint32_t* value);
  bool csr_write(uint32_t addr, uint32_t value);
  unsigned csr_cycles(uint32_t addr) const;
  uint32_t read_counter(unsigned index, bool high) const;
  void count_event(unsigned event, uint64_t n = 1) { events_ |= n ? (1u << event) : 0; }
  void retire_counters(unsigned cycles);
  bool is_32bit_at_halfword(uint32_t target);
  void write_rd(unsigned rd, uint32_t value) {
    if (rd != 0) {
      x_[rd] = value;
      rec_.rd = static_cast<uint8_t>(rd);
      rec_.rd_value = value;
    }
  }

  IssConfig config_;
  CpuBus& bus_;
  IrqLines& irq_;
  RetireObserver* observer_ = nullptr;

  // Architectural state.
  std::array<uint32_t, 32> x_{};
  uint32_t pc_ = 0;
  uint32_t mstatus_ = csr::kMstatusReset;
  uint32_t mie_ = 0;
  uint32_t mtvec_ = 0;
  uint32_t mscratch_ = 0;
  uint32_t mepc_ = 0;
  uint32_t mcause_ = 0;
  uint32_t mcountinhibit_ = csr::kMcountinhibitReset;
  uint64_t mcycle_ = 0;
  uint64_t minstret_ = 0;
  std::array<uint32_t, 32> mhpmevent_{};
  std::array<uint64_t, 32> mhpmcounter_{};

  // Simulation state.
  uint64_t cycle_ = 0;
  uint64_t retired_ = 0;
  bool sleeping_ = false;
  std::string fault_;
  DirectWindow fetch_window_;
  DirectWindow data_window_;
  RetireRecord rec_;
  uint32_t events_ = 0;        ///< mhpmevent bits raised by the current instruction
  unsigned stall_cycles_ = 0;  ///< extra cycles of the current instruction
  // Hazard tracking for the timing estimate.
  uint8_t prev_load_rd_ = 0;   ///< rd of the previous instruction if it was a load
  uint8_t prev2_load_rd_ = 0;  ///< rd of the instruction before that if it was a load
  uint8_t prev_alu_rd_ = 0;    ///< rd of the previous instruction if it was not a load
};

/// Expands a 16-bit RVC instruction to its 32-bit equivalent; 0 if illegal.
uint32_t expand_compressed(uint16_t c);

}  // namespace socsim
