/* The machine-mode vector table, at the RAM base (mtvec = __socsim_vectors | 1, vectored).
 *
 * 32 four-byte `j` entries, assembled without compressed instructions so entry n is at
 * base + 4*n: exceptions enter at entry 0, interrupt n at entry n (7: machine timer,
 * 16..31: external lines). All interrupts share one entry that dispatches on mcause
 * (hal/trap_entry.S). The linker script places the table at the RAM base, which is 256-byte
 * aligned as mtvec requires (an alignment directive here would leave relaxation padding).
 */
    .section .vectors, "ax"
    .option push
    .option norvc
    .option norelax
    .globl __socsim_vectors
__socsim_vectors:
    j       __socsim_exception_entry
    .rept 31
    j       __socsim_interrupt_entry
    .endr
    .option pop
