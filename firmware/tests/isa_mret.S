/* mstatus around traps and mret: the trap copies MIE to MPIE and clears MIE (MPP stays 11);
 * mret copies MPIE back to MIE, sets MPIE, and jumps to mepc (whose bit 0 reads 0). mie is 0
 * throughout, so setting MIE lets no interrupt in. */
#include "isa_test.h"

    .section .text.isa_vectors, "ax"
    .option push
    .option norvc
    .option norelax
    .balign 256
isa_vectors:
    j       exception_handler
    .rept 31
    j       unexpected_interrupt
    .endr
    .option pop

    .text
/* Records mstatus at entry (s8) and resumes after the 4-byte ecall. */
exception_handler:
    csrr    s8, mstatus
    csrr    t0, mepc
    addi    t0, t0, 4
    csrw    mepc, t0
    mret

unexpected_interrupt:
    FAIL    "an interrupt was taken"

#define MSTATUS_BITS 0x1888  /* MPP, MPIE, MIE */

    TEST_BEGIN isa_mret
    csrr    s6, mtvec
    la      t0, isa_vectors
    ori     t0, t0, 1
    csrw    mtvec, t0
    csrw    mie, zero
    li      s5, MSTATUS_BITS

    csrr    a0, mstatus
    and     a0, a0, s5
    CHECK_EQ a0, 0x1800, "mstatus after reset: MPP = 11, MPIE = MIE = 0"

    csrsi   mstatus, 0x8
    ecall
    and     a0, s8, s5
    CHECK_EQ a0, 0x1880, "trap with MIE = 1: MIE -> MPIE, MIE cleared"
    csrr    a0, mstatus
    and     a0, a0, s5
    CHECK_EQ a0, 0x1888, "mret restores MIE = 1, MPIE = 1"

    csrci   mstatus, 0x8
    ecall
    and     a0, s8, s5
    CHECK_EQ a0, 0x1800, "trap with MIE = 0: MPIE = 0, MIE = 0"
    csrr    a0, mstatus
    and     a0, a0, s5
    CHECK_EQ a0, 0x1880, "mret with MPIE = 0: MIE = 0, MPIE = 1"

    /* mret without a trap: MIE = 0, MPIE = 1 -> MIE = 1. MPP is written as 11 (machine mode),
     * as firmware must on cores that have other modes; on the CV32E40P it is fixed there. */
    li      t0, 0x1880
    csrs    mstatus, t0
    la      t0, 1f
    csrw    mepc, t0
    mret
    FAIL    "mret did not jump to mepc"
1:  csrr    a0, mstatus
    and     a0, a0, s5
    CHECK_EQ a0, 0x1888, "mret sets MIE from MPIE"

    /* MPIE = 0, MIE = 1 -> MIE = 0. */
    li      t0, 0x1800
    csrs    mstatus, t0
    li      t0, 0x80
    csrc    mstatus, t0
    la      t0, 2f
    csrw    mepc, t0
    mret
    FAIL    "mret did not jump to mepc"
2:  csrr    a0, mstatus
    and     a0, a0, s5
    CHECK_EQ a0, 0x1880, "mret clears MIE from MPIE = 0"

    li      a0, 0x12345679
    csrw    mepc, a0
    csrr    a1, mepc
    CHECK_EQ a1, 0x12345678, "mepc bit 0 reads 0"

    csrci   mstatus, 0x8
    csrw    mtvec, s6
    TEST_END
