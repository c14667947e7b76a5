/* crt0: the reset path of socsim firmware, from `_start` at the boot address to main().
 *
 * Steps, each in a symbol range that probes can measure from the retire trace:
 *   1. gp, sp (__stack_top), tp (__tls_base: picolibc keeps errno in TLS).
 *   2. mtvec = __socsim_vectors | 1 (vectored); with hardware float, mstatus.FS = Initial.
 *   3. mcountinhibit = 0: it resets to 0xD on the CV32E40P, so mcycle and minstret would not
 *      count otherwise. The reset value is kept in __socsim_reset_mcountinhibit.
 *   4. Copy .data..tdata from its load address when that differs (__socsim_data_copy).
 *   5. Zero BSS (.tbss, .sbss, .bss) one word per iteration, `sw; addi; bltu`: 5 cycles per
 *      word on the CV32E40P (__socsim_bss_zero .. __socsim_bss_zero_end); then the DDR BSS
 *      (__socsim_ddr_bss_zero .. __socsim_ddr_bss_zero_end).
 *   6. Constructors: .preinit_array and .init_array (__socsim_init_array).
 *   7. argc/argv from the boot-info block (__socsim_bootinfo_args), main(argc, argv),
 *      exit(main's return value).
 */
    .section .init, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      tp, __tls_base

    la      t0, __socsim_vectors
    ori     t0, t0, 1
    csrw    mtvec, t0

#ifdef __riscv_flen
    /* Hardware float (SOCSIM_FIRMWARE_FPU): mstatus.FS resets to Off, which makes every float
       instruction illegal on the CV32E40P; Initial enables them. */
    li      t0, 0x2000
    csrs    mstatus, t0
#endif

    csrr    s1, mcountinhibit
    csrw    mcountinhibit, zero

    la      a0, __data_start
    la      a1, __data_load_start
    la      a2, __data_end
    beq     a0, a1, __socsim_data_copy_end
    bgeu    a0, a2, __socsim_data_copy_end
    .globl __socsim_data_copy
__socsim_data_copy:
    lw      t0, 0(a1)
    sw      t0, 0(a0)
    addi    a0, a0, 4
    addi    a1, a1, 4
    bltu    a0, a2, __socsim_data_copy
    .globl __socsim_data_copy_end
__socsim_data_copy_end:

    la      a0, __bss_start
    la      a1, __bss_end
    bgeu    a0, a1, __socsim_bss_zero_end
    .balign 4
    .globl __socsim_bss_zero
__socsim_bss_zero:
    sw      zero, 0(a0)
    addi    a0, a0, 4
    bltu    a0, a1, __socsim_bss_zero
    .globl __socsim_bss_zero_end
__socsim_bss_zero_end:

    la      a0, __ddr_bss_start
    la      a1, __ddr_bss_end
    bgeu    a0, a1, __socsim_ddr_bss_zero_end
    .balign 4
    .globl __socsim_ddr_bss_zero
__socsim_ddr_bss_zero:
    sw      zero, 0(a0)
    addi    a0, a0, 4
    bltu    a0, a1, __socsim_ddr_bss_zero
    .globl __socsim_ddr_bss_zero_end
__socsim_ddr_bss_zero_end:

    la      t0, __socsim_reset_mcountinhibit
    sw      s1, 0(t0)

    call    __socsim_init_array
    call    __socsim_bootinfo_args      /* returns argc in a0, argv in a1 */
    call    main
    call    exit
1:  wfi
    j       1b
    .size _start, . - _start

/* Runs the .preinit_array and .init_array entries in order (static constructors). */
    .text
    .globl __socsim_init_array
    .type __socsim_init_array, @function
__socsim_init_array:
    addi    sp, sp, -16
    sw      ra, 12(sp)
    sw      s0, 8(sp)
    sw      s1, 4(sp)
    la      s0, __preinit_array_start
    la      s1, __init_array_end        /* .preinit_array is directly followed by .init_array */
    j       2f
1:  lw      t0, 0(s0)
    addi    s0, s0, 4
    jalr    t0
2:  bltu    s0, s1, 1b
    lw      ra, 12(sp)
    lw      s0, 8(sp)
    lw      s1, 4(sp)
    addi    sp, sp, 16
    ret
    .size __socsim_init_array, . - __socsim_init_array

/* The value mcountinhibit had at reset, before crt0 cleared it. */
    .section .sbss.__socsim_reset_mcountinhibit, "aw", @nobits
    .balign 4
    .globl __socsim_reset_mcountinhibit
__socsim_reset_mcountinhibit:
    .space 4
