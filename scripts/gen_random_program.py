#!/usr/bin/python3
"""Generates a random, valid, terminating RV32IMC(+Zicsr) assembly program for lockstep
testing of the RTL core against the ISS.

The program mixes ALU, immediate, upper-immediate, multiply/divide, loads and stores of every
width at any alignment (misaligned ones included), to on-chip SRAM and to DDR (which has wait
states), forward branches and jumps, and CSR accesses to mscratch; compressed encodings come
from the assembler. Control flow only goes forward, so every program terminates; it ends by
writing 0 to the exit register. The same seed always gives the same program.
"""
import random
import sys

import random_asm

POOL = [5, 6, 7, 10, 11, 12, 13, 14, 15, 28, 29, 30, 31]  # registers the program scribbles on
SRAM_BASE_REG, DDR_BASE_REG = 8, 9                      # s0, s1: data area bases (kept)
ALU = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"]
ALU_IMM = ["addi", "slti", "sltiu", "xori", "ori", "andi"]
SHIFT_IMM = ["slli", "srli", "srai"]
MULDIV = ["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
LOADS = ["lb", "lh", "lw", "lbu", "lhu"]
STORES = ["sb", "sh", "sw"]
BRANCHES = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]
INTERESTING = [0, 1, -1, 2, 3, -3, 0x7FFFFFFF, -0x80000000, 0x80000000 >> 1, 0xFF, 0xFFFF]


def reg(rng):
    return f"x{rng.choice(POOL)}"


def generate(seed, count):
    rng = random.Random(seed)
    out = random_asm.start("lockstep", seed, count) + [
        "    li x8, 0x00100000", "    li x9, 0x80001000"]
    for r in POOL:
        out.append(f"    li x{r}, {rng.choice(INTERESTING + [rng.getrandbits(32)]) & 0xFFFFFFFF}")
    labels = random_asm.ForwardLabels()
    emitted = 0
    while emitted < count:
        kind = rng.choices(["alu", "imm", "shift", "upper", "muldiv", "load", "store", "branch",
                            "jal", "csr", "li"],
                           weights=[14, 12, 5, 3, 10, 12, 10, 8, 2, 2, 3])[0]
        if kind == "alu":
            out.append(f"    {rng.choice(ALU)} {reg(rng)}, {reg(rng)}, {reg(rng)}")
        elif kind == "imm":
            out.append(f"    {rng.choice(ALU_IMM)} {reg(rng)}, {reg(rng)}, {rng.randint(-2048, 2047)}")
        elif kind == "shift":
            out.append(f"    {rng.choice(SHIFT_IMM)} {reg(rng)}, {reg(rng)}, {rng.randint(0, 31)}")
        elif kind == "upper":
            out.append(f"    {rng.choice(['lui', 'auipc'])} {reg(rng)}, {rng.randint(0, 0xFFFFF)}")
        elif kind == "muldiv":
            out.append(f"    {rng.choice(MULDIV)} {reg(rng)}, {reg(rng)}, {reg(rng)}")
        elif kind in ("load", "store"):
            base = rng.choice([SRAM_BASE_REG] * 3 + [DDR_BASE_REG])
            offset = rng.randint(0, 2040)
            if kind == "load":
                out.append(f"    {rng.choice(LOADS)} {reg(rng)}, {offset}(x{base})")
            else:
                out.append(f"    {rng.choice(STORES)} {reg(rng)}, {offset}(x{base})")
        elif kind in ("branch", "jal"):
            name = labels.new()
            if kind == "branch":
                out.append(f"    {rng.choice(BRANCHES)} {reg(rng)}, {reg(rng)}, {name}")
            else:
                out.append(f"    jal x{rng.choice([0, 1])}, {name}")
            labels.place_after(name, rng.randint(1, 4))
        elif kind == "csr":
            op = rng.choice(["csrrw", "csrrs", "csrrc"])
            out.append(f"    {op} {reg(rng)}, mscratch, {reg(rng)}")
        else:
            out.append(f"    li {reg(rng)}, {rng.getrandbits(32)}")
        emitted += 1
        labels.step(out)
    labels.close(out)
    return "\n".join(out + random_asm.EXIT)


def main():
    args = random_asm.argument_parser(__doc__).parse_args()
    random_asm.write(generate(args.seed, args.count), args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
