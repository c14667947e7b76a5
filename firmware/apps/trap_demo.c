/* trap_demo: executes an illegal instruction. The HAL's exception handler reports
 * "illegal instruction (mcause 2)" with mepc and mtval and ends the run with status 130. */
#include <stdio.h>

int main(void) {
  printf("trap_demo: executing an illegal instruction\n");
  __asm__ volatile(".4byte 0xFFFFFFFF");  // no RV32IMC instruction has this encoding
  printf("trap_demo: the illegal instruction did not trap\n");
  return 1;
}
