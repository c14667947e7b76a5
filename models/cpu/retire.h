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

}  // namespace socsim
