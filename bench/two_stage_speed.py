#!/usr/bin/python3
"""The two-stage study of a sweep file, timed (docs/sweeps.md, "Two-stage studies").

  1. the estimate stage alone (`socsim sweep run FILE --stage estimate`), --runs times after
     a first run that compiles the model: the estimates are dropped from the database before
     each run, so every point is estimated again; the stage's points per minute (as `run`
     reports them) and the whole command's wall time, medians;
  2. one process per point instead of batches: `socsim estimate --json` of --single points
     one after the other, the seconds each (median): what the stage would cost without
     batching;
  3. the simulate stage (`socsim sweep run FILE`): the candidates, their count and the
     command's wall time, and each point's `socsim run` (the database's wall_s: median and
     sum);
  4. simulating every point instead, extrapolated: points x the median run's wall time / -j.

Run after scripts/build.sh, e.g.
  bench/two_stage_speed.py configs/sweeps/mobilenet_two_stage.yaml --dir /tmp/two -j 2
"""
import argparse
import json
import os
import re
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAGE = re.compile(r"estimate stage: (\d+) point\(s\) estimated in ([0-9.]+) s")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def sweep(args, *more):
    """Runs `socsim sweep run FILE MORE`: (result, wall seconds, CPU seconds of the sweep
    and everything it started)."""
    cpu = children_cpu()
    start = time.perf_counter()
    done = subprocess.run([args.socsim, "sweep", "run", args.file, "--dir", args.dir,
                           "-j", str(args.jobs), *more], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.exit(f"socsim sweep run failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done, wall, children_cpu() - cpu


def db(args):
    conn = sqlite3.connect(os.path.join(args.dir, "results.db"))
    conn.row_factory = sqlite3.Row
    return conn


def main(argv=None):
    build = os.path.join(ROOT, "build")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("file", help="a sweep file with a two_stage section")
    parser.add_argument("--dir", required=True, help="results folder (kept between runs)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3, help="timed estimate stages")
    parser.add_argument("--single", type=int, default=100,
                        help="points estimated one process each")
    parser.add_argument("--socsim", default=os.path.join(build, "bin", "socsim"))
    args = parser.parse_args(argv)

    done, first_wall, _ = sweep(args, "--stage", "estimate")  # compiles the model, plans
    conn = db(args)
    name = conn.execute("SELECT name FROM sweeps WHERE file=?",
                        (os.path.abspath(args.file),)).fetchone()["name"]
    rates, walls, cpus, points = [], [], [], 0
    for _ in range(args.runs):
        with conn:
            conn.execute("UPDATE points SET estimate_key=NULL WHERE sweep=?", (name,))
        done, wall, cpu = sweep(args, "--stage", "estimate")
        n, seconds = STAGE.search(done.stderr).groups()
        points = int(n)
        rates.append(60 * points / float(seconds))
        walls.append(wall)
        cpus.append(cpu)
    rate, stage_wall = statistics.median(rates), statistics.median(walls)
    stage_cpu = statistics.median(cpus)

    # one process per point: the same `socsim estimate` the batch runs, one point each
    rows = conn.execute("SELECT params FROM points WHERE sweep=? AND active=1 ORDER BY idx",
                        (name,)).fetchall()
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from socsim_sweep.study import Study
    study = Study(args.file, args.dir, args.socsim, quiet=True)
    study.plan()
    singles = []
    single_cpu = children_cpu()
    step = max(1, len(study.plans) // args.single)
    with tempfile.TemporaryDirectory() as tmp:
        for plan in study.plans[::step][:args.single]:
            cmd = [args.socsim, "estimate", "--model", plan.program, "-c", plan.config,
                   "--json", os.path.join(tmp, "e.json")]
            for s in plan.sets:
                cmd += ["--set", s]
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            singles.append(time.perf_counter() - start)
    single_s = statistics.median(singles)
    single_cpu = (children_cpu() - single_cpu) / len(singles)

    done, sim_wall, _ = sweep(args)
    sims = [r["wall_s"] for r in conn.execute(
        "SELECT wall_s FROM points WHERE sweep=? AND active=1 AND candidate=1 AND "
        "status='ok'", (name,))]
    cands = conn.execute("SELECT COUNT(*) FROM points WHERE sweep=? AND active=1 AND "
                         "candidate=1", (name,)).fetchone()[0]
    total = len(rows)
    with open(os.path.join(args.dir, name, "two_stage.json")) as f:
        comparison = json.load(f)
    per_run = statistics.median(sims) if sims else float("nan")
    everything = total * per_run / args.jobs
    two_stage_s = stage_wall + sim_wall
    print("| figure | value |\n|---|---|")
    print(f"| points | {total:,} ({os.path.basename(args.file)}) |")
    print(f"| estimate stage, points per minute (median of {args.runs}, -j {args.jobs}) | "
          f"{rate:,.0f} ({points:,} points in {60 * points / rate:.1f} s) |")
    print(f"| the first run (zoo export, compilation, planning, estimates) | "
          f"{first_wall:.1f} s |")
    print(f"| estimate stage, the whole command (planning, choice, CSV, plot), median | "
          f"{stage_wall:.1f} s wall, {stage_cpu:.1f} s CPU "
          f"({1000 * stage_cpu / total:.1f} ms a point) |")
    print(f"| one `socsim estimate` process per point instead ({len(singles)} points, one "
          f"at a time) | {single_s * 1000:.0f} ms wall (median), {single_cpu * 1000:.1f} ms "
          f"CPU a point: {total * single_s / args.jobs:.0f} s for {total:,} points on "
          f"{args.jobs} processes |")
    print(f"| candidates simulated | {len(sims)} of {cands} candidates "
          f"({comparison['margin_percent']}) |")
    print(f"| simulate stage, wall | {sim_wall:.1f} s ({per_run:.2f} s a run, median; "
          f"{sum(sims):.1f} s of runs) |")
    print(f"| both stages | {two_stage_s:.1f} s |")
    print(f"| simulating every point instead (extrapolated: {total:,} x {per_run:.2f} s / "
          f"{args.jobs}) | {everything:,.0f} s ({everything / 3600:.1f} h): "
          f"{everything / two_stage_s:.0f}x the two stages |")
    errors = [i["error_percent"][o] for i in comparison["candidates_table"]
              for o in comparison["objectives"] if i["error_percent"][o]]
    if errors:
        print(f"| estimate's error over the simulated candidates (non-zero ones) | "
              f"{min(errors):+.1f} % to {max(errors):+.1f} % |")
    for o, r in comparison["order_changes"].items():
        print(f"| candidate pairs swapped by the simulation, {o} | {r['swapped']} of "
              f"{r['pairs']} (largest rank shift {r['largest_rank_shift']}) |")
    print(f"| fronts | estimated {comparison['estimated_front']}, simulated "
          f"{comparison['simulated_front']}, agree: {comparison['fronts_agree']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
