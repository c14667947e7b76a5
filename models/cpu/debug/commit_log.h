// The instruction trace (`socsim run --trace-instr FILE`): one line per retired instruction
// in Spike's commit-log format (`spike --log-commits`), so a run can be compared with Spike
// line by line, and the cycle it retired in at the end of the line:
//
//   core   0: 3 0x00000080 (0x00000297) x5  0x00000080 ; cycle 4
//   core   0: 3 0x0000008c (0x4108) x10 0x12345678 mem 0x00001000 ; cycle 11
//   core   0: 3 0x00000090 (0x00b52023) mem 0x00001004 0x0000abcd ; cycle 12
//
// Fields: hart, privilege (3 = machine), pc, instruction bits (4 hex digits for a compressed
// one), the register written and its value, then the memory access: a load's address, or a
// store's address and data (as many hex digits as the store has bytes). A trapping
// instruction writes nothing: its line is Spike's "exception" line with the cause and epc;
// an interrupt taken after an instruction is a line of its own (cause, handler address). `cut -d';' -f1` leaves
// Spike's part of each line.
#pragma once

#include <cstdio>
#include <string>

#include "models/cpu/retire.h"

namespace socsim {

class CommitLog final : public RetireObserver {
 public:
  /// Writes to `out` (not owned; flushed by its owner).
  explicit CommitLog(std::FILE* out) : out_(out) {}
  void on_retire(const RetireRecord& record) override;

  /// One record's line(s), as written (for tests).
  static std::string format(const RetireRecord& record);

 private:
  std::FILE* out_;
};

}  // namespace socsim
