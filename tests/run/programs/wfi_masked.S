/* Sleeps in WFI with only the NPU's line (16) enabled in mie while the software interrupt
   (line 3) is pending: the pending line cannot wake the core and nothing raises line 16,
   a lock-up. */
    .section .text
    .globl _start
    .org 0x80
_start:
    li      t0, 1 << 16
    csrw    mie, t0
    li      t1, 0x02000000  /* CLINT msip */
    li      t2, 1
    sw      t2, 0(t1)
    wfi
    li      t0, 0x20000004  /* not reached: exit 1 */
    li      t1, 1
    sw      t1, 0(t0)
1:  j       1b
