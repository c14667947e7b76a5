// What a CPU model sees of the SoC: its two OBI ports, as transaction calls.
//
// Both CPU models issue their instruction fetches and data accesses through this interface;
// the ObiTlmBridge implements it over TLM-2.0. The RTL wrapper turns each OBI request into
// one call and the answer's wait cycles into delayed grant/rvalid; the ISS calls it per
// access. Fast memories may hand out a direct window (DMI) that the CPU reads itself.
#pragma once

#include <cstdint>

namespace socsim {

enum class BusPort { kInstr, kData };

struct BusResult {
  bool ok = true;            ///< false: no target answered (unmapped) or the target failed
  uint32_t wait_cycles = 0;  ///< cycles beyond the zero-wait response (0 for SRAM)
};

/// A directly accessible memory window (TLM DMI), in core-visible addresses.
struct DirectWindow {
  uint32_t base = 0;
  uint32_t size = 0;  ///< 0 = no window
  uint8_t* data = nullptr;
  bool writable = false;
  uint32_t read_wait = 0;
  uint32_t write_wait = 0;
  bool contains(uint32_t addr, uint32_t bytes) const {
    return size != 0 && addr - base < size && bytes <= size - (addr - base);
  }
};

class CpuBus {
 public:
  virtual ~CpuBus() = default;
  /// One access of 1..4 bytes that does not cross a word boundary, issued at core cycle
  /// `cycle`. Loads return the bytes right-aligned in *data.
  virtual BusResult read(BusPort port, uint32_t addr, unsigned bytes, uint32_t* data,
                         uint64_t cycle) = 0;
  virtual BusResult write(BusPort port, uint32_t addr, unsigned bytes, uint32_t data,
                          uint64_t cycle) = 0;
  /// A direct window containing `addr`, if the memory there grants one (size 0 if not).
  virtual DirectWindow direct_window(BusPort port, uint32_t addr) = 0;
};

}  // namespace socsim
