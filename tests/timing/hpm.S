/* Counters: mhpmcounter3 counts the events selected one-hot in mhpmevent3 (0 CYCLES,
   1 INSTR, 2 LD_STALL, 3 JMP_STALL, 5 LD, 6 ST, 7 JUMP, 8 BRANCH, 9 BRANCH_TAKEN,
   10 COMP_INSTR); minstret counts retired instructions; mcountinhibit stops counters.
   Events are counted one cycle late: a counter cleared by csrw and read by csrr sees exactly
   the instructions between. */
#include "tests/timing/timing.h"
  TEST_NAME("hpm.S")
  .option norvc

#define EVENT_START(ev) \
  li t0, 1 << (ev);     \
  csrw mhpmevent3, t0;  \
  csrw mhpmcounter3, zero

#define EVENT_CHECK(count)  \
  csrr t0, mhpmcounter3;    \
  CHECK_VALUE(t0, count)

  .data
  .balign 4
words:
  .word 1, 2, 3, 4
jump_targets:
  .word jt1

  .text
  .globl test_main
test_main:
  COUNTERS_ON
  la s2, words

  /* CYCLES: 10 nops and 3 cycles of the csrw/csrr pair */
  EVENT_START(0)
  .rept 10
  nop
  .endr
  EVENT_CHECK(13)

  /* INSTR */
  EVENT_START(1)
  .rept 10
  nop
  .endr
  EVENT_CHECK(10)

  /* LD_STALL: 3 load-use stalls */
  EVENT_START(2)
  lw t1, 0(s2)
  addi t1, t1, 1
  lw t1, 4(s2)
  lw t2, 0(t1)
  lw t1, 8(s2)
  nop
  addi t1, t1, 1
  lw t1, 12(s2)
  sw t1, 0(s2)
  EVENT_CHECK(3)
  li t1, 1
  sw t1, 0(s2)

  /* JMP_STALL: jalr after an ALU write (1 cycle), right after a load (2 cycles): a stall
     counts once, in its first cycle, so 2 */
  EVENT_START(3)
  la t2, 1f
  addi t1, t2, 0
  jalr zero, 0(t1)
1:
  la t1, jump_targets
  lw t1, 0(t1)
  jalr zero, 0(t1)
jt1:
  EVENT_CHECK(2)

  /* JMP_STALL: the stale-ID stall of a jalr whose rd is its rs1 counts too */
  la ra, jt2
  nop
  nop
  EVENT_START(3)
  jalr ra, 0(ra)
jt2:
  EVENT_CHECK(1)

  /* LD and ST */
  EVENT_START(5)
  lw t1, 0(s2)
  lw t1, 4(s2)
  sw t1, 8(s2)
  lb t1, 1(s2)
  lw t1, 1(s2)
  EVENT_CHECK(4)
  EVENT_START(6)
  lw t1, 8(s2)
  sw t1, 8(s2)
  sh t1, 8(s2)
  sb t1, 8(s2)
  EVENT_CHECK(3)
  li t1, 3
  sw t1, 8(s2)

  /* JUMP: 2 jal, 1 jalr */
  EVENT_START(7)
  jal zero, 1f
1:
  jal t1, 2f
2:
  jalr zero, 8(t1)
  nop
  EVENT_CHECK(3)

  /* BRANCH and BRANCH_TAKEN: 5 branches, 3 taken */
  li t1, 1
  EVENT_START(8)
  beq t1, zero, 1f
1:
  bne t1, zero, 2f
2:
  beq t1, t1, 3f
3:
  blt t1, zero, 4f
4:
  bge t1, zero, 5f
5:
  EVENT_CHECK(5)
  EVENT_START(9)
  beq t1, zero, 1f
1:
  bne t1, zero, 2f
2:
  beq t1, t1, 3f
3:
  blt t1, zero, 4f
4:
  bge t1, zero, 5f
5:
  EVENT_CHECK(3)

  /* COMP_INSTR: 4 compressed among 6 */
  EVENT_START(10)
  .option rvc
  c.nop
  c.li a4, 1
  .option norvc
  addi a4, a4, 1
  .option rvc
  c.addi a4, 1
  c.mv a5, a4
  .option norvc
  addi a4, a4, 1
  EVENT_CHECK(4)

  /* minstret: the first csrr is counted too */
  csrr s3, minstret
  .rept 7
  nop
  .endr
  csrr s4, minstret
  sub t0, s4, s3
  CHECK_VALUE(t0, 8)

  /* mcountinhibit: bit 3 stops mhpmcounter3, bit 0 mcycle, bit 2 minstret. The li and the
     csrw that sets the bits are still counted (the write takes effect at the end of its EX
     cycle, when the li's event and its own are already on their way). */
  EVENT_START(1)
  li t1, 0xd
  csrw mcountinhibit, t1
  csrr s3, mcycle
  csrr s4, minstret
  .rept 5
  nop
  .endr
  csrr t1, mcycle
  sub t1, t1, s3
  CHECK_VALUE(t1, 0)
  csrr t1, minstret
  sub t1, t1, s4
  CHECK_VALUE(t1, 0)
  EVENT_CHECK(2)
  csrw mcountinhibit, zero

  /* 64-bit counters: mcycle carries into mcycleh */
  li t1, -20
  csrw mcycle, t1
  csrw mcycleh, zero
  .rept 30
  nop
  .endr
  csrr t1, mcycleh
  CHECK_VALUE(t1, 1)

  /* unimplemented counters read 0 */
  csrr t1, mhpmcounter4
  CHECK_VALUE(t1, 0)
  csrr t1, mhpmevent4
  CHECK_VALUE(t1, 0)

  j pass
