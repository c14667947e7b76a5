/* The C half of the example: prints through picolibc's printf and reads the cycle counter. */
#include <stdio.h>

#include "hal/socsim_hal.h"

void report_cycles(const char* what, unsigned long long cycles) {
  printf("model_info: %s took %llu cycles\n", what, cycles);
}

unsigned long long now_cycles(void) {
  return (unsigned long long)socsim_cycles();
}
