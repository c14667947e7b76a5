/* unmapped_demo: stores to an address no device answers (0x7000_0000). The simulator stops the
 * run there with status 3 and names the address; nothing after the store matters. */
#include <stdint.h>
#include <stdio.h>

int main(void) {
  printf("unmapped_demo: storing to 0x70000000\n");
  *(volatile uint32_t*)0x70000000u = 0xDEADBEEFu;
  printf("unmapped_demo: the store did not stop the run\n");
  return 1;
}
