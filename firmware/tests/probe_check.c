/* Known work for the probe tests (tests/probes/): a BSS buffer that crt0 zeroes, two calls of
 * a loop whose cycles are known exactly, one loop marked through the probe register, and a
 * small call tree for the function profile. */
#include <stdint.h>
#include <stdio.h>

#include "hal/socsim_hal.h"

void probe_loop(uint32_t n);
void probe_marked(uint32_t n, volatile uint32_t* probe_base);

/* 1 KiB of zeroed data (external, so the compiler keeps it): crt0's BSS loop zeroes it. */
uint32_t probe_check_zeroed[256];

/* noipa: no inlining, cloning or constant propagation, so the profile sees main -> middle ->
 * leaf as written. */
__attribute__((noipa)) static uint32_t leaf(uint32_t x) { return x * 3 + 1; }

__attribute__((noipa)) static uint32_t middle(uint32_t n) {
  uint32_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += leaf(i) + probe_check_zeroed[i & 255];
  return sum;
}

int main(void) {
  if (SOCSIM_PROBE_MAGIC() != 0x50524F42u) {
    puts("probe_check: FAIL: no probe register block");
    return 1;
  }
  probe_loop(100);
  probe_loop(10);
  probe_marked(50, (volatile uint32_t*)SOCSIM_PROBE_BASE);
  const uint32_t sum = middle(20);
  printf("probe_check: PASS (%lu)\n", (unsigned long)sum);
  return 0;
}
