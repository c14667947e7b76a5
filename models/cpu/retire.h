// The retire trace: one record per retired instruction (RVFI in spirit).
//
// Both CPU models (the Verilated core and the ISS) produce it; lockstep checking, the
// non-intrusive probes and the function profiler consume it.
#pragma once

#include <cstdint>

namespace socsim {

struct RetireRecord {
  uint64_t cycle = 0;      ///< index of the core cycle in which it retired (0 = first after
                           ///< reset); both CPU models count alike: cost = delta of cycles
  uint64_t order = 0;      ///< retire index (0, 1, 2, ...)
  uint32_t pc = 0;         ///< address of the instruction
  uint32_t insn = 0;       ///< instruction bits as fetched (16-bit ones zero-extended)
  uint32_t next_pc = 0;    ///< address of the next instruction to retire (trap target on traps)
  uint8_t rd = 0;          ///< destination register, 0 if none
  uint32_t rd_value = 0;   ///< value written to rd (0 if rd == 0)
  bool mem_valid = false;  ///< a load or store
  bool mem_write = false;
  uint8_t mem_size = 0;    ///< 1, 2 or 4 bytes
  uint32_t mem_addr = 0;
  uint32_t mem_data = 0;   ///< store data or loaded value (unextended, low mem_size bytes)
  bool trap = false;       ///< the instruction trapped (exception); pc is the faulting one
  bool interrupt = false;  ///< an interrupt was taken before this instruction's successor
  uint32_t cause = 0;      ///< mcause when trap or interrupt
};

/// Receives every retired instruction, in order.
class RetireObserver {
 public:
  virtual ~RetireObserver() = default;
  virtual void on_retire(const RetireRecord& record) = 0;
};

/// A debugger's halt (the GDB stub, models/cpu/debug/gdb_session.h), on both CPU models alike:
/// the CV32E40P's debug-request behaviour without its debug mode. In every cycle in which the
/// instruction in ID could enter EX (the controller decoding, no stall, no branch taken in EX,
/// no interrupt taken), the core asks halt_before(); true kills that instruction (as an
/// interrupt does), the older ones complete, and once the pipeline is empty the core calls
/// halted(): nothing past the boundary has executed, so the register file is the
/// architectural state there and may be read and written (CpuModel::debug_read_register,
/// debug_write_register). The pc halted() returns is refetched as after a jump. Cost: the
/// cycles the older instructions take to drain, the cycle halted() is called in, and the
/// refetch (docs/debugging.md).
class DebugHalt {
 public:
  virtual ~DebugHalt() = default;
  /// The instruction in ID: its pc, its 32-bit (expanded) bits, the value of the register
  /// its rs1 field names (forwarded as EX will see it); `issued`: an instruction has entered
  /// EX since the last resume (or reset). May be asked more than once in a cycle: the answer
  /// must depend only on the arguments and on what changed between cycles.
  virtual bool halt_before(uint32_t pc, uint32_t insn, uint32_t rs1_value, bool issued) = 0;
  /// The core is halted before the instruction at `pc`, `cycle` cycles after reset, with
  /// `retired` instructions retired. Returns the pc to resume at.
  virtual uint32_t halted(uint32_t pc, uint64_t cycle, uint64_t retired) = 0;
  /// Called after every cycle: the only place besides halted() where the answers of
  /// halt_before() may change (the RTL core's simulator may ask again within a cycle).
  virtual void cycle_done() = 0;
};

}  // namespace socsim
