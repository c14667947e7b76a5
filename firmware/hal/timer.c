/* The CLINT-style machine timer and the interrupt-enable bits it needs. */
#include "hal/timer.h"

#include "hal/csr.h"
#include "socsim_memmap.h"

enum {
  kMtimecmpLo = 0x4000 / 4,
  kMtimecmpHi = 0x4004 / 4,
  kMtimeLo = 0xBFF8 / 4,
  kMtimeHi = 0xBFFC / 4,
};

static volatile uint32_t* timer_regs(void) { return (volatile uint32_t*)SOCSIM_TIMER_BASE; }

uint64_t socsim_timer_now(void) {
  volatile uint32_t* regs = timer_regs();
  uint32_t hi, lo;
  do {
    hi = regs[kMtimeHi];
    lo = regs[kMtimeLo];
  } while (hi != regs[kMtimeHi]);
  return ((uint64_t)hi << 32) | lo;
}

void socsim_timer_set_compare(uint64_t compare) {
  volatile uint32_t* regs = timer_regs();
  regs[kMtimecmpHi] = 0xFFFFFFFFu;  // no smaller transient value while the halves change
  regs[kMtimecmpLo] = (uint32_t)compare;
  regs[kMtimecmpHi] = (uint32_t)(compare >> 32);
}

void socsim_timer_disarm(void) {
  volatile uint32_t* regs = timer_regs();
  regs[kMtimecmpHi] = 0xFFFFFFFFu;
  regs[kMtimecmpLo] = 0xFFFFFFFFu;
}

uint64_t socsim_timer_ticks_from_us(uint64_t microseconds) {
  return microseconds * SOCSIM_TIMER_HZ / 1000000u;
}

void socsim_timer_irq_enable(void) { SOCSIM_CSR_SET(mie, SOCSIM_MIE_MTIE); }
void socsim_timer_irq_disable(void) { SOCSIM_CSR_CLEAR(mie, SOCSIM_MIE_MTIE); }
void socsim_irq_global_enable(void) { SOCSIM_CSR_SET(mstatus, SOCSIM_MSTATUS_MIE); }
void socsim_irq_global_disable(void) { SOCSIM_CSR_CLEAR(mstatus, SOCSIM_MSTATUS_MIE); }
