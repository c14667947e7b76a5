/* Jumps: jal (link = next instruction), jalr with offsets, jalr clearing bit 0 of the target,
 * jalr with rd == rs1, and jal/jalr linking to x0. */
#include "isa_test.h"

    TEST_BEGIN isa_jump
    jal     a0, 1f
2:  FAIL    "jal did not jump"
1:  la      a1, 2b
    CHECK_REG a0, a1, "jal links the next instruction"

    la      a2, 3f
    jalr    a3, 0(a2)
4:  FAIL    "jalr did not jump"
3:  la      a1, 4b
    CHECK_REG a3, a1, "jalr links the next instruction"

    la      a2, 5f - 8
    jalr    a3, 8(a2)
    FAIL    "jalr with offset did not jump"
5:
    la      a2, 6f - 4
    jalr    a3, 4(a2)
    FAIL    "jalr with offset 4 did not jump"
6:
    la      a2, 7f + 1
    jalr    a3, 0(a2)
    FAIL    "jalr with an odd target did not jump"
7:
    la      a2, 8f
    jalr    a2, 0(a2)
9:  FAIL    "jalr with rd == rs1 did not jump"
8:  la      a1, 9b
    CHECK_REG a2, a1, "jalr with rd == rs1 links"

    jal     zero, 10f
    FAIL    "jal x0 did not jump"
10: la      a2, 11f
    jalr    zero, 0(a2)
    FAIL    "jalr x0 did not jump"
11: CHECK_EQ zero, 0, "x0 after linking to it"
    TEST_END
