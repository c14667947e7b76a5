#!/usr/bin/env python3
"""Runs ExecuTorch programs with ExecuTorch's own runtime (the runner build.sh makes) and with
socsim's executor_runner on the simulator, and prints Markdown tables of their cycles:
start-up (static constructors, program load, method load), one execution, and with
--per-operator the cycles of every instruction. Standard library only.

  compare.py --socsim BIN --upstream ELF --runner ELF [--per-operator] \\
      [--run-arg ARG ...] PTE...

Each PTE's input is PTE with .pte replaced by .input.bin (as in tests/runtime/pte/). Every
program runs twice with each runner: once plain (the totals) and once with --profile (socsim's
runner times each call inside its execution; ExecuTorch's runner runs a second execution one
Method::step at a time). Exit 1 when a run fails.
"""

import argparse
import os
import re
import subprocess
import sys


def run(socsim, elf, pte, run_args, runner_args):
    stem = pte[:-len(".pte")] if pte.endswith(".pte") else pte
    cmd = [socsim, "run", "--firmware", elf, "--model", pte, "--input", stem + ".input.bin",
           "--max-cycles", "4000000000", *run_args, "--", *runner_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        sys.exit(f"compare.py: {' '.join(cmd)}: exit status {proc.returncode}\n{out[-2000:]}")
    return out


def figures(out):
    f = {}
    m = re.search(r"Program load: (\d+) cycles; method load: (\d+) cycles", out)
    if m:
        f["program"], f["method"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"Execution 1: (\d+) cycles", out)
    if m:
        f["execute"] = int(m.group(1))
    m = re.search(r"^static init\s+\d+\s+(\d+)", out, re.M)
    if m:
        f["static"] = int(m.group(1))
    m = re.search(r"EXIT SUCCESS @ cycle (\d+)", out)
    if m:
        f["total"] = int(m.group(1))
    f["ops"] = [(int(i), name, int(c)) for i, name, c in
                re.findall(r"^  op (\d+) (\S+?):(?: \d+ elements,)? (\d+) cycles", out, re.M)]
    return f


def ratio(a, b):
    return f"{a / b:.2f}" if b else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--upstream", required=True, help="ExecuTorch's runtime (build.sh)")
    parser.add_argument("--runner", required=True, help="socsim's executor_runner.elf")
    parser.add_argument("--per-operator", action="store_true")
    parser.add_argument("--run-arg", action="append", default=[],
                        help="an option for socsim run, e.g. --run-arg=--cpu --run-arg=iss")
    parser.add_argument("pte", nargs="+")
    args = parser.parse_args()

    rows, per_op = [], []
    for pte in args.pte:
        name = os.path.basename(pte)[:-len(".pte")]
        up = figures(run(args.socsim, args.upstream, pte, args.run_arg, []))
        ss = figures(run(args.socsim, args.runner, pte, args.run_arg, []))
        rows.append((name, up, ss))
        if args.per_operator:
            up_ops = figures(run(args.socsim, args.upstream, pte, args.run_arg, ["--profile"]))
            ss_ops = figures(run(args.socsim, args.runner, pte, args.run_arg, ["--profile"]))
            per_op.append((name, up_ops["ops"], ss_ops["ops"]))

    print("| program | static init (ExecuTorch / socsim) | program load | method load "
          "| start-up to method loaded | ratio | one execution | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for name, up, ss in rows:
        up_start = up["program"] + up["method"]
        ss_start = ss["program"] + ss["method"]
        print(f"| `{name}` | {up.get('static', 0):,} / {ss.get('static', 0):,} "
              f"| {up['program']:,} / {ss['program']:,} | {up['method']:,} / {ss['method']:,} "
              f"| {up_start:,} / {ss_start:,} | {ratio(up_start, ss_start)} "
              f"| {up['execute']:,} / {ss['execute']:,} | {ratio(up['execute'], ss['execute'])} |")
    for name, up_ops, ss_ops in per_op:
        print()
        print(f"`{name}`:")
        print()
        print("| # | operator | ExecuTorch runtime | socsim runtime | ratio |")
        print("|---|---|---|---|---|")
        by_index = {i: (op, c) for i, op, c in ss_ops}
        if sorted(by_index) != [i for i, _, _ in up_ops]:
            sys.exit(f"compare.py: {name}: the runners list different instructions")
        for i, op, c in up_ops:
            if by_index[i][0] != op:
                sys.exit(f"compare.py: {name}: instruction {i} is {op} for ExecuTorch's "
                         f"runtime, {by_index[i][0]} for socsim's")
            s = by_index[i][1]
            print(f"| {i} | `{op}` | {c:,} | {s:,} | {ratio(c, s)} |")
        up_sum = sum(c for _, _, c in up_ops)
        ss_sum = sum(c for _, _, c in ss_ops)
        print(f"| | sum | {up_sum:,} | {ss_sum:,} | {ratio(up_sum, ss_sum)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
