/* Dumps a signature area from the last 16 bytes of RAM to the top of the address space
   (end 0xFFFFFFFF): four words, then a fault at the first address outside memory. */
    .section .text
    .globl _start
    .org 0x80
_start:
    li      t0, 0x20000000  /* exit block */
    li      t1, 0x003FFFF0
    sw      t1, 8(t0)       /* signature begin */
    li      t1, -1
    sw      t1, 12(t0)      /* signature end: 0xFFFFFFFF */
    sw      zero, 16(t0)    /* dump */
1:  j       1b
