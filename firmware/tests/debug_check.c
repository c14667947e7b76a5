/* debug_check: a small program for the debugger tests (tests/debug/): a counter in memory that
 * a loop changes, a function that is called, a known result. Exits 0 when the sum is right. */
#include <stdio.h>

volatile int debug_counter;
int debug_result;

__attribute__((noinline)) int debug_add(int total, int value) {
  debug_counter = debug_counter + value;
  return total + value;
}

int main(void) {
  int total = 0;
  debug_counter = 5;
  for (int i = 1; i <= 4; ++i) total = debug_add(total, i);
  debug_result = total;
  printf("debug_check: total %d, counter %d\n", total, debug_counter);
  return total == 10 && debug_counter == 15 ? 0 : 1;
}
