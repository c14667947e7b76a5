/* CSR accesses: 4 cycles for mstatus, mepc, mtvec, mcause, the counters, mcountinhibit,
   mhpmevent (they flush the pipeline), 1 cycle for mscratch, mie, misa,
   mhartid. Also the identification registers' values. */
#include "tests/timing/timing.h"
  TEST_NAME("csr.S")
  .option norvc
  .text

#define COMMA ,
#define CSR_CYCLES(insn, cycles) \
  START;                         \
  insn;                          \
  CHECK(cycles)

  .globl test_main
test_main:
  COUNTERS_ON
  CSR_CYCLES(csrr t0 COMMA mstatus, 4)
  CSR_CYCLES(csrrs zero COMMA mstatus COMMA zero, 4)
  CSR_CYCLES(csrr t0 COMMA mepc, 4)
  CSR_CYCLES(csrr t0 COMMA mtvec, 4)
  CSR_CYCLES(csrr t0 COMMA mcause, 4)
  CSR_CYCLES(csrr t0 COMMA mcycle, 4)
  CSR_CYCLES(csrr t0 COMMA minstret, 4)
  CSR_CYCLES(csrr t0 COMMA mcycleh, 4)
  CSR_CYCLES(csrr t0 COMMA cycle, 4)
  CSR_CYCLES(csrr t0 COMMA mhpmcounter3, 4)
  CSR_CYCLES(csrr t0 COMMA mcountinhibit, 4)
  CSR_CYCLES(csrr t0 COMMA mhpmevent3, 4)
  CSR_CYCLES(csrw mepc COMMA t0, 4)
  CSR_CYCLES(csrr t0 COMMA mscratch, 1)
  CSR_CYCLES(csrw mscratch COMMA t0, 1)
  CSR_CYCLES(csrr t0 COMMA mie, 1)
  CSR_CYCLES(csrr t0 COMMA misa, 1)
  CSR_CYCLES(csrr t0 COMMA mhartid, 1)

  /* a 1-cycle CSR read forwarded to the next instruction */
  li t1, 0x1234
  csrw mscratch, t1
  START
  csrr t0, mscratch
  addi t0, t0, 1
  CHECK(2)
  CHECK_VALUE(t0, 0x1235)

  /* identification */
  csrr t0, misa
  CHECK_VALUE(t0, 0x40001104)
  csrr t0, mvendorid
  CHECK_VALUE(t0, 0x602)
  csrr t0, marchid
  CHECK_VALUE(t0, 4)
  csrr t0, mimpid
  CHECK_VALUE(t0, 0)
  csrr t0, mhartid
  CHECK_VALUE(t0, 0)

  /* read-modify-write forms */
  li t1, 0xf0
  csrw mscratch, t1
  csrrsi t0, mscratch, 0x5
  CHECK_VALUE(t0, 0xf0)
  csrrci t0, mscratch, 0x10
  CHECK_VALUE(t0, 0xf5)
  csrrc t0, mscratch, t1
  CHECK_VALUE(t0, 0xe5)
  csrr t0, mscratch
  CHECK_VALUE(t0, 0x05)

  /* mepc ignores bit 0; mtvec keeps base[31:8] and the mode bit */
  li t1, 0x1235
  csrw mepc, t1
  csrr t0, mepc
  CHECK_VALUE(t0, 0x1234)
  csrr t2, mtvec
  li t1, 0x12345677
  csrw mtvec, t1
  csrr t0, mtvec
  csrw mtvec, t2
  CHECK_VALUE(t0, 0x12345601)

  j pass
