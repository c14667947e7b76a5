/* Loads and stores: lb, lh, lw, lbu, lhu, sb, sh, sw, sign and zero extension, negative
 * offsets, and misaligned words and halfwords (the CV32E40P splits them: they must not trap). */
#include "isa_test.h"

    .data
    .balign 4
buffer:
    .word   0x80ff7f01, 0x12345678, 0xa5a5a5a5, 0
scratch:
    .word   0, 0

    TEST_BEGIN isa_loadstore
    la      s0, buffer
    lb      a0, 0(s0)
    CHECK_EQ a0, 0x01, "lb positive"
    lb      a0, 1(s0)
    CHECK_EQ a0, 0x7f, "lb 0x7f"
    lb      a0, 2(s0)
    CHECK_EQ a0, 0xffffffff, "lb 0xff sign-extends"
    lb      a0, 3(s0)
    CHECK_EQ a0, 0xffffff80, "lb 0x80 sign-extends"
    lbu     a0, 3(s0)
    CHECK_EQ a0, 0x80, "lbu 0x80"
    lbu     a0, 2(s0)
    CHECK_EQ a0, 0xff, "lbu 0xff"
    lh      a0, 0(s0)
    CHECK_EQ a0, 0x7f01, "lh positive"
    lh      a0, 2(s0)
    CHECK_EQ a0, 0xffff80ff, "lh sign-extends"
    lhu     a0, 2(s0)
    CHECK_EQ a0, 0x80ff, "lhu"
    lw      a0, 0(s0)
    CHECK_EQ a0, 0x80ff7f01, "lw"
    lw      a0, 4(s0)
    CHECK_EQ a0, 0x12345678, "lw offset 4"
    addi    s1, s0, 8
    lw      a0, -4(s1)
    CHECK_EQ a0, 0x12345678, "lw negative offset"
    lbu     a0, -1(s1)
    CHECK_EQ a0, 0x12, "lbu negative offset"

    /* Misaligned loads. */
    lw      a0, 1(s0)
    CHECK_EQ a0, 0x7880ff7f, "lw at offset 1"
    lw      a0, 2(s0)
    CHECK_EQ a0, 0x567880ff, "lw at offset 2"
    lw      a0, 3(s0)
    CHECK_EQ a0, 0x34567880, "lw at offset 3"
    lh      a0, 1(s0)
    CHECK_EQ a0, 0xffffff7f, "lh at offset 1 (inside a word)"
    lhu     a0, 1(s0)
    CHECK_EQ a0, 0xff7f, "lhu at offset 1"
    lh      a0, 3(s0)
    CHECK_EQ a0, 0x7880, "lh crossing a word"
    lh      a0, 7(s0)
    CHECK_EQ a0, 0xffffa512, "lh crossing a word sign-extends"
    lhu     a0, 7(s0)
    CHECK_EQ a0, 0xa512, "lhu crossing a word"

    /* Aligned stores into buffer word 3 (initially 0). */
    li      a1, 0x11223344
    sb      a1, 12(s0)
    lw      a0, 12(s0)
    CHECK_EQ a0, 0x00000044, "sb byte 0"
    sb      a1, 13(s0)
    lw      a0, 12(s0)
    CHECK_EQ a0, 0x00004444, "sb byte 1"
    sh      a1, 14(s0)
    lw      a0, 12(s0)
    CHECK_EQ a0, 0x33444444, "sh upper half"
    sw      a1, 12(s0)
    lw      a0, 12(s0)
    CHECK_EQ a0, 0x11223344, "sw"

    /* Misaligned stores into scratch (two zero words). */
    la      s1, scratch
    sw      a1, 1(s1)
    lw      a0, 0(s1)
    CHECK_EQ a0, 0x22334400, "sw at offset 1, low word"
    lw      a0, 4(s1)
    CHECK_EQ a0, 0x00000011, "sw at offset 1, high word"
    sw      zero, 0(s1)
    sw      zero, 4(s1)
    sh      a1, 3(s1)
    lw      a0, 0(s1)
    CHECK_EQ a0, 0x44000000, "sh crossing a word, low word"
    lw      a0, 4(s1)
    CHECK_EQ a0, 0x00000033, "sh crossing a word, high word"
    sh      a1, 1(s1)
    lw      a0, 0(s1)
    CHECK_EQ a0, 0x44334400, "sh at offset 1"
    TEST_END
