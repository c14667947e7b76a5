/* The reference loops measured on the genuine core: a word-store loop `sw; addi; bltu` costs
   5 cycles per word, 4 stores per iteration 2 cycles per word (the last, not-taken branch
   saves 2 cycles). Also with compressed stores and adds. */
#include "tests/timing/timing.h"
  TEST_NAME("loops.S")
  .option norvc

  .bss
  .balign 4
buffer:
  .space 256

  .text
  .globl test_main
test_main:
  COUNTERS_ON

  /* 64 words, one store per iteration: 64 * 5 - 2 */
  la a4, buffer
  addi a3, a4, 256
  ALIGN_CODE
  START
1:
  sw   zero, 0(a4)
  addi a4, a4, 4
  bltu a4, a3, 1b
  CHECK(318)

  /* 64 words, 4 stores per iteration: 16 * 8 - 2 */
  la a4, buffer
  addi a3, a4, 256
  ALIGN_CODE
  START
2:
  sw   zero, 0(a4)
  sw   zero, 4(a4)
  sw   zero, 8(a4)
  sw   zero, 12(a4)
  addi a4, a4, 16
  bltu a4, a3, 2b
  CHECK(126)

  /* compressed store and add (the loop gcc -O2 emits for rv32imc) */
  la a4, buffer
  addi a3, a4, 256
  li a5, 0x5a
  ALIGN_CODE
  START
3:
  .option rvc
  c.sw   a5, 0(a4)
  c.addi a4, 4
  .option norvc
  bltu a4, a3, 3b
  CHECK(318)
  la a4, buffer
  lw t0, 252(a4)
  CHECK_VALUE(t0, 0x5a)

  j pass
