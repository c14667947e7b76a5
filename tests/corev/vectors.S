/* Vector table in the core-v-verif BSP's form: 32 four-byte `j` entries, assembled without
 * compressed instructions; exceptions (entry 0) and interrupts park in a loop. */
    .section .vectors, "ax"
    .option push
    .option norvc
    .option norelax
    .globl vector_table
vector_table:
    j       trap_loop
    .rept 31
    j       trap_loop
    .endr
    .option pop

    .text
trap_loop:
    j       trap_loop
