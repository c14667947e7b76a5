/* fence and fence.i (decoded alike): 4 cycles; 5 if the next instruction is a 32-bit one at
   a halfword address (it is fetched again). */
#include "tests/timing/timing.h"
  TEST_NAME("fence.S")
  .option norvc
  .text
  .globl test_main
test_main:
  COUNTERS_ON

  ALIGN_CODE
  START
  fence
  CHECK(4)

  START
  fence.i
  CHECK(4)

  START
  fence rw, rw
  fence.i
  CHECK(8)

  /* c.nop puts fence.i, and so the instruction after it, at a halfword address: 1 + 5 */
  ALIGN_CODE
  START
  .option rvc
  c.nop
  .option norvc
  fence.i
  CHECK(6)

  /* fence.i makes stores to code visible: patch an instruction and run it */
  la t0, patched
  li t1, 0x02a00513   /* addi a0, zero, 42 */
  sw t1, 0(t0)
  fence.i
patched:
  addi a0, zero, 1
  CHECK_VALUE(a0, 42)

  j pass
