// What a CPU model's wrapper does while its core sleeps in WFI, for both CPU models (RtlCpu and
// IssCpu): they must see the SoC at the same moments to take the same cycles.
//
// A core that sleeps with nothing requested or outstanding is asleep when no line it would wake
// on is pending. The core wakes within a few cycles of a line enabled in mie (the CV32E40P
// wakes on irq_i & mie, whatever mstatus.MIE); a line it sleeps through for kWakeCycles counts
// as not enabled, and stays so while it sleeps (mie cannot change then). While asleep the
// wrapper skips to the cycle a scheduled line rises, or catches up with SystemC time and
// waits for a process to raise one, a quantum at a time; when no process has anything left to
// do, nothing can wake the core: a lock-up.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>

#include "models/common/clock.h"
#include "models/common/hex.h"
#include "models/common/irq.h"

namespace socsim {

class WfiSleep {
 public:
  WfiSleep(const ClockDomain& clock, IrqLines& irq, uint64_t quantum)
      : clock_(clock), irq_(irq), quantum_(quantum) {}

  /// A cycle in which the core sleeps with nothing requested or outstanding, with the lines
  /// `pending`: true if none of them wakes it.
  bool asleep(uint32_t pending) {
    if ((pending & ~masked_) == 0) {
      probe_ = 0;
    } else if (++probe_ >= kWakeCycles) {
      masked_ |= pending;
      probe_ = 0;
    }
    return (pending & ~masked_) == 0;
  }
  /// A cycle in which the core is awake: mie may change.
  void awake() {
    masked_ = 0;
    probe_ = 0;
  }

  /// Lets the sleeping core's cycles pass until a line may wake it (or to `max_cycles`, 0: no
  /// limit). `cycle` gives the core's cycle, `skip(n)` lets n cycles pass, `sync` catches up
  /// with SystemC time. False when nothing in the SoC can raise a line any more (a lock-up).
  bool wait_for_interrupt(uint64_t max_cycles, const std::function<uint64_t()>& cycle,
                          const std::function<void(uint64_t)>& skip,
                          const std::function<void()>& sync) {
    for (;;) {
      const uint64_t now = cycle();
      if ((irq_.pending(now) & ~masked_) != 0) return true;
      const uint64_t rise = irq_.next_rise();
      if (rise != IrqLines::kNever && rise > now) {
        // A line rises at a known cycle: skip to it (or to the cycle limit).
        skip((max_cycles && rise > max_cycles ? max_cycles : rise) - now);
        return true;
      }
      if (clock_.time_of(now) > sc_core::sc_time_stamp()) {
        // Catch up with SystemC time; a line raised meanwhile is seen at the top.
        sync();
        continue;
      }
      if (max_cycles && now >= max_cycles) return true;  // the caller reports the limit
      // Wait for a SystemC process to raise a line. When none has anything left to do,
      // nothing can ever wake the core.
      if (!sc_core::sc_pending_activity()) return false;
      const uint64_t until = max_cycles ? std::min(max_cycles, now + quantum_) : now + quantum_;
      sc_core::wait(clock_.time_of(until) - sc_core::sc_time_stamp(), irq_.changed);
      const uint64_t woke = clock_.cycle_at(sc_core::sc_time_stamp());
      if (woke > cycle()) skip(woke - cycle());
    }
  }

  /// The lock-up report; `last_pc`: the last record delivered, the one before the WFI (held
  /// until its successor).
  std::string lockup_message(uint32_t last_pc) const {
    std::string masked;
    if (masked_ != 0) masked = "; pending lines " + hex(masked_) + " are not enabled";
    return "lock-up: the core sleeps in WFI and nothing in the SoC can wake it (the instruction "
           "retired before it is at pc " + hex(last_pc) + masked + ")";
  }

 private:
  /// Cycles a pending line may take to wake the core before it counts as masked (the
  /// CV32E40P takes two: the registered irq_i, then the sleep unit).
  static constexpr unsigned kWakeCycles = 8;

  const ClockDomain& clock_;
  IrqLines& irq_;
  uint64_t quantum_;
  uint32_t masked_ = 0;
  unsigned probe_ = 0;
};

}  // namespace socsim
