/* F instruction costs on a core with an FPU, printed one per line ("name cycles"): each
   sequence between two mcycle reads, the first read's 4 cycles subtracted (timing.h). Run on
   the genuine CV32E40P with FPU=1 by scripts/cv32e40p-check.sh --fpu (docs/fpu.md). Needs
   rv32imf; uses s0-s4. */
#include "tests/timing/timing.h"
  TEST_NAME("fpu_timing.S")
  .option norvc
  .text
#define M(label, ...) \
  START; __VA_ARGS__; csrr s1, mcycle; sub a1, s1, s0; addi a1, a1, -4; \
  la a0, 1f; call report; .pushsection .rodata; 1: .asciz label; .popsection
  .globl test_main
test_main:
  COUNTERS_ON
  li t0, 0x2000
  csrs mstatus, t0
  li t0, 0x3f800000
  fmv.w.x f2, t0
  li t0, 0x40400000
  fmv.w.x f3, t0
  li t1, 0x00000001
  fmv.w.x f7, t1
  fmv.w.x f8, zero
  li t1, 0x7f800001
  fmv.w.x f9, t1
  la s4, buf
  M("nop", nop)
  M("fadd", fadd.s f1, f2, f3)
  M("fadd x4 dep", fadd.s f1, f2, f3; fadd.s f4, f1, f3; fadd.s f5, f4, f3; fadd.s f6, f5, f3)
  M("fadd x4 indep", fadd.s f1, f2, f3; fadd.s f4, f2, f3; fadd.s f5, f2, f3; fadd.s f6, f2, f3)
  M("fmul", fmul.s f1, f2, f3)
  M("fmadd", fmadd.s f1, f2, f3, f3)
  M("fmadd x2 dep", fmadd.s f1, f2, f3, f3; fmadd.s f4, f1, f3, f1)
  M("fdiv 1/3", fdiv.s f1, f2, f3)
  M("fdiv 3/1", fdiv.s f1, f3, f2)
  M("fdiv sub/1", fdiv.s f1, f7, f2)
  M("fdiv 1/0", fdiv.s f1, f2, f8)
  M("fdiv 0/1", fdiv.s f1, f8, f2)
  M("fdiv nan", fdiv.s f1, f9, f2)
  M("fsqrt 3", fsqrt.s f1, f3)
  M("fsqrt 1", fsqrt.s f1, f2)
  M("fsqrt sub", fsqrt.s f1, f7)
  M("fsqrt 0", fsqrt.s f1, f8)
  M("fdiv + 4 alu", fdiv.s f1, f2, f3; addi t0, t0, 1; addi t0, t0, 1; addi t0, t0, 1; addi t0, t0, 1)
  M("fdiv + fadd indep", fdiv.s f1, f2, f3; fadd.s f4, f2, f3)
  M("fdiv + fadd dep", fdiv.s f1, f2, f3; fadd.s f4, f1, f3)
  M("fdiv x2", fdiv.s f1, f2, f3; fdiv.s f4, f2, f3)
  M("fdiv + lw", fdiv.s f1, f2, f3; lw t0, 0(s4))
  M("fdiv + fsw other", fdiv.s f1, f2, f3; fsw f2, 0(s4))
  M("fdiv + fsw dep", fdiv.s f1, f2, f3; fsw f1, 0(s4))
  M("fsgnj", fsgnj.s f1, f2, f3)
  M("fmin", fmin.s f1, f2, f3)
  M("feq", feq.s t0, f2, f3)
  M("feq + addi dep", feq.s t0, f2, f3; addi t1, t0, 1)
  M("feq + beqz dep nt", feq.s t0, f2, f3; bnez t0, 2f; 2:)
  M("fclass", fclass.s t0, f2)
  M("fmv.x.w", fmv.x.w t0, f2)
  M("fmv.x.w + addi", fmv.x.w t0, f2; addi t1, t0, 1)
  M("fmv.w.x", fmv.w.x f1, t0)
  M("fcvt.w.s", fcvt.w.s t0, f3)
  M("fcvt.s.w", fcvt.s.w f1, t0)
  M("flw", flw f1, 0(s4))
  M("flw + fadd dep", flw f1, 0(s4); fadd.s f4, f1, f3)
  M("fadd + fsw dep", fadd.s f1, f2, f3; fsw f1, 0(s4))
  M("fsw", fsw f2, 0(s4))
  M("fadd + addi", fadd.s f1, f2, f3; addi t0, t0, 1)
  M("fadd + lw", fadd.s f1, f2, f3; lw t0, 0(s4))
  M("fadd + mul", fadd.s f1, f2, f3; mul t0, t0, t0)
  M("fadd + mulh", fadd.s f1, f2, f3; mulh t0, t0, t0)
  M("lw + fadd", lw t0, 0(s4); fadd.s f1, f2, f3)
  M("fadd + fmv.x.w dep", fadd.s f1, f2, f3; fmv.x.w t0, f1)
  M("frrm", frrm t0)
  M("fsrm", fsrm t0, t1)
  M("frflags", frflags t0)
  M("fsflags", fsflags t0, zero)
  M("fscsr", fscsr t0, zero)
  M("fadd + frflags", fadd.s f1, f2, f3; frflags t0)
  j pass
report:
  mv s2, a1
  mv s3, ra
  call put_str
  li a0, ' '
  call put_char
  mv a0, s2
  call put_dec
  li a0, 10
  call put_char
  mv ra, s3
  ret
  .data
  .balign 4
buf: .word 0x40000000, 0
