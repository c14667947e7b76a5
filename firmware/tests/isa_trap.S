/* Exceptions with a vectored mtvec: ecall (mcause 11), ebreak and c.ebreak (3), illegal
 * instructions (2: a 32-bit and a 16-bit encoding, a read of the `time` CSR, which the CV32E40P
 * does not implement, and a write to a read-only CSR). Each enters at the table's base (entry
 * 0) with mepc = the trapping instruction and mtval = 0; the handler resumes after it. */
#include "isa_test.h"

/* The test's own vector table: entry 0 records the exception; interrupts must not happen. */
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
/* Records mcause (s8), mepc (s9), mtval (s10), counts traps (s11), resumes after the
 * trapping instruction (2 or 4 bytes, from its low bits). */
exception_handler:
    csrr    s8, mcause
    csrr    s9, mepc
    csrr    s10, mtval
    addi    s11, s11, 1
    lhu     t0, 0(s9)
    andi    t0, t0, 3
    addi    t1, s9, 2
    li      t2, 3
    bne     t0, t2, 1f
    addi    t1, s9, 4
1:  csrw    mepc, t1
    mret

unexpected_interrupt:
    FAIL    "an interrupt was taken"

/* Runs `instruction` at a label and checks the trap it causes. */
    .macro EXPECT_TRAP
    li      s11, 0
    li      s10, 0x5a5a5a5a
    la      s7, .Ltrap_at\@
.Ltrap_at\@:
    .endm
    .macro CHECK_TRAP cause, what
    CHECK_EQ s11, 1, "\what: one trap"
    CHECK_EQ s8, \cause, "\what: mcause"
    CHECK_REG s9, s7, "\what: mepc is the trapping instruction"
    CHECK_EQ s10, 0, "\what: mtval"
    .endm

    TEST_BEGIN isa_trap
    csrr    s6, mtvec
    la      t0, isa_vectors
    ori     t0, t0, 1
    csrw    mtvec, t0
    csrr    a0, mtvec
    CHECK_REG a0, t0, "mtvec holds the table and vectored mode"

    EXPECT_TRAP
    ecall
    CHECK_TRAP 11, "ecall"

    EXPECT_TRAP
    ebreak
    CHECK_TRAP 3, "ebreak"

    EXPECT_TRAP
    .option push
    .option rvc
    c.ebreak
    .option pop
    CHECK_TRAP 3, "c.ebreak"

    EXPECT_TRAP
    .4byte  0xffffffff
    CHECK_TRAP 2, "illegal 32-bit instruction"

    EXPECT_TRAP
    .2byte  0x0000
    CHECK_TRAP 2, "illegal 16-bit instruction (all zeros)"

    EXPECT_TRAP
    csrr    a0, time
    CHECK_TRAP 2, "read of the unimplemented time CSR"

    EXPECT_TRAP
    csrw    mvendorid, a0
    CHECK_TRAP 2, "write to the read-only mvendorid"

    /* Exceptions leave interrupts disabled in the handler and restore them afterwards. */
    csrr    a0, mstatus
    andi    a0, a0, 0x8
    CHECK_EQ a0, 0, "mstatus.MIE after the traps"

    csrw    mtvec, s6
    TEST_END
