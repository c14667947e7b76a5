/* The default exception handler: names the cause, prints mepc and mtval, ends the run. */
#include "hal/trap.h"

#include <stdio.h>

#include "hal/csr.h"
#include "hal/exit.h"

const char* socsim_exception_name(uint32_t mcause) {
  static const char* const kNames[] = {
      "instruction address misaligned",
      "instruction access fault",
      "illegal instruction",
      "breakpoint",
      "load address misaligned",
      "load access fault",
      "store address misaligned",
      "store access fault",
      "ecall from U-mode",
      "ecall from S-mode",
      "reserved",
      "ecall from M-mode",
  };
  mcause &= 0x7FFFFFFFu;
  return mcause < sizeof kNames / sizeof kNames[0] ? kNames[mcause] : "unknown exception";
}

__attribute__((weak)) void socsim_exception_handler(struct socsim_trap_frame* frame) {
  uint32_t mcause = SOCSIM_CSR_READ(mcause);
  uint32_t mtval = SOCSIM_CSR_READ(mtval);
  printf("TRAP: %s (mcause %lu) at mepc 0x%08lx, mtval 0x%08lx\n", socsim_exception_name(mcause),
         (unsigned long)mcause, (unsigned long)frame->x[0], (unsigned long)mtval);
  socsim_exit(SOCSIM_EXIT_TRAP_BASE + (int)(mcause & 0x1Fu));
}
