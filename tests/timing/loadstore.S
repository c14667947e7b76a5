/* Loads and stores: aligned accesses 1 cycle; load-use +1 (next instruction reads the loaded
   register as an operand, address base, store data or branch operand; none with one
   instruction between); misaligned word, or halfword crossing a word: 2 cycles (2 bus
   transactions), halfword at offset 1: 1. */
#include "tests/timing/timing.h"
  TEST_NAME("loadstore.S")
  .option norvc

  .data
  .balign 4
data:
  .word 0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c
pointer:
  .word data
scratch:
  .word 0, 0, 0, 0

  .text
  .globl test_main
test_main:
  COUNTERS_ON
  la s2, data
  la s3, scratch

  /* aligned loads and stores of every size */
  START
  lw  t0, 0(s2)
  lh  t1, 4(s2)
  lb  t2, 8(s2)
  lhu t3, 2(s2)
  lbu t4, 3(s2)
  sw  t0, 0(s3)
  sh  t1, 4(s3)
  sb  t2, 8(s3)
  CHECK(8)

  /* load-use: operand */
  START
  lw   t0, 0(s2)
  addi t1, t0, 1
  CHECK(3)
  CHECK_VALUE(t1, 0x03020101)

  /* load-use: address base */
  START
  lw t0, 16(s2)
  lw t1, 4(t0)
  CHECK(3)
  CHECK_VALUE(t1, 0x07060504)

  /* load-use: store data */
  START
  lw t0, 8(s2)
  sw t0, 0(s3)
  CHECK(3)
  lw t1, 0(s3)
  CHECK_VALUE(t1, 0x0b0a0908)

  /* load-use: branch operand (not taken) */
  START
  lw  t0, 0(s2)
  beq t0, zero, 1f
1:
  CHECK(3)

  /* load-use: multiplier operand */
  START
  lw  t0, 4(s2)
  mul t1, t0, t0
  CHECK(3)

  /* one instruction between: no stall */
  START
  lw   t0, 0(s2)
  nop
  addi t1, t0, 1
  CHECK(3)

  /* a load followed by an independent instruction: no stall */
  START
  lw   t0, 0(s2)
  addi t1, t2, 1
  CHECK(2)

  /* misaligned loads */
  START
  lw t0, 1(s2)
  CHECK(2)
  CHECK_VALUE(t0, 0x04030201)
  START
  lw t0, 2(s2)
  CHECK(2)
  CHECK_VALUE(t0, 0x05040302)
  START
  lw t0, 3(s2)
  CHECK(2)
  CHECK_VALUE(t0, 0x06050403)
  START
  lh t0, 3(s2)
  CHECK(2)
  CHECK_VALUE(t0, 0x0403)
  START
  lhu t0, 7(s2)
  CHECK(2)
  CHECK_VALUE(t0, 0x0807)
  START
  lh t0, 1(s2)
  CHECK(1)
  CHECK_VALUE(t0, 0x0201)
  START
  lh t0, 2(s2)
  CHECK(1)
  CHECK_VALUE(t0, 0x0302)

  /* misaligned stores */
  li t1, 0xaabbccdd
  sw zero, 0(s3)
  sw zero, 4(s3)
  START
  sw t1, 3(s3)
  CHECK(2)
  lw t0, 0(s3)
  CHECK_VALUE(t0, 0xdd000000)
  lw t0, 4(s3)
  CHECK_VALUE(t0, 0x00aabbcc)
  START
  sh t1, 7(s3)
  CHECK(2)
  lw t0, 4(s3)
  CHECK_VALUE(t0, 0xdd000000 | 0x00aabbcc)
  lw t0, 8(s3)
  CHECK_VALUE(t0, 0x000000cc)
  START
  sh t1, 1(s3)
  CHECK(1)
  lw t0, 0(s3)
  CHECK_VALUE(t0, 0xddccdd00)

  /* sign extension */
  li t1, 0x8081
  sh t1, 0(s3)
  lh t0, 0(s3)
  CHECK_VALUE(t0, 0xffff8081)
  lb t0, 1(s3)
  CHECK_VALUE(t0, 0xffffff80)
  lbu t0, 1(s3)
  CHECK_VALUE(t0, 0x80)

  j pass
