// A clock domain: converts between SystemC time and cycles of one clock.
#pragma once

#include <cstdint>
#include <systemc>

namespace socsim {

class ClockDomain {
 public:
  explicit ClockDomain(double mhz)
      : mhz_(mhz), period_ps_(static_cast<uint64_t>(1e6 / mhz + 0.5)) {}

  double mhz() const { return mhz_; }
  uint64_t period_ps() const { return period_ps_; }
  sc_core::sc_time period() const { return sc_core::sc_time(double(period_ps_), sc_core::SC_PS); }
  sc_core::sc_time time_of(uint64_t cycle) const {
    return sc_core::sc_time(double(cycle * period_ps_), sc_core::SC_PS);
  }
  /// The cycle in progress at time t (rounded down).
  uint64_t cycle_at(const sc_core::sc_time& t) const {
    return t.value() / (period_ps_ * units_per_ps());
  }
  /// Whole cycles needed to cover a duration (rounded up).
  uint64_t cycles_for(const sc_core::sc_time& d) const {
    const uint64_t unit = period_ps_ * units_per_ps();
    return (d.value() + unit - 1) / unit;
  }

 private:
  // sc_time::value() counts in the kernel resolution (socsim keeps the default, 1 ps).
  static uint64_t units_per_ps() {
    static const uint64_t v = static_cast<uint64_t>(
        sc_core::sc_time(1, sc_core::SC_PS).value());
    return v;
  }
  double mhz_;
  uint64_t period_ps_;
};

}  // namespace socsim
