/* A short ISA program whose commit log is known line by line (tests/debug/trace_isa.expected):
 * upper immediates, ALU, a multiply, compressed instructions, word/half/byte stores and
 * loads with sign extension, a taken branch, a call and return, an ecall trap, then exit 0. */
    .section .text
    .globl _start
    .option norvc
    .org 0x0
trap:
    csrr    t6, mepc
    addi    t6, t6, 4
    csrw    mepc, t6
    mret
    .org 0x80
_start:
    la      t0, trap
    csrw    mtvec, t0
    lui     a0, 0x100          /* SRAM at 0x0010_0000 */
    li      a1, -2
    addi    a2, a1, 7
    li      a3, 6
    mul     a4, a2, a3
    .option rvc
    c.li    a5, 9
    c.add   a5, a4
    .option norvc
    sw      a5, 0(a0)
    sh      a1, 4(a0)
    sb      a2, 6(a0)
    lw      s0, 0(a0)
    lh      s1, 4(a0)
    lbu     s2, 6(a0)
    lb      s3, 4(a0)
    bne     s0, zero, 1f
    li      s4, 1
1:  jal     ra, leaf
    ecall
    li      t0, 0x20000004
    sw      zero, 0(t0)
2:  j       2b
leaf:
    addi    s5, zero, 42
    ret
