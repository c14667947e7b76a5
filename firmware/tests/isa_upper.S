/* Upper immediates: lui and auipc (PC-relative, compared with absolute addresses). */
#include "isa_test.h"

    TEST_BEGIN isa_upper
    lui     a0, 0x12345
    CHECK_EQ a0, 0x12345000, "lui"
    lui     a0, 0xfffff
    CHECK_EQ a0, 0xfffff000, "lui with the sign bit"
    lui     a0, 0
    CHECK_EQ a0, 0, "lui 0"

1:  auipc   a0, 0
    lui     a1, %hi(1b)
    addi    a1, a1, %lo(1b)
    CHECK_REG a0, a1, "auipc 0 gives its own address"
2:  auipc   a0, 1
    lui     a1, %hi(2b + 0x1000)
    addi    a1, a1, %lo(2b + 0x1000)
    CHECK_REG a0, a1, "auipc 1 adds 0x1000"
3:  auipc   a0, 0xfffff
    lui     a1, %hi(3b - 0x1000)
    addi    a1, a1, %lo(3b - 0x1000)
    CHECK_REG a0, a1, "auipc with a negative offset"
    TEST_END
