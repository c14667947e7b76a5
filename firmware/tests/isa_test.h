/* Assembler macros shared by the ISA self-tests (isa_*.S).
 *
 * A test is `main`: TEST_BEGIN <name> ... TEST_END. Checks compare a register with an expected
 * value and, on a mismatch, call isa_fail(what, got, expected), which prints
 * "<name>: FAIL: <what> (got ..., expected ...)" and ends the run with status 1. TEST_END prints
 * "<name>: PASS" and returns 0 from main. Tests may use every register except sp, gp, tp and
 * t6 (the macros' scratch); base-ISA tests are assembled without compressed instructions.
 */
#pragma once

    .macro TEST_BEGIN name
    .section .rodata.isa_test_name, "a"
    .globl isa_test_name
isa_test_name:
    .asciz "\name"
    .text
    .option norvc
    .globl main
    .type main, @function
main:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    .endm

    .macro TEST_END
    lw      ra, 12(sp)
    addi    sp, sp, 16
    tail    isa_pass
    .endm

/* Fails with `what` when reg != expected (an immediate). */
    .macro CHECK_EQ reg, expected, what
    li      t6, \expected
    beq     \reg, t6, .Lcheck_ok\@
    mv      a1, \reg
    mv      a2, t6
    FAIL_WITH_VALUES "\what"
.Lcheck_ok\@:
    .endm

/* Fails with `what` when reg != other (a register). */
    .macro CHECK_REG reg, other, what
    beq     \reg, \other, .Lcheck_ok\@
    mv      t6, \other
    mv      a1, \reg
    mv      a2, t6
    FAIL_WITH_VALUES "\what"
.Lcheck_ok\@:
    .endm

/* Fails with `what` unless lo <= reg <= hi (unsigned, immediates). */
    .macro CHECK_RANGE reg, lo, hi, what
    li      t6, \lo
    bltu    \reg, t6, .Lcheck_bad\@
    li      t6, \hi
    bgeu    t6, \reg, .Lcheck_ok\@
.Lcheck_bad\@:
    mv      a1, \reg
    li      a2, \lo
    FAIL_WITH_VALUES "\what"
.Lcheck_ok\@:
    .endm

/* Fails with `what` unconditionally (for paths that must not be reached). */
    .macro FAIL what
    li      a1, 0
    li      a2, 0
    FAIL_WITH_VALUES "\what"
    .endm

/* Calls isa_fail(what, a1, a2); never returns. */
    .macro FAIL_WITH_VALUES what
    .pushsection .rodata.isa_messages, "a"
.Lfail_message\@:
    .asciz "\what"
    .popsection
    la      a0, .Lfail_message\@
    call    isa_fail
    .endm

/* Taken / not-taken checks for a conditional branch. */
    .macro EXPECT_TAKEN op, a, b, what
    \op     \a, \b, .Ltaken\@
    FAIL    "\what"
.Ltaken\@:
    .endm

    .macro EXPECT_NOT_TAKEN op, a, b, what
    \op     \a, \b, .Ltaken\@
    j       .Lnot_taken\@
.Ltaken\@:
    FAIL    "\what"
.Lnot_taken\@:
    .endm
