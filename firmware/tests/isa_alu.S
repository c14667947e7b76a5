/* ALU register-register and register-immediate instructions: add, sub, and, or, xor, slt, sltu,
 * addi, andi, ori, xori, slti, sltiu, and writes to x0. */
#include "isa_test.h"

    TEST_BEGIN isa_alu
    li      a0, 0x7fffffff
    li      a1, 1
    add     a2, a0, a1
    CHECK_EQ a2, 0x80000000, "add wraps on overflow"
    sub     a2, a1, a0
    CHECK_EQ a2, 0x80000002, "sub"
    sub     a2, zero, a1
    CHECK_EQ a2, 0xffffffff, "sub from zero"

    li      a3, 0xf0f0f0f0
    li      a4, 0x0ff00ff0
    and     a2, a3, a4
    CHECK_EQ a2, 0x00f000f0, "and"
    or      a2, a3, a4
    CHECK_EQ a2, 0xfff0fff0, "or"
    xor     a2, a3, a4
    CHECK_EQ a2, 0xff00ff00, "xor"

    li      a0, -1
    slt     a2, a0, a1
    CHECK_EQ a2, 1, "slt -1 < 1"
    sltu    a2, a0, a1
    CHECK_EQ a2, 0, "sltu 0xffffffff < 1"
    slt     a2, a1, a0
    CHECK_EQ a2, 0, "slt 1 < -1"
    sltu    a2, a1, a0
    CHECK_EQ a2, 1, "sltu 1 < 0xffffffff"
    slt     a2, a1, a1
    CHECK_EQ a2, 0, "slt equal"

    addi    a2, a1, -2
    CHECK_EQ a2, 0xffffffff, "addi negative"
    addi    a2, zero, 2047
    CHECK_EQ a2, 2047, "addi largest immediate"
    addi    a2, zero, -2048
    CHECK_EQ a2, 0xfffff800, "addi smallest immediate"
    andi    a2, a3, -16
    CHECK_EQ a2, 0xf0f0f0f0, "andi sign-extends its immediate"
    andi    a2, a3, 0x0ff
    CHECK_EQ a2, 0xf0, "andi"
    ori     a2, a4, -1
    CHECK_EQ a2, 0xffffffff, "ori"
    ori     a2, zero, 0x7ff
    CHECK_EQ a2, 0x7ff, "ori positive"
    xori    a2, a3, -1
    CHECK_EQ a2, 0x0f0f0f0f, "xori -1 (not)"
    slti    a2, a0, 0
    CHECK_EQ a2, 1, "slti -1 < 0"
    slti    a2, a1, -1
    CHECK_EQ a2, 0, "slti 1 < -1"
    sltiu   a2, a1, -1
    CHECK_EQ a2, 1, "sltiu 1 < 0xffffffff"
    sltiu   a2, zero, 1
    CHECK_EQ a2, 1, "sltiu 0 < 1 (seqz)"
    sltiu   a2, a0, 1
    CHECK_EQ a2, 0, "sltiu 0xffffffff < 1"

    add     zero, a1, a1
    CHECK_EQ zero, 0, "x0 ignores writes"
    addi    x0, x0, 5
    CHECK_EQ x0, 0, "x0 ignores addi"
    TEST_END
