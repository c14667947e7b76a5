/* Conditional branches: beq, bne, blt, bge, bltu, bgeu, taken and not taken, signed against
 * unsigned comparisons, forward and backward targets. */
#include "isa_test.h"

    TEST_BEGIN isa_branch
    li      a0, 5
    li      a1, 5
    li      a2, -1
    li      a3, 1

    EXPECT_TAKEN     beq, a0, a1, "beq equal"
    EXPECT_NOT_TAKEN beq, a0, a3, "beq different"
    EXPECT_TAKEN     bne, a0, a3, "bne different"
    EXPECT_NOT_TAKEN bne, a0, a1, "bne equal"

    EXPECT_TAKEN     blt, a2, a3, "blt -1 < 1"
    EXPECT_NOT_TAKEN blt, a3, a2, "blt 1 < -1"
    EXPECT_NOT_TAKEN blt, a0, a1, "blt equal"
    EXPECT_TAKEN     bge, a3, a2, "bge 1 >= -1"
    EXPECT_TAKEN     bge, a0, a1, "bge equal"
    EXPECT_NOT_TAKEN bge, a2, a3, "bge -1 >= 1"

    EXPECT_TAKEN     bltu, a3, a2, "bltu 1 < 0xffffffff"
    EXPECT_NOT_TAKEN bltu, a2, a3, "bltu 0xffffffff < 1"
    EXPECT_NOT_TAKEN bltu, a0, a1, "bltu equal"
    EXPECT_TAKEN     bgeu, a2, a3, "bgeu 0xffffffff >= 1"
    EXPECT_TAKEN     bgeu, a0, a1, "bgeu equal"
    EXPECT_NOT_TAKEN bgeu, a3, a2, "bgeu 1 >= 0xffffffff"

    EXPECT_TAKEN     beq, zero, zero, "beq x0 x0"

    /* A backward branch closing a loop: 10 iterations. */
    li      a4, 0
    li      a5, 10
1:  addi    a4, a4, 1
    bne     a4, a5, 1b
    CHECK_EQ a4, 10, "backward bne loop count"
    TEST_END
