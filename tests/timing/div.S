/* Divider: 3 + clz(divisor) cycles for divu/remu and for div/rem with a divisor >= 0;
   2 + (leading ones of the divisor) for div/rem with a negative divisor. The dividend never
   matters. Results per the RISC-V M extension (division by zero, overflow). */
#include "tests/timing/timing.h"
  TEST_NAME("div.S")
  .option norvc
  .text

#define DIV_CASE(op, dividend, divisor, cycles, result) \
  li a4, dividend;                                      \
  li a5, divisor;                                       \
  START;                                                \
  op t0, a4, a5;                                        \
  CHECK(cycles);                                        \
  CHECK_VALUE(t0, result)

  .globl test_main
test_main:
  COUNTERS_ON
  /* unsigned, the facts table's divisors */
  DIV_CASE(divu, 1000000, 0x80000000, 3, 0)
  DIV_CASE(divu, 1000000, 3, 33, 333333)
  DIV_CASE(divu, 1000000, 1, 34, 1000000)
  DIV_CASE(divu, 1000000, 0, 35, 0xffffffff)
  DIV_CASE(remu, 1000000, 3, 33, 1)
  DIV_CASE(remu, 1000000, 0, 35, 1000000)
  DIV_CASE(remu, 0xffffffff, 0x80000000, 3, 0x7fffffff)
  DIV_CASE(divu, 0xffffffff, 0x10000, 18, 0xffff)
  /* the dividend does not matter */
  DIV_CASE(divu, 0, 3, 33, 0)
  DIV_CASE(divu, 0xffffffff, 3, 33, 0x55555555)
  /* signed, divisor >= 0 */
  DIV_CASE(div, -7, 3, 33, -2)
  DIV_CASE(rem, -7, 3, 33, -1)
  DIV_CASE(div, 1000000, 1, 34, 1000000)
  DIV_CASE(div, -5, 0, 35, 0xffffffff)
  DIV_CASE(rem, -5, 0, 35, -5)
  DIV_CASE(div, 0x7fffffff, 0x40000000, 4, 1)
  /* signed, negative divisor: 2 + leading ones */
  DIV_CASE(div, 1000000, -1, 34, -1000000)
  DIV_CASE(div, 1000000, -3, 32, -333333)
  DIV_CASE(div, 0x80000000, 0x80000000, 3, 1)
  DIV_CASE(div, 0x80000000, -1, 34, 0x80000000)
  DIV_CASE(rem, 0x80000000, -1, 34, 0)
  DIV_CASE(rem, -7, -3, 32, -1)
  DIV_CASE(div, -7, -3, 32, 2)
  DIV_CASE(div, 12345, -2, 33, -6172)
  DIV_CASE(div, 12345, -4, 32, -3086)
  /* a negative divisor with divu is just a large unsigned one */
  DIV_CASE(divu, 1000000, -3, 3, 0)

  /* the quotient forwarded to the next instruction without a stall */
  li a4, 1000
  li a5, 3
  START
  div t0, a4, a5
  add t1, t0, t0
  CHECK(34)
  CHECK_VALUE(t1, 666)

  j pass
