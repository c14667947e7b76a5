/* Shifts: sll, srl, sra (shift amount from the low 5 bits of rs2), slli, srli, srai. */
#include "isa_test.h"

    TEST_BEGIN isa_shift
    li      a0, 0x80000001
    li      a1, 1
    sll     a2, a0, a1
    CHECK_EQ a2, 0x00000002, "sll by 1"
    srl     a2, a0, a1
    CHECK_EQ a2, 0x40000000, "srl by 1"
    sra     a2, a0, a1
    CHECK_EQ a2, 0xc0000000, "sra by 1 keeps the sign"
    li      a1, 33
    sll     a2, a0, a1
    CHECK_EQ a2, 0x00000002, "sll uses only 5 bits of rs2"
    sra     a2, a0, a1
    CHECK_EQ a2, 0xc0000000, "sra uses only 5 bits of rs2"
    li      a1, 31
    sll     a2, a0, a1
    CHECK_EQ a2, 0x80000000, "sll by 31"
    srl     a2, a0, a1
    CHECK_EQ a2, 0x00000001, "srl by 31"
    sra     a2, a0, a1
    CHECK_EQ a2, 0xffffffff, "sra by 31"
    sll     a2, a0, zero
    CHECK_EQ a2, 0x80000001, "sll by 0"

    slli    a2, a0, 4
    CHECK_EQ a2, 0x00000010, "slli"
    srli    a2, a0, 4
    CHECK_EQ a2, 0x08000000, "srli"
    srai    a2, a0, 4
    CHECK_EQ a2, 0xf8000000, "srai negative"
    li      a3, 0x70000000
    srai    a2, a3, 4
    CHECK_EQ a2, 0x07000000, "srai positive"
    srai    a2, a0, 0
    CHECK_EQ a2, 0x80000001, "srai by 0"
    slli    a2, a0, 31
    CHECK_EQ a2, 0x80000000, "slli by 31"
    TEST_END
