// Serves a core's granted OBI requests from a CpuBus, for both CPU models: the Verilated core's
// wrapper and the ISS's pipeline model issue the same requests in the same cycles, and this
// turns each into one CpuBus access (or a direct read or write of a DMI window) and answers
// with the data and the target's wait cycles.
//
// Data requests carry the word address and byte enables; the bus sees the enabled bytes only
// (the address of the first one, their count, the data right-aligned), and a load's bytes
// come back in their lanes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "models/common/hex.h"
#include "models/cpu/cpu_bus.h"
#include "models/cpu/obi.h"

namespace socsim {

/// Sees a CPU model's traffic with the SoC: the interrupt lines of each cycle and every bus
/// access (lockstep: the RTL core's, replayed to the ISS).
class BusObserver {
 public:
  virtual ~BusObserver() = default;
  /// Cycle `cycle` begins with irq_i = `lines` (its accesses follow).
  virtual void on_cycle(uint64_t cycle, uint32_t lines) = 0;
  /// One access in `cycle`: `data` is the store data or the loaded bytes (right-aligned); the
  /// response comes 1 + wait_cycles later, or wait_cycles is kRefused: a bus error (nothing
  /// mapped there, or the target refused).
  static constexpr uint32_t kRefused = ~0u;
  virtual void on_access(BusPort port, uint64_t cycle, uint32_t addr, unsigned bytes, bool write,
                         uint32_t data, uint32_t wait_cycles) = 0;
};

class ObiServer {
 public:
  explicit ObiServer(CpuBus& bus) : bus_(bus) {}

  /// A granted fetch of the word at `addr` in `cycle`. False on a bus error (see fault()).
  bool fetch(uint32_t addr, uint64_t cycle, uint32_t* word, uint32_t* wait_cycles) {
    if (observer_ == nullptr && fetch_window_.contains(addr, 4)) {
      std::memcpy(word, fetch_window_.data + (addr - fetch_window_.base), 4);
      *wait_cycles = fetch_window_.read_wait;
      reached_device_ = false;
      return true;
    }
    return access(BusPort::kInstr, addr, 4, false, word, cycle, wait_cycles);
  }

  /// A granted data request in `cycle`; *rdata: a load's bytes in their lanes.
  bool data(const ObiRequest& req, uint64_t cycle, uint32_t* rdata, uint32_t* wait_cycles) {
    const unsigned offset = req.be ? __builtin_ctz(req.be) : 0;
    // Bits set in the 4-bit byte enable (__builtin_popcount is a library call without -mpopcnt).
    static constexpr uint8_t kEnabled[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    const unsigned bytes = req.be ? kEnabled[req.be & 0xF] : 4;
    const uint32_t addr = (req.addr & ~3u) + offset;
    uint32_t v = req.we ? req.wdata >> (8 * offset) : 0;
    if (!access(BusPort::kData, addr, bytes, req.we, &v, cycle, wait_cycles)) return false;
    *rdata = req.we ? 0 : v << (8 * offset);
    return true;
  }

  /// "bus error: load of 2 byte(s) at 0x70000008 (unmapped or refused), after the instruction
  /// at pc <last_pc>" for the access that failed.
  std::string fault(uint32_t last_pc) const {
    const char* what = fault_port_ == BusPort::kInstr ? "instruction fetch" : fault_write_ ? "store" : "load";
    return std::string("bus error: ") + what + " of " + std::to_string(fault_bytes_) +
           (fault_port_ == BusPort::kInstr ? " bytes" : " byte(s)") + " at " + hex(fault_addr_) +
           " (unmapped or refused), after the instruction at pc " + hex(last_pc);
  }

  /// Whether the last access went to the bus rather than to a direct window (a device may
  /// have acted on it).
  bool reached_device() const { return reached_device_; }
  void set_observer(BusObserver* observer) { observer_ = observer; }
  /// The window already known that serves `bytes` at `addr` on `port` without wait cycles (and
  /// writably for a write), or nullptr. Does not ask the bus.
  const DirectWindow* zero_wait_window(BusPort port, uint32_t addr, unsigned bytes,
                                       bool write) const {
    const DirectWindow& w = port == BusPort::kInstr ? fetch_window_ : data_window_;
    if (!w.contains(addr, bytes)) return nullptr;
    if (write ? (!w.writable || w.write_wait != 0) : w.read_wait != 0) return nullptr;
    return &w;
  }
  /// Forgets the direct windows (they are asked for again).
  void forget_windows() { fetch_window_ = data_window_ = DirectWindow{}; }

 private:
  bool access(BusPort port, uint32_t addr, unsigned bytes, bool write, uint32_t* data,
              uint64_t cycle, uint32_t* wait_cycles) {
    DirectWindow& w = port == BusPort::kInstr ? fetch_window_ : data_window_;
    if (!w.contains(addr, bytes)) {
      const DirectWindow found = bus_.direct_window(port, addr);
      if (found.contains(addr, bytes)) w = found;
    }
    reached_device_ = false;
    if (w.contains(addr, bytes) && (!write || w.writable)) {
      uint8_t* p = w.data + (addr - w.base);
      if (write) {
        std::memcpy(p, data, bytes);
        *wait_cycles = w.write_wait;
      } else {
        uint32_t v = 0;
        std::memcpy(&v, p, bytes);
        *data = v;
        *wait_cycles = w.read_wait;
      }
    } else {
      reached_device_ = true;
      const BusResult r = write ? bus_.write(port, addr, bytes, *data, cycle)
                                : bus_.read(port, addr, bytes, data, cycle);
      if (!r.ok) {
        fault_port_ = port;
        fault_addr_ = addr;
        fault_bytes_ = bytes;
        fault_write_ = write;
        if (observer_ != nullptr) {
          observer_->on_access(port, cycle, addr, bytes, write, write ? *data : 0,
                               BusObserver::kRefused);
        }
        return false;
      }
      *wait_cycles = r.wait_cycles;
    }
    if (observer_ != nullptr) {
      observer_->on_access(port, cycle, addr, bytes, write, *data, *wait_cycles);
    }
    return true;
  }

  CpuBus& bus_;
  BusObserver* observer_ = nullptr;
  bool reached_device_ = false;
  DirectWindow fetch_window_, data_window_;
  BusPort fault_port_ = BusPort::kInstr;
  uint32_t fault_addr_ = 0;
  unsigned fault_bytes_ = 0;
  bool fault_write_ = false;
};

}  // namespace socsim
