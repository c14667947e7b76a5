/* Start-up code in the core-v-verif BSP's form: gp, sp, mtvec = vector_table | 1 (vectored),
 * BSS cleared by memset(_edata, 0, _end - _edata), constructors by __libc_init_array, then
 * main(0, NULL) and exit. tp is set for picolibc's thread-local errno. */
    .section .init, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base
    la      t0, vector_table
    ori     t0, t0, 1
    csrw    mtvec, t0

    la      a0, _edata
    li      a1, 0
    la      a2, _end
    sub     a2, a2, a0
    call    memset

    call    __libc_init_array

    li      a0, 0
    li      a1, 0
    call    main
    tail    exit
