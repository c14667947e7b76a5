/* The RV32C instructions (every opcode except the F/D loads and stores): c.addi4spn, c.lw,
 * c.sw, c.nop, c.addi, c.jal, c.li, c.addi16sp, c.lui, c.srli, c.srai, c.andi, c.sub, c.xor,
 * c.or, c.and, c.j, c.beqz, c.bnez, c.slli, c.lwsp, c.jr, c.mv, c.jalr, c.add, c.swsp.
 * c.ebreak is in isa_trap (it traps). */
#include "isa_test.h"

    .data
    .balign 4
words:
    .word   0x11111111, 0x22222222, 0, 0

    TEST_BEGIN isa_compressed
    .option rvc
    c.li    a0, -5
    CHECK_EQ a0, 0xfffffffb, "c.li negative"
    c.li    a0, 31
    CHECK_EQ a0, 31, "c.li 31"
    c.addi  a0, -32
    CHECK_EQ a0, 0xffffffff, "c.addi -32"
    c.nop
    c.lui   a1, 0x1f
    CHECK_EQ a1, 0x0001f000, "c.lui"
    c.lui   a1, 0xfffff
    CHECK_EQ a1, 0xfffff000, "c.lui negative"

    mv      s2, sp
    c.addi16sp sp, -32
    sub     a2, s2, sp
    CHECK_EQ a2, 32, "c.addi16sp -32"
    c.addi4spn s0, sp, 8
    addi    a3, sp, 8
    CHECK_REG s0, a3, "c.addi4spn"
    li      a4, 0x5a5a1234
    c.swsp  a4, 4(sp)
    lw      a5, 4(sp)
    CHECK_REG a5, a4, "c.swsp"
    c.lwsp  a2, 4(sp)
    CHECK_REG a2, a4, "c.lwsp"
    c.addi16sp sp, 32
    CHECK_REG sp, s2, "c.addi16sp 32"

    la      s1, words
    c.lw    a3, 4(s1)
    CHECK_EQ a3, 0x22222222, "c.lw"
    c.sw    a3, 8(s1)
    lw      a4, 8(s1)
    CHECK_EQ a4, 0x22222222, "c.sw"

    li      s0, 0x80000010
    c.srli  s0, 4
    CHECK_EQ s0, 0x08000001, "c.srli"
    li      s0, 0x80000010
    c.srai  s0, 4
    CHECK_EQ s0, 0xf8000001, "c.srai"
    li      s0, 0xff
    c.andi  s0, -16
    CHECK_EQ s0, 0xf0, "c.andi"
    li      s0, 0x0000ffff
    c.slli  s0, 16
    CHECK_EQ s0, 0xffff0000, "c.slli"

    li      a4, 0x0ff0
    li      a5, 0x00ff
    mv      a3, a4
    c.sub   a3, a5
    CHECK_EQ a3, 0x0ef1, "c.sub"
    mv      a3, a4
    c.xor   a3, a5
    CHECK_EQ a3, 0x0f0f, "c.xor"
    mv      a3, a4
    c.or    a3, a5
    CHECK_EQ a3, 0x0fff, "c.or"
    mv      a3, a4
    c.and   a3, a5
    CHECK_EQ a3, 0x00f0, "c.and"
    c.mv    a2, a4
    CHECK_EQ a2, 0x0ff0, "c.mv"
    c.add   a2, a5
    CHECK_EQ a2, 0x10ef, "c.add"

    c.j     1f
    FAIL    "c.j did not jump"
1:  li      s0, 0
    c.beqz  s0, 2f
    FAIL    "c.beqz zero not taken"
2:  c.bnez  s0, 3f
    j       4f
3:  FAIL    "c.bnez zero taken"
4:  li      s0, 1
    c.bnez  s0, 5f
    FAIL    "c.bnez nonzero not taken"
5:  c.beqz  s0, 6f
    j       7f
6:  FAIL    "c.beqz nonzero taken"

7:  c.jal   8f
9:  j       10f
8:  la      a2, 9b
    CHECK_REG ra, a2, "c.jal links pc + 2"
    c.jr    ra
    FAIL    "c.jr did not jump"
10: la      a3, 11f
    c.jalr  a3
12: j       13f
11: la      a2, 12b
    CHECK_REG ra, a2, "c.jalr links pc + 2"
    c.jr    ra
13: .option norvc
    TEST_END
