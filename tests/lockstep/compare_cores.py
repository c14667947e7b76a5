#!/usr/bin/python3
"""Runs programs on the RTL core and on the ISS in the bare harness (rv_harness --core rtl /
--core iss) with the same wait states, and checks that the two agree in time: every granted bus
request in the same cycle (the --bus-trace lines), every retired instruction in the same cycle
with the same effects (the --trace lines), the same exit value and cycle count. The ISS runs
three times: with the bus trace (every cycle simulated), without (its memo of repeated blocks
at work, see models/cpu/iss_timing/cv32e40p_memo.cpp), and with --check-memo (every span the
memo skips simulated too and compared); all must match the RTL core.

  compare_cores.py HARNESS [--seeds 0,1,7] [--fpu-lat A,O] [--zfinx] ELF...

Seed 0 is zero-wait memory; any other seed draws random grants and response delays from it.
--fpu-lat gives both cores the CV32E40P's FPU with FPU_ADDMUL_LAT = A and FPU_OTHERS_LAT = O
(rv_harness --fpu-lat; docs/fpu.md): float programs, F instruction for F instruction; --zfinx
that FPU with ZFINX=1 (rv_harness --zfinx: float operands in the x registers).
Prints one line per run and a summary; exit status 0 if every run agrees, 1 otherwise, 2 on
usage errors.
"""
import argparse
import os
import subprocess
import sys
import tempfile


def run(harness, core, elf, seed, directory, bus_trace=True, extra=()):
    """Runs one core; returns (last output line, bus trace lines, retire trace lines)."""
    bus = os.path.join(directory, f"{core}.bus")
    cmd = [harness, elf, "--core", core, "--trace", *extra]
    if bus_trace:
        cmd += ["--bus-trace", bus]
    if seed:
        cmd += ["--random-waits", str(seed)]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = done.stdout.splitlines()
    # retire-trace lines start with the cycle (right-aligned) and the pc
    retired = [l for l in lines if len(l) > 11 and l[:10].strip().isdigit() and l[10] == " "]
    requests = []
    if bus_trace:
        with open(bus, encoding="ascii") as f:
            requests = f.read().splitlines()
    return (lines[-1] if lines else "(no output)"), requests, retired


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i, x, y
    if len(a) != len(b):
        i = min(len(a), len(b))
        return i, a[i] if i < len(a) else "(end)", b[i] if i < len(b) else "(end)"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("harness", help="rv_harness")
    parser.add_argument("elfs", nargs="+", help="programs")
    parser.add_argument("--seeds", default="0", help="comma-separated wait-state seeds; 0: none")
    parser.add_argument("--fpu-lat", metavar="A,O",
                        help="both cores with the FPU, these latencies (rv_harness --fpu-lat)")
    parser.add_argument("--zfinx", action="store_true",
                        help="both cores with the FPU with ZFINX=1 (rv_harness --zfinx)")
    args = parser.parse_args()
    fpu = ["--fpu-lat", args.fpu_lat] if args.fpu_lat else []
    if args.zfinx:
        fpu.append("--zfinx")
    seeds = [int(s) for s in args.seeds.split(",")]
    failures = 0
    total_requests = total_instructions = 0
    with tempfile.TemporaryDirectory() as directory:
        for elf in args.elfs:
            for seed in seeds:
                name = f"{os.path.basename(elf)} {'zero-wait' if seed == 0 else f'waits {seed}'}"
                rtl = run(args.harness, "rtl", elf, seed, directory, extra=fpu)
                iss = run(args.harness, "iss", elf, seed, directory, extra=fpu)
                memo = run(args.harness, "iss", elf, seed, directory, bus_trace=False, extra=fpu)
                checked = run(args.harness, "iss", elf, seed, directory, bus_trace=False,
                              extra=["--check-memo", *fpu])
                problem = None
                for what, a, b in (("bus request", rtl[1], iss[1]),
                                   ("retired instruction", rtl[2], iss[2]),
                                   ("retired instruction (memo)", rtl[2], memo[2]),
                                   ("end (memo)", [rtl[0]], [memo[0]]),
                                   ("end (memo checked)", [rtl[0]], [checked[0]])):
                    diff = first_difference(a, b)
                    if diff is not None:
                        problem = f"{what} {diff[0]}: rtl '{diff[1]}', iss '{diff[2]}'"
                        break
                if problem is None and rtl[0] != iss[0]:
                    problem = f"end: rtl '{rtl[0]}', iss '{iss[0]}'"
                if problem is None and " exit " not in rtl[0]:
                    problem = f"no exit: {rtl[0]}"
                total_requests += len(rtl[1])
                total_instructions += len(rtl[2])
                if problem is None:
                    print(f"{name}: identical, {len(rtl[1])} requests, {len(rtl[2])} "
                          f"instructions; {rtl[0]}")
                else:
                    failures += 1
                    print(f"{name}: DIFFERENT: {problem}")
    runs = len(args.elfs) * len(seeds)
    print(f"compare_cores: {runs - failures} of {runs} runs identical in time"
          f"{f' (FPU latencies {args.fpu_lat})' if args.fpu_lat else ''}"
          f"{' (Zfinx)' if args.zfinx else ''}; "
          f"{total_requests} requests, {total_instructions} instructions")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
