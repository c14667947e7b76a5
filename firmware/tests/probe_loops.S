/* Loops with known cycle counts for the probe accuracy tests (tests/probes/).
 *
 * Cycle counts on the CV32E40P (docs: the core's timing table), all code word-aligned and
 * compressed, so no halfword-target penalties:
 *   probe_loop(n):       n x (c.addi 1 + c.bnez 3), the last c.bnez falls through (1), ret 2:
 *                        4n cycles from entry to return, 2n + 1 instructions.
 *   probe_loop_body .. probe_loop_end: the loop alone, 4n - 2 cycles, 2n instructions.
 *   probe_marked(n, base): BEGIN 7, the same loop, END 7: the mark spans the loop and the END
 *                        store, 4n - 2 + 1 cycles, 2n + 1 instructions.
 */
    .text
    .balign 4
    .globl probe_loop
    .type probe_loop, @function
probe_loop:
    .globl probe_loop_body
probe_loop_body:
    addi    a0, a0, -1
    bnez    a0, probe_loop_body
    .globl probe_loop_end
probe_loop_end:
    ret
    .size probe_loop, . - probe_loop

    .balign 4
    .globl probe_marked
    .type probe_marked, @function
probe_marked:
    .option push
    .option norvc
    addi    t1, zero, 7             /* 4 bytes, so the loop below starts word-aligned */
    sw      t1, 0(a1)
    .option pop
1:  addi    a0, a0, -1
    bnez    a0, 1b
    sw      t1, 4(a1)
    ret
    .size probe_marked, . - probe_marked
