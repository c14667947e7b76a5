/* Sleeps in WFI with every interrupt disabled: nothing can wake the core (a lock-up). */
    .section .text
    .globl _start
    .org 0x80
_start:
    csrw    mie, zero
    wfi
1:  j       1b
