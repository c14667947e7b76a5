  .section .text
  .globl _start
_start:
  la a0, value
  lw a1, 0(a0)
  la a2, buffer
  sw a1, 0(a2)
  li t0, 0x20000004
  sw zero, 0(t0)
1: j 1b
  .section .data
value: .word 0x12345678
  .section .bss
buffer: .space 64
