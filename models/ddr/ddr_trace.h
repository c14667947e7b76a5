// The text trace format of `socsim ddr-trace` (documented in docs/ddr.md):
//
//   # comment
//   <time> <R|W> <address> <bytes> [initiator]
//
// time: a number with an optional unit ps, ns or us (no unit: ns); address: offset inside
// the DDR device, decimal or 0x-hex; bytes: request size; initiator: an optional name, so
// traffic of several initiators can be replayed together (default "trace").
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

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

/// Parses a trace; `name` stands for the file in messages. Requests must lie inside
/// [0, capacity). Throws ConfigError "name:line: ..." on the first bad line.
DdrTrace parse_ddr_trace(std::istream& in, const std::string& name, uint64_t capacity);

/// Caps on a trace (docs/hardening.md, "Limits"): its file and its distinct initiators.
constexpr uint64_t kMaxTraceFileBytes = 1ull << 30;
constexpr size_t kMaxTraceInitiators = 1024;

/// Reads a trace file: a regular file of at most kMaxTraceFileBytes (a FIFO or /dev/zero is
/// an input error, not a hang). Throws ConfigError.
DdrTrace load_ddr_trace(const std::string& file, uint64_t capacity);

}  // namespace socsim
