/* debug_loop: a loop on one source line, for GDB's `next` over it (tests/debug/check_gdb.py
 * range: range stepping keeps the core in the stub while the pc stays on the line). */
#include <stdio.h>

volatile unsigned debug_sink;

int main(void) {
  unsigned i;
  for (i = 0; i < 20000; ++i) debug_sink += i;
  printf("debug_loop: sink %u\n", debug_sink);
  return debug_sink == 199990000u ? 0 : 1;
}
