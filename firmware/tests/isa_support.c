/* Reporting for the ISA self-tests (isa_test.h), and SoC addresses for them (the generated
 * header's constants carry C suffixes, which the assembler does not accept). */
#include <stdint.h>
#include <stdio.h>

#include "hal/exit.h"
#include "socsim_memmap.h"

extern const char isa_test_name[];

const uint32_t isa_timer_base = SOCSIM_TIMER_BASE;

void isa_fail(const char* what, uint32_t got, uint32_t expected) {
  printf("%s: FAIL: %s (got 0x%08lx, expected 0x%08lx)\n", isa_test_name, what,
         (unsigned long)got, (unsigned long)expected);
  socsim_exit(1);
}

int isa_pass(void) {
  printf("%s: PASS\n", isa_test_name);
  return 0;
}
