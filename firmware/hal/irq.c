/* Interrupt dispatch: mcause to the weak per-line hooks declared in hal/trap.h. */
#include <stdio.h>

#include "hal/exit.h"
#include "hal/trap.h"

enum { kIrqSoftware = 3, kIrqTimer = 7 };

static void unexpected_irq(uint32_t id) {
  printf("IRQ: unexpected interrupt %lu (no handler)\n", (unsigned long)id);
  socsim_exit(SOCSIM_EXIT_IRQ_BASE + (int)id);
}

__attribute__((weak)) void socsim_timer_irq_handler(void) { unexpected_irq(kIrqTimer); }
__attribute__((weak)) void socsim_software_irq_handler(void) { unexpected_irq(kIrqSoftware); }
__attribute__((weak)) void socsim_external_irq_handler(uint32_t id) { unexpected_irq(id); }

void __socsim_interrupt_dispatch(uint32_t mcause) {
  uint32_t id = mcause & 0x1Fu;
  if (id == kIrqTimer) {
    socsim_timer_irq_handler();
  } else if (id == kIrqSoftware) {
    socsim_software_irq_handler();
  } else {
    socsim_external_irq_handler(id);
  }
}
