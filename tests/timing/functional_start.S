/* Start-up of the C functional test: stack, then main, then exit with its return value. */
  .option norvc
  .section .vectors, "ax"
  .rept 32
  j unexpected
  .endr

  .section .init, "ax"
  .globl _start
_start:
  la sp, _stack_top
  la t0, 0
  ori t0, t0, 1
  csrw mtvec, t0
  call main
  j exit_with

  .text
unexpected:
  csrr a0, mcause
  csrr a1, mepc
  j unexpected_trap
