#!/usr/bin/python3
"""Generates a random, valid, terminating RV32IMFC(+Zicsr) assembly program for checking the
timing of F instructions against the genuine CV32E40P with its FPU (docs/fpu.md).

The program draws its F operands from a few registers, so that most instructions depend on
recent results: every RV32F instruction (the fused four, fdiv.s and fsqrt.s included), in
every static rounding mode and the dynamic one, on special values (signed zeros, infinities,
quiet and signalling NaNs, subnormals, the largest and smallest normals, exact quotients and
roots) and random ones; results moved to x registers (feq, fclass, fcvt.w.s, fmv.x.w) used by
the next instructions, branches on them and jalr through a register; flw/fsw and integer
loads and stores (misaligned ones included) beside them, mulh and divisions, CSR accesses to
fflags and frm (fsrm and fscsr flush the pipeline). Control flow only goes forward, so every
program terminates; it ends by writing 0 to the exit register. The same seed always gives the
same program.

With --zfinx the program is for a core with ZFINX=1 (rv32imc_zfinx): the float operands are x
registers (x16 and up stand for the F registers, and operands and results are also drawn from
the integer pool, and now and then x0), so float results feed integer instructions and integer
results float ones; flw/fsw become lw/sw of those registers and fmv becomes mv.
"""
import random
import sys

import random_asm

XPOOL = [5, 6, 7, 10, 11, 12, 13, 14, 15]  # x registers the program scribbles on
SRAM_BASE_REG = 8                          # s0: the data area (kept)
LINK_REG = 9                               # s1: jalr targets
SPECIAL = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
           0xFFC00001, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0x3F800000,
           0x40400000, 0x40800000, 0x41100000, 0xBF800000, 0x3EAAAAAB, 0x4B800000,
           0x00400000, 0x0DA24260]
RM = ["rne", "rtz", "rdn", "rup", "rmm", "dyn"]
FP3 = ["fadd.s", "fsub.s", "fmul.s", "fdiv.s"]
FP2 = ["fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s"]
FMA = ["fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"]
FCMP = ["feq.s", "flt.s", "fle.s"]
ALU = ["add", "sub", "xor", "or", "and", "slt", "sltu", "sll", "srl"]
MULDIV = ["mul", "mulh", "mulhu", "div", "remu"]


ZFINX_BASE = 16  # with --zfinx: x16.. stand for f0..


def generate(seed, count, fregs=6, zfinx=False):
    rng = random.Random(seed)
    fpool = list(range(fregs))

    def freg(r):  # the register standing for F register r
        return f"x{ZFINX_BASE + r}" if zfinx else f"f{r}"

    def x():
        if zfinx and rng.random() < 0.2:
            return freg(rng.choice(fpool))
        return f"x{rng.choice(XPOOL)}"

    def f():
        if zfinx:
            u = rng.random()
            if u < 0.03:
                return "x0"
            if u < 0.2:
                return f"x{rng.choice(XPOOL)}"
        return freg(rng.choice(fpool))

    out = random_asm.start("float", seed, count) + [
        "    li x5, 0x2000", "    csrs mstatus, x5",  # mstatus.FS: Initial
        "    li x8, 0x00100000"]
    for i in range(32):  # the data area: special values and random words
        out += [f"    li x5, {rng.choice(SPECIAL + [rng.getrandbits(32)])}",
                f"    sw x5, {4 * i}(x8)"]
    load, store = ("lw", "sw") if zfinx else ("flw", "fsw")
    for r in fpool:
        out.append(f"    {load} {freg(r)}, {4 * rng.randrange(32)}(x8)")
    for r in XPOOL:
        out.append(f"    li x{r}, {rng.choice([0, 1, 3, -1, 7, 100, rng.getrandbits(32)]) & 0xFFFFFFFF}")
    labels = random_asm.ForwardLabels()
    emitted = 0
    while emitted < count:
        kind = rng.choices(
            ["fp3", "fp2", "fma", "sqrt", "cmp", "class", "cvt_ws", "cvt_sw", "mv_xw", "mv_wx",
             "flw", "fsw", "alu", "muldiv", "lw", "sw", "branch", "jalr", "csr", "special"],
            weights=[16, 5, 8, 3, 5, 2, 3, 3, 3, 3, 6, 5, 8, 4, 4, 3, 4, 1, 2, 3])[0]
        if kind == "fp3":
            op = rng.choice(FP3)
            out.append(f"    {op} {f()}, {f()}, {f()}, {rng.choice(RM)}")
        elif kind == "fp2":
            out.append(f"    {rng.choice(FP2)} {f()}, {f()}, {f()}")
        elif kind == "fma":
            out.append(f"    {rng.choice(FMA)} {f()}, {f()}, {f()}, {f()}, {rng.choice(RM)}")
        elif kind == "sqrt":
            out.append(f"    fsqrt.s {f()}, {f()}, {rng.choice(RM)}")
        elif kind == "cmp":
            out.append(f"    {rng.choice(FCMP)} {x()}, {f()}, {f()}")
        elif kind == "class":
            out.append(f"    fclass.s {x()}, {f()}")
        elif kind == "cvt_ws":
            out.append(f"    {rng.choice(['fcvt.w.s', 'fcvt.wu.s'])} {x()}, {f()}, "
                       f"{rng.choice(RM)}")
        elif kind == "cvt_sw":
            out.append(f"    {rng.choice(['fcvt.s.w', 'fcvt.s.wu'])} {f()}, {x()}, "
                       f"{rng.choice(RM)}")
        elif kind == "mv_xw":
            out.append(f"    mv {x()}, {f()}" if zfinx else f"    fmv.x.w {x()}, {f()}")
        elif kind == "mv_wx":
            out.append(f"    mv {f()}, {x()}" if zfinx else f"    fmv.w.x {f()}, {x()}")
        elif kind == "flw":
            out.append(f"    {load} {f()}, {4 * rng.randrange(32)}(x8)")
        elif kind == "fsw":
            out.append(f"    {store} {f()}, {4 * rng.randrange(32, 64)}(x8)")
        elif kind == "alu":
            out.append(f"    {rng.choice(ALU)} {x()}, {x()}, {x()}")
        elif kind == "muldiv":
            out.append(f"    {rng.choice(MULDIV)} {x()}, {x()}, {x()}")
        elif kind == "lw":
            out.append(f"    {rng.choice(['lw', 'lh', 'lbu'])} {x()}, {rng.randrange(256, 512)}(x8)")
        elif kind == "sw":
            out.append(f"    {rng.choice(['sw', 'sh'])} {x()}, {rng.randrange(256, 512)}(x8)")
        elif kind in ("branch", "jalr"):
            name = labels.new()
            if kind == "branch":
                out.append(f"    {rng.choice(['beq', 'bne', 'blt', 'bgeu'])} {x()}, {x()}, {name}")
            else:
                out += [f"    la x{LINK_REG}, {name}", f"    jalr x1, 0(x{LINK_REG})"]
            labels.place_after(name, rng.randint(1, 4))
        elif kind == "csr":
            out.append(rng.choice([f"    frflags {x()}", f"    frrm {x()}", f"    frcsr {x()}",
                                   f"    fsflags {x()}, x0", f"    fscsr x0, x0",
                                   f"    csrrwi x0, frm, {rng.randrange(5)}"]))
        else:  # a result of a special operation, then dependent instructions
            a, b = f(), f()
            out += [f"    fdiv.s {a}, {b}, {f()}", f"    fadd.s {f()}, {a}, {b}",
                    f"    feq.s {x()}, {a}, {a}"]
        emitted += 1
        labels.step(out)
    labels.close(out)
    # the results: every F register and the flags stored, so the bus traces compare them
    for r in fpool:
        out.append(f"    {store} {freg(r)}, {4 * (64 + r)}(x8)")
    out += ["    frcsr x5", "    sw x5, 400(x8)"]
    return "\n".join(out + random_asm.EXIT)


def main():
    args = random_asm.argument_parser(__doc__, [
        (["--fregs"], dict(type=int, default=6,
                           help="F registers used (fewer: more dependences; default 6)")),
        (["--zfinx"], dict(action="store_true",
                           help="for a core with ZFINX=1 (float operands in x registers)"))
    ]).parse_args()
    limit = 16 if args.zfinx else 32
    if not 2 <= args.fregs <= limit:
        print(f"gen_random_float_program: --fregs must be 2..{limit}", file=sys.stderr)
        return 2
    random_asm.write(generate(args.seed, args.count, args.fregs, args.zfinx), args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
