/* Start-up of the timing tests: vector table at 0 (vectored mode: exceptions at 0, interrupt
   n at 4*n), _start at the boot address 0x80. The reset value of mtvec is kept in s11 for the
   reset test. The counters stay inhibited (their reset state) until a test turns them on.
   test_main ends by jumping to pass (exit 0) or to timing_fail / value_fail. */
  .option norvc

  .section .vectors, "ax"
  .globl vector_table
vector_table:
  j exception_entry
  .rept 31
  j irq_entry
  .endr

  .section .init, "ax"
  .globl _start
_start:
  csrr s11, mtvec
  la sp, _stack_top
  la t0, vector_table
  ori t0, t0, 1
  csrw mtvec, t0
  j test_main

  .text
  .globl pass
pass:
  li a0, 0
  j exit_with

/* Default handlers: any trap that a test does not expect ends it with a message. */
  .weak exception_entry
exception_entry:
  .weak irq_entry
irq_entry:
  csrr a0, mcause
  csrr a1, mepc
  j unexpected_trap
