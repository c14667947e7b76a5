#!/usr/bin/python3
"""The estimate mode's speed and error beside a full simulation.

For each program (compiled with --delegate npu, e.g. by bench/models.py --keep DIR or the
model zoo) on one SoC (default configs/soc/rk3588-like.yaml):

  1. `socsim estimate --repeat N`, --runs times: whole-network evaluations per minute of CPU
     time (the median of the runs; the program is read once per run, every evaluation plans,
     tiles and schedules every layer again), and of wall time;
  2. one `socsim run` of the program (executor_runner, the ISS, --report): its wall time and
     the child's CPU time, as evaluations per minute;
  3. `socsim estimate --compare` against that run: the NPU time per frame, simulated and
     estimated, and the difference attributed to compute-, on-chip-DMA- and DDR-bound layers
     and to the run's CPU operators.

Run after scripts/build.sh, e.g.
  bench/estimate_speed.py --program resnet50.pte --input resnet50.input.bin
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RATE = re.compile(r"(\d+) evaluations in ([0-9.]+) s CPU \(([0-9.]+) s wall\)")
FRAME = re.compile(r"^NPU per frame: simulated ([0-9.]+) us, estimated ([0-9.]+) us.*$", re.M)


def estimate_rate(args, program):
    cpu, wall = [], []
    for _ in range(args.runs):
        out = subprocess.run([args.socsim, "estimate", "--model", program, "-c", args.config,
                              "--repeat", str(args.repeat)], capture_output=True, text=True,
                             check=True).stdout
        n, c, w = RATE.search(out).groups()
        cpu.append(60 * int(n) / float(c))
        wall.append(60 * int(n) / float(w))
    return statistics.median(cpu), statistics.median(wall)


def simulate(args, program, input_path, report):
    runner = os.path.join(args.build, "firmware", "apps", "executor_runner", "executor_runner.elf")
    cmd = [args.socsim, "run", "-q", "-c", args.config, "--firmware", runner, "--model", program,
           "--report", report]
    if input_path:
        cmd += ["--input", input_path]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd + ["--", "--inputs-in-place"], capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def main(argv=None) -> int:
    build = os.path.join(ROOT, "build")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--program", action="append", required=True,
                        help="program file (repeatable)")
    parser.add_argument("--input", action="append", default=[],
                        help="its input file (repeatable, in --program's order)")
    parser.add_argument("--config", default=os.path.join(ROOT, "configs", "soc",
                                                         "rk3588-like.yaml"))
    parser.add_argument("--repeat", type=int, default=300, help="evaluations per run")
    parser.add_argument("--runs", type=int, default=5, help="runs (the median is reported)")
    parser.add_argument("--build", default=build)
    parser.add_argument("--socsim", default=os.path.join(build, "bin", "socsim"))
    args = parser.parse_args(argv)
    print(f"{'program':24} {'est/min CPU':>12} {'est/min wall':>13} {'sim/min CPU':>12} "
          f"{'sim s wall':>10} {'sim us':>9} {'est us':>9} {'error':>7}")
    for i, program in enumerate(args.program):
        input_path = args.input[i] if i < len(args.input) else None
        cpu_rate, wall_rate = estimate_rate(args, program)
        with tempfile.TemporaryDirectory() as report:
            sim_cpu, sim_wall = simulate(args, program, input_path, report)
            out = subprocess.run([args.socsim, "estimate", "--model", program, "-c", args.config,
                                  "--compare", report], capture_output=True, text=True,
                                 check=True).stdout
        sim_us, est_us = (float(x) for x in FRAME.search(out).groups())
        print(f"{os.path.basename(program):24} {cpu_rate:12.0f} {wall_rate:13.0f} "
              f"{60 / sim_cpu:12.1f} {sim_wall:10.2f} {sim_us:9.1f} {est_us:9.1f} "
              f"{100 * (est_us / sim_us - 1):+6.1f}%")
        print("\n".join("    " + line for line in out.strip().splitlines()[-4:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
