// A GDB session on a CPU model (`socsim run --gdb PORT`): the stub's run control, on either
// CPU model, from the retire trace.
//
// GDB stops the core with the core's own halt (DebugHalt, models/cpu/retire.h; on the RTL core
// rtl/rv_core.sv's, modelled cycle for cycle by the ISS): before an instruction enters EX the
// session says whether to halt there: when GDB single-steps (after one instruction has
// entered EX), when the instruction is at a breakpoint, when it is a load or store that a
// watchpoint covers (its address from the forwarded rs1, before it executes, as RISC-V
// triggers fire), or when GDB sent Ctrl-C (polled every few thousand cycles). The
// instruction is killed, the older ones complete, and GDB is served with the core halted at
// that exact boundary: nothing past it has executed. Registers are read and written in the
// register file, a pc write is where the core refetches from when GDB resumes it, and the
// CSRs are those the CPU model shows (CpuModel::debug_read_csr). Breakpoints are address
// matches: no memory is patched, so software (Z0) and hardware (Z1) breakpoints behave
// alike, also in ROM. The first instruction after a resume is never halted before (GDB
// steps off a breakpoint by resuming at it). The first stop, before the program's first
// instruction, is a halt as well.
//
// A halt costs cycles: the older instructions drain, one cycle at the halt, and the fetch
// restarts at the resume pc (docs/debugging.md gives the figures). A run with GDB attached
// is therefore not cycle for cycle the run without it; runs without GDB never halt.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "models/common/sim_control.h"
#include "models/cpu/cpu_model.h"
#include "models/cpu/debug/gdb_server.h"

namespace socsim {

struct GdbMemory {
  /// Backdoor access to memory (no timing); false outside the memory regions.
  std::function<bool(uint32_t addr, uint8_t* data, uint32_t size)> read;
  std::function<bool(uint32_t addr, const uint8_t* data, uint32_t size)> write;
};

class GdbSession final : public DebugHalt, private GdbTarget {
 public:
  /// `reset_pc`: where the core starts (the boot address).
  GdbSession(CpuModel& cpu, GdbTransport& transport, GdbMemory memory, SimControl& control,
             uint32_t reset_pc);

  /// DebugHalt: whether to halt before the instruction in ID; GDB's turn at a halt.
  bool halt_before(uint32_t pc, uint32_t insn, uint32_t rs1_value, bool issued) override;
  uint32_t halted(uint32_t pc, uint64_t cycle, uint64_t retired) override;
  /// Looks for GDB's Ctrl-C every kInterruptPoll cycles.
  void cycle_done() override;
  /// The run has ended: tells GDB how (exit code, or the fault as a signal).
  void finish(const SimControl& control);

 private:
  bool read_register(unsigned regnum, uint32_t* value) override;
  bool write_register(unsigned regnum, uint32_t value) override;
  bool read_memory(uint32_t addr, uint8_t* data, uint32_t size) override;
  bool write_memory(uint32_t addr, const uint8_t* data, uint32_t size) override;
  std::string monitor(const std::string& command) override;

  /// Serves GDB at this boundary, reporting `reply`; then runs as GDB said.
  void stop(const std::string& reply);
  /// The stop reply for a watchpoint the load or store `insn` triggers with rs1 = `rs1`.
  std::optional<std::string> access_watch(uint32_t insn, uint32_t rs1) const;

  /// Cycles between two looks for GDB's Ctrl-C.
  static constexpr unsigned kInterruptPoll = 4096;

  CpuModel& cpu_;
  GdbServer server_;
  GdbMemory memory_;
  SimControl& control_;
  uint32_t pc_;                ///< the halt's pc; a pc write changes where the core resumes
  uint64_t cycle_ = 0;         ///< cycles completed at the halt
  uint64_t instructions_ = 0;  ///< instructions retired at the halt
  bool first_ = true;          ///< the first halt (before the first instruction) is due
  bool halted_ = false;        ///< GDB is being served (registers may be read and written)
  bool stepping_ = false;
  bool range_stepping_ = false;  ///< stepping_ over the server's range() (vCont;r)
  bool detached_ = false;
  bool host_stopped_ = false;  ///< a stop request (signal) ended the wait for GDB
  bool interrupt_ = false;     ///< GDB sent Ctrl-C: halt at the next question
  std::string reply_;          ///< the stop reply of the halt due (halt_before's reason)
  unsigned poll_countdown_ = kInterruptPoll;
};

}  // namespace socsim
