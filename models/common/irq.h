// The core's interrupt inputs (irq_i[31:0]) as seen by a temporally decoupled CPU model.
//
// A CPU model runs ahead of SystemC time, so a plain signal would be seen late. Sources
// therefore describe their line either as a level set now (`set_level`, from a SystemC
// process: the CPU sees it at its next synchronisation) or as a level that will rise at a
// known core cycle (`schedule_rise`, e.g. a timer compare): the CPU then sees it at exactly
// that cycle, however far ahead it runs. The CPU polls `pending(cycle)`, which stays cheap.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <systemc>

namespace socsim {

class IrqLines {
 public:
  static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  IrqLines() { rise_at_.fill(kNever); }

  /// Level of all 32 lines at core cycle `cycle`.
  uint32_t pending(uint64_t cycle) const {
    if (cycle < next_rise_) return levels_;
    return levels_ | scheduled_at(cycle);
  }
  /// Level of all 32 lines at core cycle `cycle`, and in *stable_until the last cycle through
  /// which they keep it (the cycle before the next scheduled rise; kNever if none) unless a
  /// source changes them.
  uint32_t pending(uint64_t cycle, uint64_t* stable_until) const {
    uint64_t next = kNever;
    uint32_t mask = 0;
    if (next_rise_ != kNever) {
      for (unsigned i = 0; i < 32; ++i) {
        if (rise_at_[i] <= cycle) {
          mask |= 1u << i;
        } else if (rise_at_[i] < next) {
          next = rise_at_[i];
        }
      }
    }
    *stable_until = next == kNever ? kNever : next - 1;
    return levels_ | mask;
  }
  /// The earliest cycle at which a scheduled line rises (kNever if none).
  uint64_t next_rise() const { return next_rise_; }

  void set_level(unsigned line, bool level) {
    const uint32_t bit = 1u << line;
    levels_ = level ? (levels_ | bit) : (levels_ & ~bit);
    if (!level) cancel(line);
    changed.notify(sc_core::SC_ZERO_TIME);
  }
  /// The line goes high at `cycle` and stays high until cleared with set_level(line, false).
  void schedule_rise(unsigned line, uint64_t cycle) {
    levels_ &= ~(1u << line);
    rise_at_[line] = cycle;
    recompute();
    changed.notify(sc_core::SC_ZERO_TIME);
  }
  void cancel(unsigned line) {
    rise_at_[line] = kNever;
    recompute();
  }

  /// Notified whenever a line changes; a sleeping CPU waits on it.
  sc_core::sc_event changed;

 private:
  uint32_t scheduled_at(uint64_t cycle) const {
    uint32_t mask = 0;
    for (unsigned i = 0; i < 32; ++i) {
      if (rise_at_[i] <= cycle) mask |= 1u << i;
    }
    return mask;
  }
  void recompute() {
    next_rise_ = kNever;
    for (uint64_t c : rise_at_) next_rise_ = c < next_rise_ ? c : next_rise_;
  }

  uint32_t levels_ = 0;
  uint64_t next_rise_ = kNever;
  std::array<uint64_t, 32> rise_at_;
};

}  // namespace socsim
