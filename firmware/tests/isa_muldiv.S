/* M extension: mul, mulh, mulhsu, mulhu, div, divu, rem, remu, with the corner cases: division
 * by zero and INT_MIN / -1. */
#include "isa_test.h"

    TEST_BEGIN isa_muldiv
    li      a0, 7
    li      a1, -3
    mul     a2, a0, a1
    CHECK_EQ a2, 0xffffffeb, "mul 7 * -3"
    mulh    a2, a0, a1
    CHECK_EQ a2, 0xffffffff, "mulh 7 * -3"
    mulhu   a2, a0, a1
    CHECK_EQ a2, 6, "mulhu 7 * 0xfffffffd"
    mulhsu  a2, a1, a0
    CHECK_EQ a2, 0xffffffff, "mulhsu -3 * 7"
    mulhsu  a2, a0, a1
    CHECK_EQ a2, 6, "mulhsu 7 * 0xfffffffd"

    li      a3, 0x80000000
    mul     a2, a3, a3
    CHECK_EQ a2, 0, "mul 0x80000000 squared"
    mulh    a2, a3, a3
    CHECK_EQ a2, 0x40000000, "mulh INT_MIN squared"
    mulhu   a2, a3, a3
    CHECK_EQ a2, 0x40000000, "mulhu 0x80000000 squared"
    mulhsu  a2, a3, a3
    CHECK_EQ a2, 0xc0000000, "mulhsu INT_MIN * 0x80000000"
    li      a4, -1
    mulhu   a2, a4, a4
    CHECK_EQ a2, 0xfffffffe, "mulhu 0xffffffff squared"
    mulh    a2, a4, a4
    CHECK_EQ a2, 0, "mulh -1 * -1"
    li      a5, 0x12345678
    li      s0, 0x9abcdef0
    mul     a2, a5, s0
    CHECK_EQ a2, 0x242d2080, "mul low word"
    mulhu   a2, a5, s0
    CHECK_EQ a2, 0x0b00ea4e, "mulhu large"

    li      a0, 20
    li      a1, -3
    div     a2, a0, a1
    CHECK_EQ a2, 0xfffffffa, "div 20 / -3 truncates"
    rem     a2, a0, a1
    CHECK_EQ a2, 2, "rem 20 % -3"
    li      a0, -20
    li      a1, 3
    div     a2, a0, a1
    CHECK_EQ a2, 0xfffffffa, "div -20 / 3"
    rem     a2, a0, a1
    CHECK_EQ a2, 0xfffffffe, "rem -20 % 3 takes the dividend's sign"
    li      a0, 20
    divu    a2, a0, a1
    CHECK_EQ a2, 6, "divu 20 / 3"
    remu    a2, a0, a1
    CHECK_EQ a2, 2, "remu 20 % 3"
    li      a0, 0xfffffffe
    divu    a2, a0, a1
    CHECK_EQ a2, 0x55555554, "divu 0xfffffffe / 3"
    remu    a2, a0, a1
    CHECK_EQ a2, 2, "remu 0xfffffffe % 3"

    li      a0, 1234
    div     a2, a0, zero
    CHECK_EQ a2, 0xffffffff, "div by zero gives -1"
    divu    a2, a0, zero
    CHECK_EQ a2, 0xffffffff, "divu by zero gives 0xffffffff"
    rem     a2, a0, zero
    CHECK_EQ a2, 1234, "rem by zero gives the dividend"
    remu    a2, a0, zero
    CHECK_EQ a2, 1234, "remu by zero gives the dividend"
    li      a0, -1234
    rem     a2, a0, zero
    CHECK_EQ a2, 0xfffffb2e, "rem of a negative dividend by zero"

    li      a0, 0x80000000
    li      a1, -1
    div     a2, a0, a1
    CHECK_EQ a2, 0x80000000, "div INT_MIN / -1 overflows to INT_MIN"
    rem     a2, a0, a1
    CHECK_EQ a2, 0, "rem INT_MIN % -1 is 0"
    divu    a2, a0, a1
    CHECK_EQ a2, 0, "divu 0x80000000 / 0xffffffff"
    remu    a2, a0, a1
    CHECK_EQ a2, 0x80000000, "remu 0x80000000 % 0xffffffff"
    TEST_END
