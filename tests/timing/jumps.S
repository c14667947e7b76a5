/* Jumps (taken in ID): jal 2 cycles, 3 if the target is a 32-bit instruction at a halfword
   address. jalr 2; +1 if rs1 is written by the previous ALU instruction; +2 right after a load
   that writes rs1; +1 with one instruction between; +1 if rd is rs1 (not in the facts
   sheet: measured on the CV32E40P RTL). */
#include "tests/timing/timing.h"
  TEST_NAME("jumps.S")
  .option norvc

  .data
  .balign 4
targets:
  .word jalr_after_load, jalr_one_between

  .text
  .globl test_main
test_main:
  COUNTERS_ON
  la s2, targets

  ALIGN_CODE
  START
  jal zero, 1f
1:
  CHECK(2)

  START
  jal ra, 2f
2:
  CHECK(2)
  la t0, 2b
  sub t0, ra, t0
  CHECK_VALUE(t0, 0)

  /* target: a 32-bit instruction at a halfword address */
  ALIGN_CODE
  START
  jal zero, 3f
  .option rvc
  c.nop
3:
  .option norvc
  CHECK(3)

  /* target: a compressed instruction at a halfword address */
  ALIGN_CODE
  START
  jal zero, 4f
  .option rvc
  c.nop
4:
  c.nop
  .option norvc
  CHECK(3)

  /* jalr, rs1 ready */
  ALIGN_CODE
  la t0, 5f
  START
  jalr zero, 0(t0)
5:
  CHECK(2)

  /* c.jr */
  ALIGN_CODE
  la a4, 6f
  START
  .option rvc
  c.jr a4
  .option norvc
  ALIGN_CODE
6:
  CHECK(2)

  /* jalr right after the ALU instruction that writes rs1: 1 + (2 + 1) */
  ALIGN_CODE
  la t1, 7f
  START
  addi t0, t1, 0
  jalr zero, 0(t0)
7:
  CHECK(4)

  /* jalr right after a load that writes rs1: 1 + (2 + 2) */
  ALIGN_CODE
  START
  lw   t0, 0(s2)
  jalr zero, 0(t0)
jalr_after_load:
  CHECK(5)

  /* one instruction between the load and jalr: 1 + 1 + (2 + 1) */
  ALIGN_CODE
  START
  lw   t0, 4(s2)
  nop
  jalr zero, 0(t0)
jalr_one_between:
  CHECK(5)

  /* two instructions between: no stall */
  ALIGN_CODE
  la t1, 8f
  START
  addi t0, t1, 0
  nop
  jalr zero, 0(t0)
8:
  CHECK(4)

  /* jalr whose rd is its rs1 (a call through auipc/jalr): 3. The stale copy of the jalr left
     in ID stalls on its own link write in EX and holds the target out of ID for a cycle. */
  ALIGN_CODE
  la ra, 9f
  START
  jalr ra, 0(ra)
9:
  CHECK(3)

  /* the same with rd != rs1: 2 */
  ALIGN_CODE
  la t0, 10f
  START
  jalr ra, 0(t0)
10:
  CHECK(2)

  j pass
