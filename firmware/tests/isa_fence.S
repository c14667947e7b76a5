/* fence and fence.i: both execute; after a store rewrites an instruction, fence.i makes the
 * new instruction the one that runs. */
#include "isa_test.h"

/* A two-instruction function, rewritten below (code lives in RAM): addi a0, zero, 1; ret. */
    .section .text.isa_patch, "ax"
    .balign 4
    .option push
    .option norvc
patchable:
    addi    a0, zero, 1
    ret
    .option pop

    TEST_BEGIN isa_fence
    fence
    fence   rw, rw
    fence   iorw, iorw
    fence.i

    call    patchable
    CHECK_EQ a0, 1, "the original instruction runs"
    li      a1, 0x00200513      /* addi a0, zero, 2 */
    la      a2, patchable
    sw      a1, 0(a2)
    fence.i
    call    patchable
    CHECK_EQ a0, 2, "after fence.i the rewritten instruction runs"
    TEST_END
