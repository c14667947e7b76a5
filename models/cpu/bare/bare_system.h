// BareSystem: the world of a core in the bare harness (no SystemC), shared by the RTL core's
// driver (models/cpu/rtl/bare_harness.h) and the ISS's (iss_bare_harness.h), so that both see
// the same memory, devices and wait states, cycle for cycle.
//
// Memory: RAM 4 MiB at 0 (instruction fetches wrap every 4 MiB; data accesses to the debug
// area 0x1A11_0800 + 16 KiB go to the top 16 KiB of RAM); other addresses read 0 and drop
// writes. Both OBI ports are zero-wait by default: grant in the request cycle, rvalid exactly
// one cycle later. With random wait states, grants are withheld and responses delayed at
// random (in order), reproducibly from a seed: each cycle draws the instruction port's grant,
// then the data port's; each granted request then draws its extra delay (0..2), the fetch
// first.
//
// Peripherals (the core-v-verif testbench's addresses; byte enables ignored):
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

#include "models/cpu/cpu_bus.h"
#include "models/cpu/obi.h"

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
  /// The core with the FPU (IssConfig::fpu, RtlCoreConfig::fpu; the genuine core is built
  /// with or without it).
  bool fpu = false;
  /// ... with these FPU_ADDMUL_LAT and FPU_OTHERS_LAT (0..2; docs/fpu.md).
  unsigned fpu_addmul_lat = 0;
  unsigned fpu_others_lat = 0;
  /// ... with ZFINX=1 (float operands in the x registers; IssConfig::zfinx).
  bool zfinx = false;
};

struct RunResult {
  bool exited = false;      ///< the firmware wrote an exit value (else: max_cycles reached)
  uint32_t exit_value = 0;
  uint64_t cycles = 0;      ///< cycles since reset, the exit store's cycle included
  uint32_t last_pc = 0;     ///< pc of the last instruction fetch request (for diagnostics)
  std::string protocol_error;  ///< set if the core broke the OBI protocol (the run stops)
  std::string fault;           ///< set if the model stopped with a fault (ISS: a memo check)
};

/// The harness's memory and devices. As a CpuBus (the ISS's view) every access is one granted
/// OBI request of its cycle, answered after 1 + wait cycles.
class BareSystem : public CpuBus {
 public:
  static constexpr uint32_t kRamSize = 4u << 20;
  static constexpr uint32_t kBootAddr = 0x80;
  static constexpr uint32_t kDebugBase = 0x1A11'0800;

  explicit BareSystem(const BareHarnessOptions& options);

  /// Copies the PT_LOAD segments of a RISC-V ELF32 file into RAM. Returns false and sets
  /// *error (file, reason) on failure.
  bool load_elf(const std::string& path, std::string* error);
  /// Stores words into RAM (little-endian) from a word-aligned address.
  void write_words(uint32_t addr, const std::vector<uint32_t>& words);
  uint32_t read_word(uint32_t addr) const;

  /// Devices to their reset state (RAM is kept).
  void reset();
  const BareHarnessOptions& options() const { return options_; }

  /// The grants of cycle `now` (random waits: drawn; otherwise both granted).
  void grants(bool* instr_gnt, bool* data_gnt);
  /// The level of irq_i in cycle `now`, and the last cycle it keeps it unless a device
  /// register is written.
  uint32_t irq_lines(uint64_t now, uint64_t* stable_until) const;
  /// This cycle's requests, granted or not: the OBI stability check (with random waits) and
  /// the bus trace. False on a protocol breach (*error says which).
  bool observe(uint64_t now, const ObiRequest& instr, bool instr_gnt, const ObiRequest& data,
               bool data_gnt, std::string* error);
  /// A granted fetch / data request in cycle `now`: performed now; the response is due in
  /// cycle now + 1 + *wait.
  uint32_t fetch(uint32_t addr, uint64_t now, uint32_t* wait);
  uint32_t data(const ObiRequest& req, uint64_t now, uint32_t* wait);

  /// The run's result after `cycles` cycles.
  RunResult result(uint64_t cycles) const;

  bool exited() const { return exited_; }
  /// True once the run must end: the firmware exited, or request_stop().
  const bool* stop_flag() const { return &stop_; }
  void request_stop() { stop_ = true; }
  uint32_t exit_value() const { return exit_value_; }

  // CpuBus
  BusResult read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                 uint64_t cycle) override;
  BusResult write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                  uint64_t cycle) override;
  DirectWindow direct_window(BusPort port, uint32_t addr) override;

 private:
  /// A request must stay up, unchanged, until it is granted (OBI).
  struct PendingRequest {
    bool waiting = false;
    ObiRequest request;
  };
  static bool check_stable(PendingRequest& pending, const ObiRequest& now, bool gnt);
  uint32_t draw_wait();
  uint32_t data_read(uint32_t addr, uint64_t now) const;
  void data_write(uint32_t addr, uint32_t wdata, uint8_t be, uint64_t now);

  BareHarnessOptions options_;
  std::vector<uint8_t> ram_;
  std::mt19937 rng_;
  PendingRequest instr_pending_, data_pending_;
  uint64_t cycle_base_ = 0;  // 0x1500_1004 counts from here
  uint32_t irq_mask_ = 0;
  uint64_t irq_at_ = 0;      // cycle at which the lines rise (0: none)
  bool irq_raised_ = false;  // the lines rose and were not lowered since
  bool exited_ = false;
  bool stop_ = false;
  uint32_t exit_value_ = 0;
  uint32_t last_fetch_ = 0;
};

/// What both harnesses offer: the program in RAM, the run's world.
class BareHarnessBase {
 public:
  explicit BareHarnessBase(const BareHarnessOptions& options) : system_(options) {}

  bool load_elf(const std::string& path, std::string* error) {
    return system_.load_elf(path, error);
  }
  void write_words(uint32_t addr, const std::vector<uint32_t>& words) {
    system_.write_words(addr, words);
  }
  uint32_t read_word(uint32_t addr) const { return system_.read_word(addr); }

 protected:
  BareSystem system_;
};

}  // namespace socsim
