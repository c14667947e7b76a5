/* A long CPU-bound loop for speed benchmarks: ALU work, a multiply, a load and a store per
 * iteration, about 30 M cycles on the CV32E40P. Bare metal, no C library: starts at the
 * boot address 0x80 and ends with a store to the exit register (0x2000_0004). */
    .section .text
    .globl _start
    .org 0x80
_start:
    li      s0, 2500000         /* iterations */
    li      s1, 0x1000          /* scratch buffer */
    li      a0, 1
    li      a1, 0
loop:
    addi    a0, a0, 3
    xor     a1, a1, a0
    slli    a2, a0, 3
    mul     a3, a2, a0
    add     a1, a1, a3
    sw      a1, 0(s1)
    lw      a4, 4(s1)
    add     a1, a1, a4
    srli    a5, a1, 7
    or      a1, a1, a5
    addi    s0, s0, -1
    bnez    s0, loop
    li      t0, 0x20000004
    sw      zero, 0(t0)
1:  j       1b
