/* Traps: ecall -> a 4-instruction handler at the trap base -> mret costs 18 cycles in total.
   Illegal instructions (mcause 2, mepc = the instruction, mtval 0), ebreak (3), ecall (11);
   exceptions go to the trap base also in vectored mode. */
#include "tests/timing/timing.h"
  TEST_NAME("trap.S")
  .option norvc

  .text
  .balign 256
ecall_handler:          /* exactly 4 instructions, at the trap base */
  csrr t0, mepc
  addi t0, t0, 4
  csrw mepc, t0
  mret

  .balign 256
record_handler:         /* records mcause, mepc, mtval; resumes after the instruction */
  csrr s4, mcause
  csrr s5, mepc
  csrr s6, mtval
  lhu  t0, 0(s5)
  andi t0, t0, 3
  li   t1, 3
  addi s5, s5, 2
  bne  t0, t1, 1f
  addi s5, s5, 2
1:
  csrw mepc, s5
  addi s7, s7, 1
  mret

  .globl test_main
test_main:
  COUNTERS_ON
  csrr s10, mtvec

  la t0, ecall_handler
  csrw mtvec, t0
  ALIGN_CODE
  START
  ecall
  CHECK(18)

  /* vectored mode: exceptions still go to the base */
  la t0, ecall_handler
  ori t0, t0, 1
  csrw mtvec, t0
  START
  ecall
  CHECK(18)

  la t0, record_handler
  ori t0, t0, 1
  csrw mtvec, t0
  li s7, 0

  /* a 32-bit illegal instruction */
illegal32:
  .word 0xffffffff
  CHECK_VALUE(s4, 2)
  la t0, illegal32
  sub t0, s5, t0
  CHECK_VALUE(t0, 4)
  CHECK_VALUE(s6, 0)

  /* the all-zero 16-bit instruction is illegal */
illegal16:
  .half 0x0000
  .half 0x0001          /* c.nop: keeps the code 32-bit aligned */
  CHECK_VALUE(s4, 2)

  /* the time CSR does not exist; writes to read-only CSRs are illegal */
  csrr t0, time
  CHECK_VALUE(s4, 2)
  csrw mvendorid, zero
  CHECK_VALUE(s4, 2)
  /* mret is legal, dret is not (no debug mode) */
  .word 0x7b200073
  CHECK_VALUE(s4, 2)
  /* the debug CSRs exist only in debug mode */
  li s4, 0
  csrr t0, dscratch0
  CHECK_VALUE(s4, 2)
  li s4, 0
  csrw dcsr, zero
  CHECK_VALUE(s4, 2)

  ebreak
  CHECK_VALUE(s4, 3)
  ecall
  CHECK_VALUE(s4, 11)
  CHECK_VALUE(s7, 9)

  /* mstatus: MIE -> MPIE on entry, MPIE -> MIE on mret; MPP stays machine mode */
  csrr t0, mstatus
  CHECK_VALUE(t0, 0x1880)

  csrw mtvec, s10
  j pass
