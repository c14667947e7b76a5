/* F instruction costs on a core with an FPU, printed one per line ("name cycles"): each
   sequence between two mcycle reads, the first read's 4 cycles subtracted (timing.h). Run on
   the genuine CV32E40P with FPU=1 by scripts/cv32e40p-check.sh --fpu (docs/fpu.md). Needs
   rv32imf; uses s0-s4. Built with -DZFINX (and -march=rv32imc_zfinx) for a core with ZFINX=1:
   the float operands are then x registers (F2, F3, F7, F8, F9 callee-saved ones, which the
   reports keep), the sequences that move F registers (flw, fsw, fmv) are left out and the
   Zfinx ones added (results and operands shared with integer instructions). */
#include "tests/timing/timing.h"
  TEST_NAME("fpu_timing.S")
  .option norvc
  .text
#define M(label, ...) \
  START; __VA_ARGS__; csrr s1, mcycle; sub a1, s1, s0; addi a1, a1, -4; \
  la a0, 1f; call report; .pushsection .rodata; 1: .asciz label; .popsection
#ifdef ZFINX
#define F1 s10
#define F2 s5
#define F3 s6
#define F4 s11
#define F5 t3
#define F6 t4
#define F7 s7
#define F8 s8
#define F9 s9
#define FMV_W_X(freg, xreg) mv freg, xreg
#else
#define F1 f1
#define F2 f2
#define F3 f3
#define F4 f4
#define F5 f5
#define F6 f6
#define F7 f7
#define F8 f8
#define F9 f9
#define FMV_W_X(freg, xreg) fmv.w.x freg, xreg
#endif
  .globl test_main
test_main:
  COUNTERS_ON
  li t0, 0x2000
  csrs mstatus, t0
  li t0, 0x3f800000
  FMV_W_X(F2, t0)
  li t0, 0x40400000
  FMV_W_X(F3, t0)
  li t1, 0x00000001
  FMV_W_X(F7, t1)
  FMV_W_X(F8, zero)
  li t1, 0x7f800001
  FMV_W_X(F9, t1)
  la s4, buf
  M("nop", nop)
  M("fadd", fadd.s F1, F2, F3)
  M("fadd x4 dep", fadd.s F1, F2, F3; fadd.s F4, F1, F3; fadd.s F5, F4, F3; fadd.s F6, F5, F3)
  M("fadd x4 indep", fadd.s F1, F2, F3; fadd.s F4, F2, F3; fadd.s F5, F2, F3; fadd.s F6, F2, F3)
  M("fmul", fmul.s F1, F2, F3)
  M("fmadd", fmadd.s F1, F2, F3, F3)
  M("fmadd x2 dep", fmadd.s F1, F2, F3, F3; fmadd.s F4, F1, F3, F1)
  M("fdiv 1/3", fdiv.s F1, F2, F3)
  M("fdiv 3/1", fdiv.s F1, F3, F2)
  M("fdiv sub/1", fdiv.s F1, F7, F2)
  M("fdiv 1/0", fdiv.s F1, F2, F8)
  M("fdiv 0/1", fdiv.s F1, F8, F2)
  M("fdiv nan", fdiv.s F1, F9, F2)
  M("fsqrt 3", fsqrt.s F1, F3)
  M("fsqrt 1", fsqrt.s F1, F2)
  M("fsqrt sub", fsqrt.s F1, F7)
  M("fsqrt 0", fsqrt.s F1, F8)
  M("fdiv + 4 alu", fdiv.s F1, F2, F3; addi t0, t0, 1; addi t0, t0, 1; addi t0, t0, 1; addi t0, t0, 1)
  M("fdiv + fadd indep", fdiv.s F1, F2, F3; fadd.s F4, F2, F3)
  M("fdiv + fadd dep", fdiv.s F1, F2, F3; fadd.s F4, F1, F3)
  M("fdiv x2", fdiv.s F1, F2, F3; fdiv.s F4, F2, F3)
  M("fdiv + lw", fdiv.s F1, F2, F3; lw t0, 0(s4))
#ifndef ZFINX
  M("fdiv + fsw other", fdiv.s F1, F2, F3; fsw F2, 0(s4))
  M("fdiv + fsw dep", fdiv.s F1, F2, F3; fsw F1, 0(s4))
#endif
  M("fsgnj", fsgnj.s F1, F2, F3)
  M("fmin", fmin.s F1, F2, F3)
  M("feq", feq.s t0, F2, F3)
  M("feq + addi dep", feq.s t0, F2, F3; addi t1, t0, 1)
  M("feq + beqz dep nt", feq.s t0, F2, F3; bnez t0, 2f; 2:)
  M("fclass", fclass.s t0, F2)
#ifndef ZFINX
  M("fmv.x.w", fmv.x.w t0, F2)
  M("fmv.x.w + addi", fmv.x.w t0, F2; addi t1, t0, 1)
  M("fmv.w.x", fmv.w.x F1, t0)
#endif
  M("fcvt.w.s", fcvt.w.s t0, F3)
  M("fcvt.s.w", fcvt.s.w F1, t0)
#ifndef ZFINX
  M("flw", flw F1, 0(s4))
  M("flw + fadd dep", flw F1, 0(s4); fadd.s F4, F1, F3)
  M("fadd + fsw dep", fadd.s F1, F2, F3; fsw F1, 0(s4))
  M("fsw", fsw F2, 0(s4))
#endif
  M("fadd + addi", fadd.s F1, F2, F3; addi t0, t0, 1)
  M("fadd + lw", fadd.s F1, F2, F3; lw t0, 0(s4))
  M("fadd + mul", fadd.s F1, F2, F3; mul t0, t0, t0)
  M("fadd + mulh", fadd.s F1, F2, F3; mulh t0, t0, t0)
  M("lw + fadd", lw t0, 0(s4); fadd.s F1, F2, F3)
#ifndef ZFINX
  M("fadd + fmv.x.w dep", fadd.s F1, F2, F3; fmv.x.w t0, F1)
#endif
  M("frrm", frrm t0)
  M("fsrm", fsrm t0, t1)
  M("frflags", frflags t0)
  M("fsflags", fsflags t0, zero)
  M("fscsr", fscsr t0, zero)
  M("fadd + frflags", fadd.s F1, F2, F3; frflags t0)
#ifdef ZFINX
  /* Zfinx: float results and operands in x registers, shared with integer instructions */
  M("lw + fadd dep", lw F1, 0(s4); fadd.s F4, F1, F3)
  M("fadd + sw dep", fadd.s F1, F2, F3; sw F1, 0(s4))
  M("fadd + addi dep", fadd.s F1, F2, F3; addi t0, F1, 1)
  M("fadd + beqz dep nt", fadd.s F1, F2, F3; beqz F1, 2f; 2:)
  M("fadd + mul dep", fadd.s F1, F2, F3; mul t0, F1, F1)
  M("addi + fadd dep", addi F1, F2, 0; fadd.s F4, F1, F3)
  M("mul + fadd dep", mul F1, F2, F2; fadd.s F4, F1, F3)
  M("fmadd + addi dep", fmadd.s F1, F2, F3, F3; addi t0, F1, 1)
  /* fdiv.s's result comes after the 4 instructions unless one waits for it */
#define ALU4 addi t1, t1, 1; addi t1, t1, 1; addi t1, t1, 1; addi t1, t1, 1
  M("fdiv + sw other + 4 alu", fdiv.s F1, F2, F3; sw F2, 0(s4); ALU4)
  M("fdiv + sw dep + 4 alu", fdiv.s F1, F2, F3; sw F1, 0(s4); ALU4)
  M("fdiv + addi dep + 4 alu", fdiv.s F1, F2, F3; addi t0, F1, 1; ALU4)
  M("fdiv + li same rd + 4 alu", fdiv.s F1, F2, F3; li F1, 0; ALU4)
  M("fdiv + lw same rd + 4 alu", fdiv.s F1, F2, F3; lw F1, 0(s4); ALU4)
  M("fdiv + fadd dep + 4 alu", fdiv.s F1, F2, F3; fadd.s F4, F1, F3; ALU4)
  M("fcvt.w.s + fcvt.s.w dep", fcvt.w.s t0, F3; fcvt.s.w F1, t0)
  /* a result written to x0: the dispatcher sees register address 0 read by every instruction
     whose third operand is left at its default (docs/fpu.md) */
  M("fadd to x0 + addi", fadd.s zero, F2, F3; addi t0, t0, 1)
  M("fdiv to x0 + 4 alu", fdiv.s zero, F2, F3; ALU4)
  M("fdiv to x0 + 4 bne nt", fdiv.s zero, F2, F3; bne t1, t1, 2f; bne t1, t1, 2f; bne t1, t1, 2f; bne t1, t1, 2f; 2:)
#endif
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
