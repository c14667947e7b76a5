/* Never ends: for the cycle limit. */
    .section .text
    .globl _start
    .org 0x80
_start:
1:  addi    a0, a0, 1
    j       1b
