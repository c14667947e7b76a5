// BareHarness: the Verilated core on a flat 4 MiB RAM with the core-v-verif testbench's
// memory map, no SystemC. Used by rv_harness (timing and functional firmware tests) and the
// speed benchmark.
//
// Memory: RAM 4 MiB at 0 (instruction fetches wrap every 4 MiB; data accesses to the debug
// area 0x1A11_0800 + 16 KiB go to the top 16 KiB of RAM); other addresses read 0 and drop
// writes. Both OBI ports are zero-wait by default: grant in the request cycle, rvalid exactly
// one cycle later. With random wait states, grants are withheld and responses delayed at
// random (in order), reproducibly from a seed.
//
// Peripherals (byte enables ignored):
//   0x1000_0000 write  console: the low byte is printed
//   0x2000_0000 write  123456789: exit 0; 1: exit 1; other values ignored
//   0x2000_0004 write  exit value; the run ends
//   0x1500_1004 read   32-bit count of cycles since reset; any write clears it
//   0x1500_0000 write  interrupt lines to raise (irq_i mask); also lowers all lines
//   0x1500_0004 write  N >= 1: irq_i = mask N cycles after the store's request cycle; the lines
//                      stay high until 0x1500_0000 is written again
#pragma once

#include <cstdint>
#include <iosfwd>
#include <random>
#include <string>
#include <vector>

#include "models/cpu/rtl/obi_response_queue.h"
#include "models/cpu/rtl/rtl_core.h"

namespace socsim {

struct BareHarnessOptions {
  bool random_waits = false;  ///< withhold grants and delay responses at random
  uint32_t seed = 1;          ///< seed of the wait-state generator
  uint64_t max_cycles = 200'000'000;
  std::ostream* console = nullptr;  ///< console output (nullptr: discarded)
  /// One line per granted OBI request (cycle, port, address, and for data: direction, byte
  /// enables, store data); nullptr: none. Two cores that agree cycle for cycle print the
  /// same lines, whatever their internals (scripts/cv32e40p-compare.py diffs them).
  std::ostream* bus_trace = nullptr;
};

struct RunResult {
  bool exited = false;      ///< the firmware wrote an exit value (else: max_cycles reached)
  uint32_t exit_value = 0;
  uint64_t cycles = 0;      ///< cycles since reset, the exit store's cycle included
  uint32_t last_pc = 0;     ///< pc of the last instruction fetch request (for diagnostics)
  std::string protocol_error;  ///< set if the core broke the OBI protocol (the run stops)
};

class BareHarness {
 public:
  static constexpr uint32_t kRamSize = 4u << 20;
  static constexpr uint32_t kBootAddr = 0x80;

  explicit BareHarness(const BareHarnessOptions& options);

  /// Copies the PT_LOAD segments of a RISC-V ELF32 file into RAM. Returns false and sets
  /// *error (file, reason) on failure.
  bool load_elf(const std::string& path, std::string* error);
  /// Stores words into RAM (little-endian) from a word-aligned address.
  void write_words(uint32_t addr, const std::vector<uint32_t>& words);
  uint32_t read_word(uint32_t addr) const;

  /// Resets the core and runs until the firmware exits or max_cycles pass.
  RunResult run();

  RtlCore& core() { return core_; }

 private:
  /// A request must stay up, unchanged, until it is granted (OBI). Returns false on a breach.
  struct PendingRequest {
    bool waiting = false;
    ObiRequest request;
  };
  static bool check_stable(PendingRequest& pending, const ObiRequest& now, bool gnt);

  void trace_bus(const ObiRequest& ir, bool igrant, const ObiRequest& dr, bool dgrant);
  void push(ObiResponseQueue& q, uint64_t now, uint32_t data);
  uint32_t data_read(uint32_t addr);
  void data_write(uint32_t addr, uint32_t wdata, uint8_t be);

  BareHarnessOptions options_;
  std::vector<uint8_t> ram_;
  RtlCore core_;
  std::mt19937 rng_;
  ObiResponseQueue instr_q_;
  ObiResponseQueue data_q_;
  uint64_t now_ = 0;
  uint64_t cycle_base_ = 0;  // 0x1500_1004 counts from here
  uint32_t irq_mask_ = 0;
  uint64_t irq_at_ = 0;      // cycle at which the lines rise (0: never)
  bool exited_ = false;
  uint32_t exit_value_ = 0;
};

}  // namespace socsim
