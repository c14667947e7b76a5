/* Reset state: mcountinhibit = 0xD (mcycle and minstret do not count until cleared),
   mstatus = 0x1800, mtvec = {mtvec_addr_i[31:8], 0, 01} (the harness ties mtvec_addr_i to 0;
   crt.S saved the reset value in s11), mie = 0, mcause = 0. */
#include "tests/timing/timing.h"
  TEST_NAME("reset.S")
  .option norvc
  .text
  .globl test_main
test_main:
  CHECK_VALUE(s11, 0x00000001)
  csrr t0, mcountinhibit
  CHECK_VALUE(t0, 0xd)
  csrr t0, mstatus
  CHECK_VALUE(t0, 0x1800)
  csrr t0, mie
  CHECK_VALUE(t0, 0)
  csrr t0, mcause
  CHECK_VALUE(t0, 0)
  csrr t0, mip
  CHECK_VALUE(t0, 0)

  /* inhibited: mcycle and minstret stand still at 0 */
  csrr s3, mcycle
  csrr s4, minstret
  nop
  nop
  csrr t0, mcycle
  CHECK_VALUE(t0, 0)
  CHECK_VALUE(s3, 0)
  csrr t0, minstret
  CHECK_VALUE(t0, 0)
  CHECK_VALUE(s4, 0)

  /* the one implemented mhpmcounter is inhibited too, and writable bits of mcountinhibit are
     0, 2 and 3 only */
  li t0, -1
  csrw mcountinhibit, t0
  csrr t0, mcountinhibit
  CHECK_VALUE(t0, 0xd)

  /* after clearing: mcycle counts every cycle */
  COUNTERS_ON
  csrr s3, mcycle
  nop
  csrr t0, mcycle
  sub t0, t0, s3
  CHECK_VALUE(t0, 5)

  j pass
