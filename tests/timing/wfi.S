/* WFI and interrupts. wfi with an interrupt already pending (enabled in mie, mstatus.MIE
   clear) takes 6 cycles and does not sleep. While the core sleeps mcycle stands still.
   Interrupts are level-sensitive, vectored to base + 4 * id, mcause = 0x80000000 + id,
   mepc = the interrupted instruction; priority 31..16, then 11, 3, 7.
   The harness raises irq lines from a countdown (see models/cpu/rtl/bare_harness.h). */
#include "tests/timing/timing.h"
  TEST_NAME("wfi.S")
  .option norvc

  /* raise the irq lines in `mask` after `delay` cycles */
#define RAISE_IRQ(mask, delay) \
  li t0, IRQ_MASK_ADDR;        \
  li t1, mask;                 \
  sw t1, 0(t0);                \
  li t1, delay;                \
  sw t1, 4(t0)

#define LOWER_IRQ        \
  li t0, IRQ_MASK_ADDR;  \
  sw zero, 0(t0)

  .text
  .balign 256
vectors:                        /* vectored table: one entry per interrupt id */
  .rept 32
  j irq_handler
  .endr

irq_handler:
  csrr s4, mcause
  csrr s5, mepc
  addi s7, s7, 1
  li t0, IRQ_MASK_ADDR          /* lower all lines */
  sw zero, 0(t0)
  mret

  .globl test_main
test_main:
  COUNTERS_ON
  la t0, vectors
  ori t0, t0, 1
  csrw mtvec, t0
  li s7, 0

  /* wfi with a pending interrupt, mstatus.MIE clear: no sleep, 6 cycles */
  li t0, 1 << 16
  csrw mie, t0
  RAISE_IRQ(1 << 16, 1)
  nop
  nop
  nop
  START
  wfi
  CHECK(6)
  csrr t0, mip
  CHECK_VALUE(t0, 1 << 16)
  LOWER_IRQ

  /* wfi that sleeps for ~300 cycles: mcycle does not count them, the harness's cycle
     counter does */
  li s2, CYCLE_COUNT_ADDR
  RAISE_IRQ(1 << 16, 300)
  lw s3, 0(s2)
  START
  wfi
  CHECK(6)
  lw t0, 0(s2)
  sub t0, t0, s3
  sltiu t0, t0, 300
  CHECK_VALUE(t0, 0)
  LOWER_IRQ
  CHECK_VALUE(s7, 0)

  /* interrupt entry: vectored, mcause, mepc = the interrupted instruction */
  li t0, 0xffff0888
  csrw mie, t0
  csrsi mstatus, 8
  RAISE_IRQ(1 << 17, 20)
  la s8, spin
spin:
  beq s7, zero, spin
  CHECK_VALUE(s4, 0x80000011)
  sub t0, s5, s8
  CHECK_VALUE(t0, 0)
  csrr t0, mstatus
  CHECK_VALUE(t0, 0x1888)

  /* priority: fast interrupts (highest id first), then 11, 3, 7 */
  li s7, 0
  RAISE_IRQ((1 << 16) | (1 << 20) | (1 << 11) | (1 << 3) | (1 << 7), 5)
1:
  beq s7, zero, 1b
  CHECK_VALUE(s4, 0x80000014)
  li s7, 0
  RAISE_IRQ((1 << 11) | (1 << 3) | (1 << 7), 5)
1:
  beq s7, zero, 1b
  CHECK_VALUE(s4, 0x8000000b)
  li s7, 0
  RAISE_IRQ((1 << 3) | (1 << 7), 5)
1:
  beq s7, zero, 1b
  CHECK_VALUE(s4, 0x80000003)

  /* masked in mie: not taken */
  li s7, 0
  li t0, 1 << 16
  csrw mie, t0
  RAISE_IRQ(1 << 18, 2)
  .rept 20
  nop
  .endr
  CHECK_VALUE(s7, 0)
  csrr t0, mip
  CHECK_VALUE(t0, 1 << 18)
  LOWER_IRQ

  /* wfi sleeping with mstatus.MIE set: wakes up and takes the interrupt, mepc = after wfi */
  li s7, 0
  RAISE_IRQ(1 << 16, 50)
  wfi
after_wfi:
  CHECK_VALUE(s7, 1)
  la t0, after_wfi
  sub t0, s5, t0
  CHECK_VALUE(t0, 0)

  csrci mstatus, 8
  j pass
