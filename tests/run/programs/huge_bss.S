/* A .bss of 3.5 GiB: far more than any memory of the SoC. The loader refuses it before
   allocating anything. */
    .section .text
    .globl _start
    .org 0x80
_start:
1:  j       1b

    .section .bss
    .skip   0xE0000000
