/* Macros of the self-checking timing tests (assembly, preprocessed by the C preprocessor).

   START ... CHECK(n) measures the cycles of the instructions between them with mcycle and
   fails the test, printing file, line, expected and measured cycles, unless they are exactly
   n. The two mcycle reads are CSR "status" accesses of 4 cycles each; the 4 cycles of the
   first are subtracted (the second is read in its EX stage, before it costs anything).
   Clobbers s0, s1, a0-a3. Requires the counters on (COUNTERS_ON).

   CHECK_VALUE(reg, v) fails the test unless reg == v. Clobbers a0-a3. */
#pragma once

#define TEST_NAME(name)   \
  .pushsection .rodata;   \
  test_file:              \
  .asciz name;            \
  .popsection

#define COUNTERS_ON csrw mcountinhibit, zero

#define START csrr s0, mcycle

#define CHECK(expected)   \
  csrr s1, mcycle;        \
  sub a1, s1, s0;         \
  addi a1, a1, -4;        \
  li a0, (expected);      \
  beq a0, a1, 9f;         \
  li a2, __LINE__;        \
  la a3, test_file;       \
  j timing_fail;          \
  9:

#define CHECK_VALUE(reg, value) \
  mv a1, reg;                   \
  li a0, (value);               \
  beq a0, a1, 9f;               \
  li a2, __LINE__;              \
  la a3, test_file;             \
  j value_fail;                 \
  9:

/* Harness peripherals (see models/cpu/rtl/bare_harness.h) */
#define IRQ_MASK_ADDR      0x15000000
#define IRQ_COUNTDOWN_ADDR 0x15000004
#define CYCLE_COUNT_ADDR   0x15001004

/* Aligns code to a word. With `.option norvc`, gas cannot pad 2 bytes (no c.nop) and
   silently skips the alignment, so padding is emitted with RVC allowed. */
#define ALIGN_CODE  \
  .option push;     \
  .option rvc;      \
  .balign 4;        \
  .option pop
