/* The machine timer (CLINT layout at SOCSIM_TIMER_BASE): mtime counts at SOCSIM_TIMER_HZ, and
 * the timer interrupt (irq 7, MTI) is pending while mtime >= mtimecmp.
 *
 * Typical use: socsim_timer_set_compare(socsim_timer_now() + ticks); socsim_timer_irq_enable();
 * socsim_irq_global_enable(); then WFI (socsim_wait_for_interrupt) until the handler
 * (socsim_timer_irq_handler, hal/trap.h) has run. */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** mtime: ticks of SOCSIM_TIMER_HZ since reset. */
uint64_t socsim_timer_now(void);
/** Sets mtimecmp (the interrupt is pending while mtime >= mtimecmp); never makes a transient
 *  smaller compare value visible. */
void socsim_timer_set_compare(uint64_t compare);
/** Sets mtimecmp to its maximum, so the timer interrupt is no longer pending. */
void socsim_timer_disarm(void);
/** Converts microseconds to timer ticks. */
uint64_t socsim_timer_ticks_from_us(uint64_t microseconds);

/** mie.MTIE: let the timer interrupt through (it is taken only while mstatus.MIE is set). */
void socsim_timer_irq_enable(void);
void socsim_timer_irq_disable(void);

/** mstatus.MIE: machine interrupts on or off. */
void socsim_irq_global_enable(void);
void socsim_irq_global_disable(void);

/** WFI: sleeps until an enabled interrupt is pending (mcycle stops meanwhile). */
static inline void socsim_wait_for_interrupt(void) { __asm__ volatile("wfi" ::: "memory"); }

#ifdef __cplusplus
}
#endif
