/* ALU, lui/auipc, nop and dependent ALU chains: 1 cycle each, no stall (EX forwards to ID).
   Compressed instructions cost the same as their 32-bit equivalents. */
#include "tests/timing/timing.h"
  TEST_NAME("alu.S")
  .option norvc
  .text
  .globl test_main
test_main:
  COUNTERS_ON

  /* the measurement itself: back-to-back mcycle reads */
  ALIGN_CODE
  START
  CHECK(0)

  /* independent ALU operations */
  START
  add  t0, t1, t2
  sub  t3, t4, t5
  xor  t6, a4, a5
  or   a6, a7, s2
  and  s3, s4, s5
  sll  s6, s7, s8
  srl  s9, s10, a4
  sra  t0, t1, t2
  slt  t1, t2, t3
  sltu t2, t3, t4
  CHECK(10)

  /* a dependent chain: every result is used by the next instruction */
  START
  addi t0, zero, 3
  addi t0, t0, 1
  slli t0, t0, 2
  add  t0, t0, t0
  xori t0, t0, 5
  srai t0, t0, 1
  andi t0, t0, 0xff
  ori  t0, t0, 0x100
  CHECK(8)
  CHECK_VALUE(t0, 0x112)

  /* lui, auipc, nop */
  START
  lui   t0, 0x12345
  auipc t1, 0
  nop
  nop
  CHECK(4)

  /* compressed ALU instructions */
  START
  .option rvc
  c.li   a4, 5
  c.addi a4, 3
  c.mv   a5, a4
  c.add  a5, a4
  c.slli a5, 2
  c.nop
  .option norvc
  CHECK(6)
  CHECK_VALUE(a5, 64)

  j pass
