/* CSRs: csrrw/csrrs/csrrc and their immediate forms on mscratch, the identification CSRs of
 * the CV32E40P (misa, mvendorid, marchid, mimpid, mhartid), mcountinhibit (reset value 0xD,
 * recorded by crt0 before it clears it), mcycle and minstret counting once enabled and stopping
 * when inhibited, the carry into mcycleh, and mhpmcounter3 counting instructions
 * (mhpmevent3 = 1 << 1, INSTR). */
#include "isa_test.h"

    TEST_BEGIN isa_csr
    li      a0, 0x12345678
    csrw    mscratch, a0
    csrr    a1, mscratch
    CHECK_EQ a1, 0x12345678, "mscratch write/read"
    csrrw   a2, mscratch, zero
    CHECK_EQ a2, 0x12345678, "csrrw returns the old value"
    csrr    a1, mscratch
    CHECK_EQ a1, 0, "csrrw writes"
    li      a0, 0xf0
    csrrs   a2, mscratch, a0
    CHECK_EQ a2, 0, "csrrs returns the old value"
    csrr    a1, mscratch
    CHECK_EQ a1, 0xf0, "csrrs sets bits"
    li      a0, 0x30
    csrrc   a2, mscratch, a0
    CHECK_EQ a2, 0xf0, "csrrc returns the old value"
    csrr    a1, mscratch
    CHECK_EQ a1, 0xc0, "csrrc clears bits"
    csrrs   a2, mscratch, zero
    CHECK_EQ a2, 0xc0, "csrrs with x0 reads"
    csrrwi  a2, mscratch, 0x1f
    CHECK_EQ a2, 0xc0, "csrrwi returns the old value"
    csrrsi  a2, mscratch, 0x10
    CHECK_EQ a2, 0x1f, "csrrwi writes"
    csrrci  a2, mscratch, 0x3
    CHECK_EQ a2, 0x1f, "csrrsi with set bits keeps them"
    csrr    a1, mscratch
    CHECK_EQ a1, 0x1c, "csrrci clears bits"

    csrr    a0, misa
    CHECK_EQ a0, 0x40001104, "misa (RV32 I M C)"
    csrr    a0, mvendorid
    CHECK_EQ a0, 0x602, "mvendorid (OpenHW)"
    csrr    a0, marchid
    CHECK_EQ a0, 4, "marchid (CV32E40P)"
    csrr    a0, mimpid
    CHECK_EQ a0, 0, "mimpid"
    csrr    a0, mhartid
    CHECK_EQ a0, 0, "mhartid"

    lw      a0, __socsim_reset_mcountinhibit
    CHECK_EQ a0, 0xd, "mcountinhibit resets to 0xD"
    csrr    a0, mcountinhibit
    CHECK_EQ a0, 0, "crt0 cleared mcountinhibit"

    csrr    a0, mcycle
    nop
    nop
    nop
    nop
    csrr    a1, mcycle
    sub     a2, a1, a0
    CHECK_RANGE a2, 5, 64, "mcycle counts"
    csrr    a0, minstret
    nop
    nop
    csrr    a1, minstret
    sub     a2, a1, a0
    CHECK_RANGE a2, 2, 4, "minstret counts csrr, nop, nop"

    li      a0, 0x5
    csrw    mcountinhibit, a0
    csrr    a1, mcycle
    nop
    nop
    csrr    a2, mcycle
    CHECK_REG a1, a2, "mcycle stops when inhibited"
    csrr    a1, minstret
    nop
    csrr    a2, minstret
    CHECK_REG a1, a2, "minstret stops when inhibited"

    /* mcycle = 0x0000_0000_ffff_fff0, then count: mcycleh becomes 1. */
    csrw    mcycleh, zero
    li      a0, 0xfffffff0
    csrw    mcycle, a0
    csrw    mcountinhibit, zero
    .rept 20
    nop
    .endr
    csrr    a1, mcycleh
    CHECK_EQ a1, 1, "mcycle carries into mcycleh"
    csrr    a1, mcycle
    CHECK_RANGE a1, 1, 200, "mcycle wrapped"

    li      a0, 2
    csrw    mhpmevent3, a0
    csrr    a1, mhpmevent3
    CHECK_EQ a1, 2, "mhpmevent3 write/read"
    csrw    mhpmcounter3, zero
    nop
    nop
    nop
    nop
    csrr    a1, mhpmcounter3
    CHECK_RANGE a1, 4, 6, "mhpmcounter3 counts instructions"
    csrw    mhpmevent3, zero
    TEST_END
