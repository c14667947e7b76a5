// Memory traces of `socsim ddr-trace` and the bench: socsim's own text format and those of
// Ramulator 2 and DRAMSys, read and written, so one trace can be run on all three tools
// (docs/ddr.md describes each).
//
//   socsim        <time> <R|W> <address> <bytes> [initiator]      (# comments)
//                 time: a number with an optional unit ps, ns or us (no unit: ns)
//   ramulator-ls  LD|ST <address>          Ramulator 2 LoadStoreTrace: one transaction (a
//                                          burst) per line, no times
//   ramulator-rw  R|W <ch>,<rank>,<bg>,<bank>,<row>,<column>
//                 Ramulator 2 ReadWriteTrace: the address vector (to be run with its
//                 PassThrough address mapper, so both tools see the same banks and rows);
//                 column = burst in the row x burst length, as Ramulator counts columns;
//                 HBM2's pseudo channel takes the rank's place
//   dramsys       <cycle>: [(<bytes>)] read|write <hex address>    DRAMSys StlPlayer
//                 (.stl), cycles of a player clock given in MHz (# comments)
//
// Addresses are offsets inside the DDR device. Formats without times replay as a saturating
// stream (every request at time 0, in file order).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "models/ddr/ddr_config.h"

namespace socsim {

struct DdrTraceRecord {
  uint64_t time_ps = 0;
  bool is_write = false;
  uint64_t addr = 0;
  uint32_t bytes = 0;
  int initiator = 0;  ///< index into DdrTrace::initiators
};

struct DdrTrace {
  std::vector<DdrTraceRecord> records;
  std::vector<std::string> initiators;  ///< names, in order of first appearance
};

enum class DdrTraceFormat { kSocsim, kRamulatorLoadStore, kRamulatorReadWrite, kDramsys };

/// "socsim", "ramulator-ls", "ramulator-rw", "dramsys"; ConfigError (naming `what`) for
/// anything else.
DdrTraceFormat parse_ddr_trace_format(const std::string& name, const std::string& what);
const char* to_string(DdrTraceFormat format);

/// How to read or write a trace for a device.
struct DdrTraceContext {
  DdrTraceFormat format = DdrTraceFormat::kSocsim;
  const DdrConfig* device = nullptr;  ///< needed by ramulator-rw and for burst sizes
  double clock_mhz = 1000;            ///< dramsys: the player clock
};

/// Parses a trace; `name` stands for the file in messages. Requests must lie inside
/// [0, capacity). Throws ConfigError "name:line: ..." on the first bad line.
DdrTrace parse_ddr_trace(std::istream& in, const std::string& name, uint64_t capacity,
                         const DdrTraceContext& context = {});

/// Caps on a trace (docs/hardening.md, "Limits"): its file and its distinct initiators.
constexpr uint64_t kMaxTraceFileBytes = 1ull << 30;
constexpr size_t kMaxTraceInitiators = 1024;

/// Reads and parses a trace file: a regular file of at most kMaxTraceFileBytes (a FIFO or
/// /dev/zero is an input error, not a hang). Throws ConfigError.
DdrTrace load_ddr_trace(const std::string& file, uint64_t capacity,
                        const DdrTraceContext& context = {});

/// Writes `trace`; the Ramulator formats get one line per burst of each request (and lose
/// times and initiators), dramsys loses initiators. ConfigError if the format cannot carry
/// a record (a request not starting at a burst boundary for the Ramulator formats).
void write_ddr_trace(std::ostream& out, const DdrTrace& trace, const DdrTraceContext& context);

}  // namespace socsim
