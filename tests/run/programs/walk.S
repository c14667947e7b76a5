/* 1000 iterations of a load and a store, 128 bytes apart, from WALK_BASE, then exit 0.
 * Assembled twice: in DDR (0x8000_0000; every access timed by the DDR model, the core
 * stalls) and in on-chip SRAM (0x0010_0000; no wait states). */
    .section .text
    .globl _start
    .org 0x80
_start:
    li      t0, WALK_BASE
    li      t3, 1000
1:  lw      t1, 0(t0)
    sw      t1, 64(t0)
    addi    t0, t0, 128
    addi    t3, t3, -1
    bnez    t3, 1b
    li      t0, 0x20000004
    sw      zero, 0(t0)
2:  j       2b
