/* Conditional branches (decided in EX): not taken 1 cycle, taken 3, taken to a 32-bit
   instruction at a halfword address 4. No stall when an operand comes from the previous ALU
   instruction. */
#include "tests/timing/timing.h"
  TEST_NAME("branches.S")
  .option norvc
  .text

#define TAKEN(op, a, b) \
  ALIGN_CODE;         \
  START;              \
  op a, b, 1f;        \
  nop;                \
  1:;                 \
  CHECK(3)

#define NOT_TAKEN(op, a, b) \
  START;                \
  op a, b, 1f;          \
  1:;                   \
  CHECK(1)

  .globl test_main
test_main:
  COUNTERS_ON
  li t0, 1
  li t1, 2
  li t2, -1

  TAKEN(beq, t0, t0)
  TAKEN(bne, t0, t1)
  TAKEN(blt, t2, t0)
  TAKEN(bge, t0, t2)
  TAKEN(bltu, t0, t2)
  TAKEN(bgeu, t2, t0)
  NOT_TAKEN(beq, t0, t1)
  NOT_TAKEN(bne, t0, t0)
  NOT_TAKEN(blt, t0, t2)
  NOT_TAKEN(bge, t2, t0)
  NOT_TAKEN(bltu, t2, t0)
  NOT_TAKEN(bgeu, t0, t2)

  /* taken to a 32-bit instruction at a halfword address */
  ALIGN_CODE
  START
  bne t0, t1, 2f
  .option rvc
  c.nop
2:
  .option norvc
  CHECK(4)

  /* taken to a compressed instruction at a halfword address */
  ALIGN_CODE
  START
  bne t0, t1, 3f
  .option rvc
  c.nop
3:
  c.nop
  .option norvc
  CHECK(4)

  /* operand from the previous ALU instruction: 1 + 3, and 1 + 1 */
  ALIGN_CODE
  START
  addi a4, t0, 1
  bne  a4, t0, 4f
  nop
4:
  CHECK(4)
  START
  addi a4, t0, 0
  bne  a4, t0, 5f
5:
  CHECK(2)

  /* compressed branches */
  li a4, 0
  ALIGN_CODE
  START
  .option rvc
  c.beqz a4, 6f
  c.nop
6:
  c.nop
  .option norvc
  CHECK(4)

  j pass
