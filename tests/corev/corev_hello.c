/* A minimal program for the core-v-verif testbench: prints a line and exits 0. */
#include <stdio.h>

static int constructed;

__attribute__((constructor)) static void construct(void) { constructed = 1; }

int main(void) {
  printf("Hello from a core-v-verif program (constructors %s)\n", constructed ? "ran" : "skipped");
  return constructed ? 0 : 1;
}
