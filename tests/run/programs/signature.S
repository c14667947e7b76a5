/* Dumps a 16-byte signature area of RAM (four known words), which ends the run with 0. */
    .section .text
    .globl _start
    .org 0x80
_start:
    li      t0, 0x20000000  /* exit block */
    li      t1, 0x00010000  /* the area, in RAM */
    li      t2, 0x11223344
    sw      t2, 0(t1)
    sw      t2, 4(t1)
    sw      t2, 8(t1)
    sw      t2, 12(t1)
    sw      t1, 8(t0)       /* signature begin */
    addi    t1, t1, 16
    sw      t1, 12(t0)      /* signature end */
    sw      zero, 16(t0)    /* dump */
1:  j       1b
