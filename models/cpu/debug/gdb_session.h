// A GDB session on a CPU model (`socsim run --gdb PORT`): the stub's run control, on either
// CPU model, from the retire trace.
//
// The session watches every retired instruction. Between two of them the core is at an
// instruction boundary; the session stops it there (by not returning from on_retire(), which
// the model calls from its simulation thread) when GDB single-steps, when the next
// instruction is at a breakpoint, when it is a load or store that a watchpoint covers
// (decoded before it executes, as RISC-V triggers fire), or when GDB sent Ctrl-C (polled every
// few thousand instructions). Breakpoints are address matches: no memory is patched, so
// software (Z0) and hardware (Z1) breakpoints behave alike, also in ROM.
//
// The register file is the one the retire trace builds (rd and its value, per instruction),
// so it is the architectural state at the boundary on both models. On both CPU models records
// are delivered one instruction late (rtl_core.h; the ISS models the same pipeline), so the
// pipeline has moved a few cycles on when it stops: memory may already hold the next
// instruction's store. A register is written only where the CPU model can make the write
// equal to one at the boundary (CpuModel::debug_write_register: the ISS, for a register no
// instruction past the boundary has used); the pc is not moved; the CSRs are those the CPU
// model shows (CpuModel::debug_read_csr).
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

class GdbSession final : public RetireObserver, private GdbTarget {
 public:
  /// `reset_pc`: where the core starts (the boot address).
  GdbSession(CpuModel& cpu, GdbTransport& transport, GdbMemory memory, SimControl& control,
             uint32_t reset_pc);

  /// Serves GDB with the core stopped before its first instruction, until GDB resumes it.
  void start() { stop(""); }
  void on_retire(const RetireRecord& record) override;
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
  /// The stop reply for a watchpoint the instruction at pc_ triggers, if any.
  std::optional<std::string> next_access_watch();

  /// Retired instructions between two looks for GDB's Ctrl-C.
  static constexpr unsigned kInterruptPoll = 4096;

  CpuModel& cpu_;
  GdbServer server_;
  GdbMemory memory_;
  SimControl& control_;
  uint32_t regs_[32] = {};
  uint32_t pc_;
  uint64_t cycle_ = 0;         ///< cycles completed when the last instruction retired
  uint64_t instructions_ = 0;  ///< instructions retired
  bool stepping_ = false;
  bool range_stepping_ = false;  ///< stepping_ over the server's range() (vCont;r)
  bool detached_ = false;
  bool host_stopped_ = false;  ///< a stop request (signal) ended the wait for GDB
  unsigned poll_countdown_ = kInterruptPoll;
};

}  // namespace socsim
