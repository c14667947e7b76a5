/* Traps: the exception handler and the interrupt hooks behind the vector table.
 *
 * Exceptions (vector 0) save all registers in a socsim_trap_frame and call
 * socsim_exception_handler; its default prints the cause by name, mepc and mtval and ends the
 * run with SOCSIM_EXIT_TRAP_BASE + mcause. Interrupts (vector n for irq n) call the hook for
 * their line: socsim_timer_irq_handler for the machine timer (7), socsim_external_irq_handler
 * for the fast external lines 16..31 and the machine external interrupt (11),
 * socsim_software_irq_handler for 3. Every hook is weak: define a function of the same name to
 * handle it. The defaults report an unexpected interrupt and end the run with
 * SOCSIM_EXIT_IRQ_BASE + id. Handlers run with interrupts disabled (no nesting). */
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Registers at the time of an exception. x[0] holds mepc (x0 itself is always 0); an
 *  exception handler that returns resumes at x[0], with the other registers restored. */
struct socsim_trap_frame {
  uint32_t x[32];
};

/** Name of an exception cause (mcause without the interrupt bit), e.g. "illegal instruction". */
const char* socsim_exception_name(uint32_t mcause);

void socsim_exception_handler(struct socsim_trap_frame* frame);
void socsim_timer_irq_handler(void);
void socsim_software_irq_handler(void);
void socsim_external_irq_handler(uint32_t id);

#ifdef __cplusplus
}
#endif
