#!/usr/bin/python3
"""Throughput of `socsim sweep` and its overhead per point against bare `socsim run`s.

For a sweep file (default configs/sweeps/mobilenet_npu.yaml):

  (0) the whole sweep from nothing (model export and compilation included), -j J;
  then, N times interleaved, with the compiled model kept:
  (a) bare: the sweep's own `socsim run` commands (from its points' result.json), one
      after the other, each writing its report folder;
  (b) `socsim sweep run -j 1` of the same points into an empty database: expansion,
      hashing, runs, metrics, database, CSV and plots;
  (c) `socsim sweep run -j J`: points per minute on J local processes;
  (d) `socsim sweep run` once more, with every point done: the fixed cost (start, planning,
      CSV, plots), so that (b) splits into a fixed cost and a cost per point.

Printed: the medians of (a), (b), (c), in wall-clock seconds and in CPU seconds (of every
process involved: the sweep's own and its socsim runs); the overhead per point, (b - a) /
points, and relative to a bare run, (b - a) / a; (c) as points per minute. Two figures of
(b) alone do not depend on how busy the machine is between runs: the CPU time of the sweep's
own process (everything but the socsim runs), and its wall-clock time outside the runs (the
sweep's time less the sum of its points' wall_s); both are given per point and against the
median point. Run after scripts/build.sh.
"""
import argparse
import json
import sqlite3
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Clock:
    """Wall-clock and CPU time (of the child processes waited for) between start and stop."""

    def __enter__(self):
        self.wall0 = time.perf_counter()
        self.cpu0 = self._cpu()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall0
        self.cpu = self._cpu() - self.cpu0

    @staticmethod
    def _cpu():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime


def run(cmd):
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"sweep_speed: {' '.join(cmd)} failed ({done.returncode}): {done.stderr}")


def timed(cmd):
    with Clock() as clock:
        run(cmd)
    return clock


# `socsim sweep run` as the socsim binary starts it, printing its own CPU time at the end.
SELF_TIMED = """
import resource, sys
from socsim_sweep.cli import main
status = main(sys.argv[1:])
r = resource.getrusage(resource.RUSAGE_SELF)
print(f"self-cpu {r.ru_utime + r.ru_stime}", file=sys.stderr)
sys.exit(status)
"""


def sweep_alone(socsim, args, results):
    """(wall, own CPU seconds, sum of the points' wall_s) of one `socsim sweep run`."""
    env = dict(os.environ, SOCSIM_BINARY=socsim,
               PYTHONPATH=os.path.join(ROOT, "scripts"), PYTHONDONTWRITEBYTECODE="1")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", SELF_TIMED, "run"] + args,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env=env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"sweep_speed: sweep failed ({done.returncode}): {done.stderr}")
    own = float(done.stderr.rsplit("self-cpu ", 1)[1])
    conn = sqlite3.connect(os.path.join(results, "results.db"))
    points = [w for (w,) in conn.execute("SELECT wall_s FROM points WHERE status='ok'")]
    conn.close()
    return wall, own, points


def point_commands(results):
    """The socsim run command of every point of the results folder."""
    commands = []
    points = os.path.join(results, "points")
    for name in sorted(os.listdir(points)):
        with open(os.path.join(points, name, "result.json")) as f:
            commands.append(json.load(f)["argv"])
    return commands


def fresh(results):
    """Empties a results folder but for its compiled models."""
    for name in os.listdir(results):
        if name != "models":
            path = os.path.join(results, name)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sweep", default=os.path.join(ROOT, "configs", "sweeps",
                                                        "mobilenet_npu.yaml"))
    parser.add_argument("--build", default=os.environ.get("SOCSIM_BUILD_DIR",
                                                          os.path.join(ROOT, "build")))
    parser.add_argument("-j", "--jobs", type=int, default=2, help="J (default 2)")
    parser.add_argument("--runs", type=int, default=3, help="N (default 3)")
    parser.add_argument("--work", help="scratch folder (default: a temporary one)")
    args = parser.parse_args()
    socsim = os.path.join(args.build, "bin", "socsim")
    if not os.path.exists(socsim):
        sys.exit(f"sweep_speed: {socsim} is missing: run scripts/build.sh first")
    work = args.work or tempfile.mkdtemp(prefix="sweep_speed-")
    results = os.path.join(work, "results")
    shutil.rmtree(results, ignore_errors=True)
    sweep = [socsim, "sweep", "run", args.sweep, "--dir", results]

    scratch = timed(sweep + ["-j", str(args.jobs)])
    commands = point_commands(results)
    n = len(commands)
    print(f"{args.sweep}: {n} points")
    print(f"(0) from nothing, -j {args.jobs}: {scratch.wall:.1f} s = "
          f"{n / scratch.wall * 60:.1f} points/min (model export and compilation included)",
          flush=True)

    bare, one, many, alone, fixed = [], [], [], [], []
    bare_dir = os.path.join(work, "bare")
    for repeat in range(args.runs):
        shutil.rmtree(bare_dir, ignore_errors=True)
        with Clock() as clock:
            for i, argv in enumerate(commands):
                argv = list(argv)
                argv[argv.index("--report") + 1] = os.path.join(bare_dir, str(i))
                run(argv)
        bare.append(clock)
        fresh(results)
        one.append(timed(sweep + ["-j", "1"]))
        fresh(results)
        many.append(timed(sweep + ["-j", str(args.jobs)]))
        fresh(results)
        alone.append(sweep_alone(socsim, [args.sweep, "--dir", results, "-j", "1"], results))
        fixed.append(sweep_alone(socsim, [args.sweep, "--dir", results, "-j", "1"], results))
        print(f"  run {repeat + 1}: bare {bare[-1].wall:.2f} s ({bare[-1].cpu:.2f} s CPU), "
              f"sweep -j 1 {one[-1].wall:.2f} s ({one[-1].cpu:.2f} s CPU), "
              f"sweep -j {args.jobs} {many[-1].wall:.2f} s ({many[-1].cpu:.2f} s CPU)",
              flush=True)

    print(f"\nmedians of {args.runs} runs, {n} points:      wall s    CPU s")
    med = {name: (statistics.median(c.wall for c in clocks),
                  statistics.median(c.cpu for c in clocks))
           for name, clocks in (("a", bare), ("b", one), ("c", many))}
    print(f"(a) bare socsim run, one after the other: {med['a'][0]:8.2f} {med['a'][1]:8.2f}")
    print(f"(b) socsim sweep run -j 1:               {med['b'][0]:8.2f} {med['b'][1]:8.2f}")
    for what, i in (("wall", 0), ("CPU", 1)):
        a, b = med["a"][i], med["b"][i]
        print(f"    overhead per point ({what}): {(b - a) / n * 1e3:+.1f} ms = "
              f"{100 * (b - a) / a:+.2f} % of a bare run ({a / n:.3f} s)")
    ratios = [(o.cpu - b.cpu) / b.cpu for o, b in zip(one, bare)]
    print("    CPU overhead of each run pair: " +
          ", ".join(f"{100 * r:+.2f} %" for r in ratios))
    own = statistics.median(a[1] for a in alone)
    outside = statistics.median(a[0] - sum(a[2]) for a in alone)
    point = statistics.median(w for a in alone for w in a[2])
    print(f"    the sweep's own process: {own:.2f} s CPU = {own / n * 1e3:.1f} ms a point = "
          f"{100 * own / n / point:.2f} % of the median point ({point:.3f} s)")
    print(f"    wall-clock time outside the runs: {outside:.2f} s = {outside / n * 1e3:.1f} ms "
          f"a point = {100 * outside / n / point:.2f} % of the median point")
    fixed_wall = statistics.median(f[0] for f in fixed)
    fixed_cpu = statistics.median(f[1] for f in fixed)
    print(f"(d) with nothing to run: {fixed_wall:.2f} s, {fixed_cpu:.2f} s CPU of the sweep's "
          "own process (the fixed cost)")
    print(f"    so the cost per point is {(own - fixed_cpu) / n * 1e3:.1f} ms CPU "
          f"({100 * (own - fixed_cpu) / n / point:.2f} % of the median point) and "
          f"{(outside - fixed_wall) / n * 1e3:.1f} ms wall-clock "
          f"({100 * (outside - fixed_wall) / n / point:.2f} %)")
    c = med["c"][0]
    print(f"(c) socsim sweep run -j {args.jobs}:               {c:8.2f} {med['c'][1]:8.2f}"
          f"  = {n / c * 60:.1f} points/min")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
