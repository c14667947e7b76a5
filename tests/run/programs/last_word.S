/* Ends in `j .` in the last word of the 4 MiB RAM: the core prefetches the word after it,
   which is unmapped but never executed, so the program spins (to the cycle limit) instead
   of faulting. The .last section is placed at 0x3FFFFC by the build. */
    .section .text
    .globl _start
    .org 0x80
_start:
    la      t0, last
    jr      t0

    .section .last, "ax"
last:
    j       last
