/* Single-precision float on a CV32E40P with ZFINX=1 (docs/fpu.md), for GCC 12.

   GCC 12 assembles Zfinx instructions but does not generate them from C (that came with
   GCC 13): code built for rv32imc / ilp32 calls libgcc's soft-float routines for every float
   operation. Under ilp32 a float argument or result is its bit pattern in an x register,
   which is what a Zfinx instruction reads and writes; so each routine below is the one
   instruction that computes it, and linked before libgcc (an object, not an archive) it takes
   the place of libgcc's. The ABI and every caller stay unchanged: C code, picolibc and libm
   (whose float functions call these routines too) use the FPU without being rebuilt.

   Semantics as libgcc documents its routines (gccint, "Routines for floating point
   emulation"): arithmetic and conversions from integers in the current rounding mode (frm;
   round to nearest even after reset), conversions to integers truncating (C casts), the
   comparison routines' return conventions including the unordered (NaN) cases. */
  .option arch, +zfinx
  .text

#define ROUTINE(name) \
  .section .text.name, "ax", @progbits; \
  .globl name; \
  .type name, @function; \
  .balign 2; \
  name:

ROUTINE(__addsf3)
  fadd.s a0, a0, a1
  ret
ROUTINE(__subsf3)
  fsub.s a0, a0, a1
  ret
ROUTINE(__mulsf3)
  fmul.s a0, a0, a1
  ret
ROUTINE(__divsf3)
  fdiv.s a0, a0, a1
  ret
ROUTINE(__negsf2)
  fsgnjn.s a0, a0, a0
  ret
ROUTINE(__floatsisf)
  fcvt.s.w a0, a0
  ret
ROUTINE(__floatunsisf)
  fcvt.s.wu a0, a0
  ret
ROUTINE(__fixsfsi)
  fcvt.w.s a0, a0, rtz
  ret
ROUTINE(__fixunssfsi)
  fcvt.wu.s a0, a0, rtz
  ret
/* __eqsf2 / __nesf2: 0 when equal (neither a NaN), else nonzero */
ROUTINE(__eqsf2)
  feq.s a0, a0, a1
  xori a0, a0, 1
  ret
ROUTINE(__nesf2)
  feq.s a0, a0, a1
  xori a0, a0, 1
  ret
/* __ltsf2: negative when a < b, else 0 (also unordered) */
ROUTINE(__ltsf2)
  flt.s a0, a0, a1
  neg a0, a0
  ret
/* __lesf2: 0 or negative when a <= b, else 1 (also unordered) */
ROUTINE(__lesf2)
  fle.s a0, a0, a1
  xori a0, a0, 1
  ret
/* __gtsf2: positive when a > b, else 0 (also unordered) */
ROUTINE(__gtsf2)
  flt.s a0, a1, a0
  ret
/* __gesf2: 0 when a >= b, else -1 (also unordered) */
ROUTINE(__gesf2)
  fle.s a0, a1, a0
  addi a0, a0, -1
  ret
/* __unordsf2: nonzero when a or b is a NaN */
ROUTINE(__unordsf2)
  feq.s a0, a0, a0
  feq.s a1, a1, a1
  and a0, a0, a1
  xori a0, a0, 1
  ret
