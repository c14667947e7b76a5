#!/usr/bin/python3
"""Simulation speed of the CPU models, side by side on the same long CPU-bound program
(bench/programs/cpu_loop.S, 37.5 M cycles on the CV32E40P):

  (a) the full SoC with the Verilated core:  socsim run --cpu rtl
  (b) the same Verilated core in the bare C++ harness (flat memory, no SystemC): rtl_bare_speed
  (c) the full SoC with the ISS:              socsim run --cpu iss
      (the ISS takes the RTL core's cycles: the same cycle count, checked below)
  (d) the OpenHW CV32E40P itself in the bare harness, when a build of it exists
      (scripts/cv32e40p-check.sh makes one in <build>/cv32e40p/build): the Verilated genuine
      RTL, for comparison
  (e) the ISS in the bare harness:            rv_harness --core iss

(a) and (c) also run with --no-probes: the non-intrusive probes follow every retired
instruction, and their cost shows as the difference.

Each is run N times, interleaved, and the median is printed, in simulated cycles per second
of wall-clock time and of CPU time (the machine may be shared: CPU time is the steadier
figure), with the ratios: (a)/(b), the ISS against the RTL core with and without probes, and
against the genuine CV32E40P. Run after scripts/build.sh.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd):
    """Runs cmd; returns (wall seconds, CPU seconds of the child, its standard output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"cpu_speed: {' '.join(cmd)} failed ({done.returncode}): {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def bench_parser(description):
    """The arguments every speed benchmark of bench/ takes: --runs and --build."""
    parser = argparse.ArgumentParser(description=description,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs per model (default 3)")
    parser.add_argument("--build", default=os.environ.get("SOCSIM_BUILD_DIR",
                                                          os.path.join(ROOT, "build")))
    return parser


def main():
    args = bench_parser(__doc__).parse_args()
    elf = os.path.join(args.build, "bench", "cpu_loop.elf")
    socsim = os.path.join(args.build, "bin", "socsim")
    bare = os.path.join(args.build, "bin", "rtl_bare_speed")
    harness = os.path.join(args.build, "bin", "rv_harness")
    for path in (elf, socsim, bare, harness):
        if not os.path.exists(path):
            sys.exit(f"cpu_speed: {path} is missing: run scripts/build.sh first")
    models = {
        "(a) SoC, --cpu rtl": [socsim, "run", "--cpu", "rtl", "-q", "--firmware", elf],
        "(a) ... --no-probes": [socsim, "run", "--cpu", "rtl", "-q", "--no-probes",
                                "--firmware", elf],
        "(b) bare harness, rtl": [bare, elf, "--runs", "1"],
        "(c) SoC, --cpu iss": [socsim, "run", "--cpu", "iss", "-q", "--firmware", elf],
        "(c) ... --no-probes": [socsim, "run", "--cpu", "iss", "-q", "--no-probes",
                                "--firmware", elf],
        "(e) bare harness, iss": [harness, elf, "--core", "iss"],
    }
    genuine = os.path.join(args.build, "cv32e40p", "build", "bin", "rtl_bare_speed")
    if os.path.exists(genuine):
        models["(d) bare harness, CV32E40P"] = [genuine, elf, "--runs", "1"]
    results = {name: [] for name in models}
    for _ in range(args.runs):
        for name, cmd in models.items():
            results[name].append(timed(cmd))
    # cycles of the program on the RTL core (the exit store included), as the harness reports
    found = re.search(r"([0-9]+) cycles\)", results["(b) bare harness, rtl"][0][2])
    if not found:
        sys.exit("cpu_speed: rtl_bare_speed printed no cycle count")
    cycles = int(found.group(1))
    medians = {}
    print(f"{cycles:,} simulated cycles per run, median of {args.runs} runs")
    print(f"{'model':28s} {'wall s':>8s} {'Mcyc/s':>8s} {'CPU s':>8s} {'Mcyc/CPU s':>11s}")
    for name, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        medians[name] = (wall, cpu)
        print(f"{name:28s} {wall:8.2f} {cycles / wall / 1e6:8.2f} {cpu:8.2f} "
              f"{cycles / cpu / 1e6:11.2f}")
    b = medians["(b) bare harness, rtl"]
    for name in ("(a) SoC, --cpu rtl", "(a) ... --no-probes"):
        a = medians[name]
        print(f"ratio {name} / (b): {b[0] / a[0]:.3f} (wall), {b[1] / a[1]:.3f} (CPU time)")

    def speed_up(fast, slow, what):
        f, s = medians[fast], medians[slow]
        print(f"{what}: {s[0] / f[0]:.2f}x (wall), {s[1] / f[1]:.2f}x (CPU time)")

    speed_up("(c) SoC, --cpu iss", "(a) SoC, --cpu rtl", "ISS / RTL core in the SoC, probes on")
    speed_up("(c) ... --no-probes", "(a) ... --no-probes", "ISS / RTL core in the SoC, probes off")
    speed_up("(e) bare harness, iss", "(b) bare harness, rtl", "ISS / RTL core in the bare harness")
    if "(d) bare harness, CV32E40P" in medians:
        d = medians["(d) bare harness, CV32E40P"]
        print(f"ratio (b) / (d), socsim's core / the CV32E40P RTL: {d[0] / b[0]:.2f} (wall), "
              f"{d[1] / b[1]:.2f} (CPU time)")
        speed_up("(c) SoC, --cpu iss", "(d) bare harness, CV32E40P",
                 "ISS in the SoC (probes on) / the CV32E40P RTL in the bare harness")
    # Both CPU models must have simulated the same cycles (the ISS takes the RTL core's).
    summaries = {name: re.search(r"@ cycle ([0-9]+)", results[name][0][2])
                 for name in ("(a) SoC, --cpu rtl", "(c) SoC, --cpu iss")}
    soc_cycles = {name: int(m.group(1)) if m else None for name, m in summaries.items()}
    bare_iss = re.search(r"after ([0-9]+) cycles", results["(e) bare harness, iss"][0][2])
    print(f"cycles: SoC rtl {soc_cycles['(a) SoC, --cpu rtl']}, SoC iss "
          f"{soc_cycles['(c) SoC, --cpu iss']}; bare rtl {cycles}, bare iss "
          f"{bare_iss.group(1) if bare_iss else None}")
    if len(set(soc_cycles.values())) != 1 or not bare_iss or int(bare_iss.group(1)) != cycles:
        sys.exit("cpu_speed: the ISS and the RTL core simulated different cycle counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
