/* The machine timer interrupt and WFI, with a vectored mtvec. The CLINT-style timer raises
 * irq 7 while mtime >= mtimecmp. Checks: mtime advances; WFI wakes on a pending enabled
 * interrupt even with mstatus.MIE = 0 (no trap, mip.MTIP set); setting MIE then takes it at
 * base + 4*7 with mcause 0x80000007; WFI with MIE = 1 sleeps until the interrupt, which is
 * taken with mepc = the instruction after the WFI. */
#include "isa_test.h"

    .section .text.isa_vectors, "ax"
    .option push
    .option norvc
    .option norelax
    .balign 256
isa_vectors:
    j       unexpected_exception
    .rept 6
    j       wrong_vector
    .endr
    j       timer_handler           /* entry 7: machine timer */
    .rept 24
    j       wrong_vector
    .endr
    .option pop

    .text
unexpected_exception:
    csrr    a1, mcause
    li      a2, 0
    la      a0, exception_message
    call    isa_fail
wrong_vector:
    csrr    a1, mcause
    li      a2, 0x80000007
    la      a0, wrong_vector_message
    call    isa_fail

/* Records mcause (s8), mepc (s9), counts (s11), and disarms the timer. s1 = mtimecmp. */
timer_handler:
    csrr    s8, mcause
    csrr    s9, mepc
    addi    s11, s11, 1
    li      t0, -1
    sw      t0, 4(s1)
    sw      t0, 0(s1)
    mret

/* Sets mtimecmp = mtime + ticks (s1 = mtimecmp, s2 = mtime; the high word never changes within
 * a test this short, except by the carry handled here). */
    .macro ARM_TIMER ticks
    li      t0, -1
    sw      t0, 4(s1)
    lw      t1, 0(s2)
    lw      t2, 4(s2)
    addi    t0, t1, \ticks
    bgeu    t0, t1, .Lno_carry\@
    addi    t2, t2, 1
.Lno_carry\@:
    sw      t0, 0(s1)
    sw      t2, 4(s1)
    .endm

    .section .rodata
exception_message:
    .asciz  "unexpected exception (mcause in got)"
wrong_vector_message:
    .asciz  "interrupt entered the wrong vector (mcause in got)"

    TEST_BEGIN isa_timer
    csrr    s6, mtvec
    la      t0, isa_vectors
    ori     t0, t0, 1
    csrw    mtvec, t0
    lw      s0, isa_timer_base
    li      t0, 0x4000
    add     s1, s0, t0              /* mtimecmp */
    li      t0, 0xbff8
    add     s2, s0, t0              /* mtime */
    li      t0, -1
    sw      t0, 4(s1)
    sw      t0, 0(s1)
    li      s11, 0

    lw      a0, 0(s2)
    li      a2, 1000
1:  addi    a2, a2, -1
    bnez    a2, 1b
    lw      a1, 0(s2)
    sub     a1, a1, a0
    CHECK_RANGE a1, 1, 0x7fffffff, "mtime advances"

    /* WFI with mstatus.MIE = 0 wakes once the interrupt is pending; nothing is taken. */
    csrci   mstatus, 0x8
    li      t0, 0x80
    csrs    mie, t0
    ARM_TIMER 50
2:  wfi
    csrr    a0, mip
    andi    a0, a0, 0x80
    beqz    a0, 2b
    CHECK_EQ s11, 0, "no interrupt taken while mstatus.MIE = 0"

    /* Enabling MIE takes the pending interrupt at once. */
    csrsi   mstatus, 0x8
    nop
    nop
    CHECK_EQ s11, 1, "pending timer interrupt taken when MIE is set"
    li      t0, 0x80000007
    CHECK_REG s8, t0, "timer interrupt mcause"
    csrr    a0, mip
    andi    a0, a0, 0x80
    CHECK_EQ a0, 0, "mip.MTIP clear after mtimecmp is raised"

    /* WFI with MIE = 1 sleeps until the interrupt; mepc is the instruction after the WFI. */
    ARM_TIMER 100
    la      s7, 4f
3:  wfi
4:  li      t0, 2
    blt     s11, t0, 3b
    CHECK_EQ s11, 2, "one interrupt per arming"
    CHECK_REG s9, s7, "mepc after WFI is the next instruction"

    csrci   mstatus, 0x8
    csrw    mie, zero
    csrw    mtvec, s6
    TEST_END
