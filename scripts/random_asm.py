"""What the random assembly program generators share (gen_random_program.py for RV32IMC,
gen_random_float_program.py for RV32IMFC and Zfinx): the program's start and end, the
forward labels that keep every program terminating, and the command line."""
import argparse
import sys

# The exit: 0 written to the platform's exit register, then a loop until the simulator stops.
EXIT = ["    li x5, 0x20000004", "    sw x0, 0(x5)", "1:  j 1b", ""]


def start(kind, seed, count):
    """The first lines of a program: a comment naming the generator's seed, `_start` at 0x80."""
    return [f"/* Random {kind} program, seed {seed}, {count} instructions. Generated. */",
            "    .section .text", "    .globl _start", "    .org 0x80", "_start:"]


class ForwardLabels:
    """Labels that branches and jumps go forward to, each placed a given number of
    instructions after the jump, so that control flow only goes forward."""

    def __init__(self):
        self.made = 0
        self.pending = []  # [instructions left before the label, label name]

    def new(self):
        name = f"L{self.made}"
        self.made += 1
        return name

    def place_after(self, name, instructions):
        self.pending.append([instructions, name])

    def step(self, out):
        """One more instruction is in `out`: the labels now due follow it."""
        for p in self.pending:
            p[0] -= 1
        for p in [p for p in self.pending if p[0] <= 0]:
            out.append(f"{p[1]}:")
            self.pending.remove(p)

    def close(self, out):
        """The labels still pending, after the last instruction."""
        out += [f"{name}:" for _, name in self.pending]
        self.pending = []


def argument_parser(doc, options=()):
    """The options every generator has: --seed, --count, then `options` (pairs of the names
    and the keyword arguments of add_argument), then -o."""
    parser = argparse.ArgumentParser(description=doc,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True, help="random seed")
    parser.add_argument("--count", type=int, default=500, help="number of random instructions")
    for names, settings in options:
        parser.add_argument(*names, **settings)
    parser.add_argument("-o", "--output", help="output .S file (default: stdout)")
    return parser


def write(text, output):
    """The program to the file `output`, or to stdout when it is None."""
    if output:
        with open(output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
