"""The seed's add/add8 benchmarking campaign on the simulator.

Reproduces the experiments of the ExecuTorch-on-CV32E40P application note: the float32 add
and int8 add8 models, with and without the cpu-packed delegate,
  1. 1 vs 11 executions of a 1024-element model: total cycles, and the increment per
     execution and per element (dynamic cost);
  2. single executions of models of 1..40 elements: total cycles and the increment per
     element.
Writes CSV files and prints the tables. Cycles are the simulator's end-of-run count (from
reset to exit, as the seed's Verilator time), plus the runner's own per-execution count.
"""

import argparse
import csv
import os
import re
import subprocess
import sys

import socsim_cpu
from socsim_aot import zoo

EXIT_LINE = re.compile(r"EXIT SUCCESS @ cycle (\d+)")
EXECUTION_LINE = re.compile(r"Execution (\d+): (\d+) cycles")
VARIANTS = (("add", "add_{n}.pte"), ("add8", "add8_{n}.pte"),
            ("add8 delegated", "add8_{n}_cpu_packed.pte"))


def run(socsim, runner, model, executions, cpu=None):
    cmd = [socsim, "run", "-q", "--firmware", runner, "--model", model]
    if cpu:
        cmd += ["--cpu", cpu]
    cmd += ["--", "--num-executions", str(executions)]
    result = subprocess.run(cmd, capture_output=True, text=True)
    out = result.stdout + result.stderr
    m = EXIT_LINE.search(out)
    if result.returncode != 0 or not m:
        raise RuntimeError(f"{' '.join(cmd)} failed ({result.returncode}):\n{out}")
    per_run = [int(c) for _, c in EXECUTION_LINE.findall(out)]
    return int(m.group(1)), per_run


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Run the seed's add/add8 experiments (1 vs 11 executions, sizes 1..40, "
                    "with and without the cpu-packed delegate) on the simulator and print "
                    "the cycle tables.")
    parser.add_argument("--socsim", required=True, help="the socsim binary")
    parser.add_argument("--runner", required=True, help="executor_runner.elf")
    parser.add_argument("-o", "--out-dir", required=True,
                        help="directory for the models and the CSV files")
    parser.add_argument("--cpu", help="CPU model, one of `socsim config --cpu-models` "
                        "(default: config's)")
    parser.add_argument("--max-size", type=int, default=40, help="largest small size (40)")
    parser.add_argument("--clock-mhz", type=float, default=400.0,
                        help="clock for the times printed (default 400, as the seed)")
    args = parser.parse_args(argv)
    if args.cpu:
        try:
            message = socsim_cpu.check_cpu(args.socsim, args.cpu)
        except socsim_cpu.CpuModelsError as e:
            parser.error(f"--cpu: {e}")
        if message:
            parser.error(f"--cpu: {message}")
    os.makedirs(args.out_dir, exist_ok=True)
    sizes = list(range(1, args.max_size + 1))
    for name in ("add", "add8"):
        for n in sizes + [1024]:
            if not os.path.exists(os.path.join(args.out_dir, f"{name}_{n}.pte")):
                zoo.build_model(name, args.out_dir, size=n)
    us = 1.0 / args.clock_mhz

    print("1. 1024 elements, 1 vs 11 executions")
    print(f"{'model':16s} {'1 run':>12s} {'11 runs':>12s} {'per run':>10s} {'per elem':>9s}"
          f" {'runner: per run':>16s}")
    with open(os.path.join(args.out_dir, "executions.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["model", "cycles_1", "cycles_11", "increment_per_run",
                    "increment_per_element", "runner_cycles_per_run"])
        for label, pattern in VARIANTS:
            model = os.path.join(args.out_dir, pattern.format(n=1024))
            c1, _ = run(args.socsim, args.runner, model, 1, args.cpu)
            c11, per = run(args.socsim, args.runner, model, 11, args.cpu)
            inc = (c11 - c1) / 10
            steady = sum(per[1:]) / len(per[1:])
            w.writerow([label, c1, c11, inc, inc / 1024, steady])
            print(f"{label:16s} {c1:12,d} {c11:12,d} {inc:10,.0f} {inc / 1024:9.1f}"
                  f" {steady:16,.0f}   ({inc * us:.1f} us per run at {args.clock_mhz:g} MHz)")

    print("\n2. single executions, sizes 1..%d: total cycles (increment over size - 1)"
          % args.max_size)
    rows = {}
    for label, pattern in VARIANTS:
        rows[label] = [run(args.socsim, args.runner,
                           os.path.join(args.out_dir, pattern.format(n=n)), 1, args.cpu)[0]
                       for n in sizes]
    with open(os.path.join(args.out_dir, "sizes.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["size"] + [label for label, _ in VARIANTS])
        for i, n in enumerate(sizes):
            w.writerow([n] + [rows[label][i] for label, _ in VARIANTS])
    print(f"{'size':>4s}" + "".join(f" {label:>22s}" for label, _ in VARIANTS))
    for i, n in enumerate(sizes):
        cells = []
        for label, _ in VARIANTS:
            c = rows[label][i]
            inc = "" if i == 0 else f"(+{c - rows[label][i - 1]:,d})"
            cells.append(f"{c:>12,d} {inc:>9s}")
        print(f"{n:4d}" + "".join(f" {cell:>22s}" for cell in cells))
    for label, _ in VARIANTS:
        r = rows[label]
        slope = (r[-1] - r[0]) / (len(r) - 1)
        print(f"{label}: {slope:.1f} cycles per element on average over sizes 1..{sizes[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
