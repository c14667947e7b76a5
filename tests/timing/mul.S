/* Multiplier: mul 1 cycle, its result used by the next instruction without a stall;
   mulh, mulhsu, mulhu 5 cycles whatever the operands. */
#include "tests/timing/timing.h"
  TEST_NAME("mul.S")
  .option norvc
  .text
  .globl test_main
test_main:
  COUNTERS_ON
  li a4, 7
  li a5, -3
  li a6, 0x80000000

  START
  mul t0, a4, a5
  CHECK(1)
  CHECK_VALUE(t0, -21)

  /* dependent chain of multiplications */
  START
  mul t0, a4, a5
  mul t1, t0, a4
  mul t2, t1, t1
  mul t3, t2, a5
  CHECK(4)
  CHECK_VALUE(t3, -64827)

  START
  mulh t0, a4, a5
  CHECK(5)
  CHECK_VALUE(t0, -1)

  START
  mulhsu t0, a5, a4
  CHECK(5)
  CHECK_VALUE(t0, -1)

  START
  mulhu t0, a5, a5
  CHECK(5)
  CHECK_VALUE(t0, 0xfffffffa)

  START
  mulh t0, a6, a6
  CHECK(5)
  CHECK_VALUE(t0, 0x40000000)

  START
  mulhu t0, zero, zero
  CHECK(5)

  /* mulh's result forwarded to the next instruction */
  START
  mulh t0, a6, a6
  add  t1, t0, t0
  CHECK(6)
  CHECK_VALUE(t1, 0x80000000)

  /* compressed operands do not matter; back-to-back mulh */
  START
  mulh t0, a4, a5
  mulhu t1, a4, a5
  CHECK(10)
  CHECK_VALUE(t1, 6)

  j pass
