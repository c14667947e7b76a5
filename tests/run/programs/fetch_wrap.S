/* Jumps to its own code 4 MiB higher and exits from there with status 0. On a SoC whose
   instruction fetches wrap every 4 MiB (configs/soc/corev-verif.yaml: cpu.fetch_wrap) this
   exits normally; elsewhere the fetch above the memory faults or spins. */
    .section .text
    .globl _start
    .org 0x80
_start:
    la   t0, wrapped
    li   t1, 0x400000
    add  t0, t0, t1
    jr   t0            /* fetches continue at wrapped + 4 MiB */
wrapped:
    auipc t2, 0        /* the pc is above 4 MiB here */
    srli  t2, t2, 22
    li    t3, 1
    bne   t2, t3, fail
    li    t0, 0x20000004
    sw    zero, 0(t0)  /* exit 0 */
1:  j 1b
fail:
    li    t0, 0x20000004
    li    t1, 3
    sw    t1, 0(t0)    /* exit 3: the code did not run from the wrapped address */
2:  j 2b
