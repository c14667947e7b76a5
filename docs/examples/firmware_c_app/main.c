// A C program on the socsim HAL: prints a line and a sum, and exits with 0.
#include <stdio.h>

#include "hal/socsim_hal.h"

int main(void) {
  unsigned sum = 0;
  for (unsigned i = 1; i <= 100; ++i) sum += i;
  printf("hello from C: sum %u\n", sum);
  return sum == 5050 ? 0 : 1;
}
