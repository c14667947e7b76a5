/* Ending a run through the SoC's exit device; picolibc's _exit lands here too. */
#include "hal/exit.h"

#include <stdint.h>
#include <stdio.h>

#include "socsim_memmap.h"

void socsim_exit(int status) {
  volatile uint32_t* exit_regs = (volatile uint32_t*)SOCSIM_EXIT_BASE;
  exit_regs[1] = (uint32_t)status;
  for (;;) __asm__ volatile("wfi");
}

void socsim_abort(const char* message) {
  printf("ABORT: %s\n", message);
  socsim_exit(SOCSIM_EXIT_ABORT);
}

void _exit(int status) { socsim_exit(status); }
