#include "models/peripherals/clint_timer.h"

namespace socsim {

namespace {
constexpr uint64_t kMsip = 0x0, kMtimecmp = 0x4000, kMtime = 0xBFF8;
}

ClintTimer::ClintTimer(sc_core::sc_module_name name, const ClockDomain& clock, IrqLines& irq,
                       uint64_t timer_hz, unsigned timer_irq, unsigned software_irq)
    : RegisterDevice(name, clock),
      irq_(irq),
      cpu_hz_(static_cast<uint64_t>(clock.mhz() * 1e6 + 0.5)),
      timer_hz_(timer_hz),
      timer_irq_(timer_irq),
      software_irq_(software_irq) {}

uint64_t ClintTimer::mtime(uint64_t cycle) const {
  const unsigned __int128 ticks = static_cast<unsigned __int128>(cycle) * timer_hz_ / cpu_hz_;
  return static_cast<uint64_t>(ticks) + static_cast<uint64_t>(mtime_offset_);
}

void ClintTimer::reschedule(uint64_t cycle) {
  if (mtimecmp_ == ~0ull) {
    irq_.set_level(timer_irq_, false);
    return;
  }
  if (mtime(cycle) >= mtimecmp_) {
    irq_.schedule_rise(timer_irq_, cycle);
    return;
  }
  // First cycle c with floor(c * timer_hz / cpu_hz) + offset >= mtimecmp.
  const unsigned __int128 target = mtimecmp_ - static_cast<uint64_t>(mtime_offset_);
  const unsigned __int128 c = (target * cpu_hz_ + timer_hz_ - 1) / timer_hz_;
  irq_.schedule_rise(timer_irq_, static_cast<uint64_t>(c));
}

bool ClintTimer::read_reg(uint64_t offset, unsigned, uint64_t cycle, uint32_t* value) {
  switch (offset) {
    case kMsip: *value = msip_; return true;
    case kMtimecmp: *value = static_cast<uint32_t>(mtimecmp_); return true;
    case kMtimecmp + 4: *value = static_cast<uint32_t>(mtimecmp_ >> 32); return true;
    case kMtime: *value = static_cast<uint32_t>(mtime(cycle)); return true;
    case kMtime + 4: *value = static_cast<uint32_t>(mtime(cycle) >> 32); return true;
    default: *value = 0; return true;
  }
}

bool ClintTimer::write_reg(uint64_t offset, unsigned, uint32_t value, uint64_t cycle) {
  switch (offset) {
    case kMsip:
      msip_ = value & 1;
      irq_.set_level(software_irq_, msip_ != 0);
      return true;
    case kMtimecmp:
      mtimecmp_ = (mtimecmp_ & ~0xFFFFFFFFull) | value;
      reschedule(cycle);
      return true;
    case kMtimecmp + 4:
      mtimecmp_ = (mtimecmp_ & 0xFFFFFFFFull) | (static_cast<uint64_t>(value) << 32);
      reschedule(cycle);
      return true;
    case kMtime:
    case kMtime + 4: {
      const uint64_t now = mtime(cycle);
      const uint64_t wanted = offset == kMtime ? ((now & ~0xFFFFFFFFull) | value)
                                               : ((now & 0xFFFFFFFFull) | (uint64_t(value) << 32));
      mtime_offset_ += static_cast<int64_t>(wanted - now);
      reschedule(cycle);
      return true;
    }
    default:
      return true;
  }
}

}  // namespace socsim
