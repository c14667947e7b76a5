/* hello: prints a greeting, its arguments and the cycle count, and exits 0. */
#include <stdio.h>

#include "hal/socsim_hal.h"

int main(int argc, char** argv) {
  printf("Hello from socsim\n");
  printf("argc = %d\n", argc);
  for (int i = 0; i < argc; ++i) printf("argv[%d] = %s\n", i, argv[i]);
  uint64_t cycles = socsim_cycles();
  uint64_t instret = socsim_instret();
  printf("cycles = %llu, instructions = %llu\n", (unsigned long long)cycles,
         (unsigned long long)instret);
  return 0;
}
