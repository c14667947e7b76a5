"""`socsim sweep`: design-space exploration over socsim runs (docs/sweeps.md).

  socsim sweep run FILE       expand the sweep, compile its models, run the points that have
                              no result yet (locally with -j N, or as a Slurm job array),
                              then write the CSV and the plots
  socsim sweep status SWEEP   counts per status, the failed points with their errors; with
                              Slurm, follows the queue and records finished points
  socsim sweep report SWEEP.. the points table, CSV and plots of one or more sweeps
  socsim sweep points FILE    the points a sweep file expands to, without running anything
  socsim sweep query SQL      any SQL over the results database

SWEEP is a sweep file or the name of a sweep in the results folder (--dir, default
./socsim-sweeps). Exit status: 0 when every point is ok, 1 when some failed or a metric
could not be evaluated on some point, 2 for a bad sweep file or command line.
"""

import argparse
import os
import signal
import sqlite3
import sys

from socsim_sweep import report, runner, slurm, twostage
from socsim_sweep.expand import expand
from socsim_sweep.study import Study, default_config, describe_params, log, open_db
from socsim_sweep.source import SweepError
from socsim_sweep import spec

DEFAULT_DIR = "socsim-sweeps"


def socsim_binary(args):
    path = args.socsim or os.environ.get("SOCSIM_BINARY")
    if not path:
        raise SweepError("which socsim? run this as `socsim sweep`, or give --socsim PATH")
    if not os.path.isfile(path):
        raise SweepError(f"--socsim {path}: no such file")
    return os.path.abspath(path)


def sweep_file(ref, results_dir):
    """A sweep file from a path or from a sweep's name in the results database."""
    if os.path.isfile(ref):
        return ref
    db_path = os.path.join(results_dir, "results.db")
    if os.path.isfile(db_path):
        db = open_db(results_dir)
        row = db.sweep_row(ref)
        known = db.sweeps()
        db.close()
        if row is not None:
            if not os.path.isfile(row["file"]):
                raise SweepError(f"sweep '{ref}': its file {row['file']} is gone")
            return row["file"]
        raise SweepError(f"{ref}: no such file, nor a sweep of {db_path} (sweeps: "
                         f"{', '.join(known) or 'none'})")
    raise SweepError(f"{ref}: no such file (and no results database in {results_dir})")


def parse_points(text):
    out = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        if not lo.isdigit() or (hi and not hi.isdigit()):
            raise SweepError(f"--point {text}: expected point numbers like 3,7,10-12")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


# ---- commands ---------------------------------------------------------------------------

def cmd_run(args):
    study = Study(args.file, args.dir, socsim_binary(args), jobs=args.jobs)
    study.lock()
    stale = runner.remove_stale_temporaries(os.path.join(study.env.results_dir, "points"))
    if stale:
        log(f"removed {stale} temporary folder(s) of runs killed before they could clean up")
    study.plan()
    only = parse_points(args.point) if args.point else None
    log(f"sweep '{study.sweep.name}': {study.summary()}")
    if _has_slurm_points(study):
        slurm.refresh(study)
    candidates = None
    if study.sweep.two_stage:
        candidates = estimate_stage(study, args)
        if args.stage == "estimate":
            return finish(study, args)
    elif args.stage == "estimate":
        raise SweepError(f"--stage estimate: {study.sweep.file} has no two_stage section "
                         "(docs/sweeps.md, Two-stage studies)")
    todo, skipped = study.select(rerun_failed=args.rerun_failed, only=only)
    if candidates is not None and only is None:
        left = sum(1 for p in todo if p.key not in candidates)
        todo = [p for p in todo if p.key in candidates]
        if left:
            log(f"{left} point(s) are not candidates: estimated, not simulated")
    if skipped.get("ok"):
        log(f"{skipped['ok']} point(s) already have results in {study.env.results_dir}")
    if skipped.get("failed"):
        log(f"{skipped['failed']} point(s) failed before (--rerun-failed runs them again)")
    if skipped.get("submitted"):
        log(f"{skipped['submitted']} point(s) are in the Slurm queue (`status` follows them)")
    if todo:
        if args.backend == "local":
            log(f"running {len(todo)} point(s) on {args.jobs} local process(es)")
            study.run_local(todo, args.jobs)
        else:
            job, tasks, folder = slurm.submit(study, todo, {
                "points_per_task": args.points_per_task, "throttle": args.throttle,
                "partition": args.partition, "time": args.time, "mem": args.mem,
                "sbatch_args": args.sbatch_arg})
            log(f"submitted {len(todo)} point(s) as Slurm job array {job} ({tasks} tasks; "
                f"files in {folder})")
            if not args.wait:
                log(f"follow it with: socsim sweep status {args.file} --dir {args.dir}")
                return 0
            slurm.wait(study, [p.key for p in todo], args.poll)
    return finish(study, args)


def estimate_stage(study, args):
    """Stage 1 of a two-stage study: estimates the points without one, chooses the
    candidates; returns their keys."""
    figures = twostage.run_estimates(study, args.jobs, log)
    rate = (f" ({60 * figures['estimated'] / figures['seconds']:.0f} points/min)"
            if figures["estimated"] and figures["seconds"] > 0 else "")
    log(f"estimate stage: {figures['estimated']} point(s) estimated in "
        f"{figures['seconds']:.1f} s{rate}, {figures['kept']} kept from before")
    keys, choice = twostage.choose(study)
    log(f"estimate stage: {choice['front']} point(s) on the estimated front, "
        f"{choice['candidates']} candidate(s) within the margin to simulate"
        + (f"; {choice['without_estimate']} point(s) without an estimate"
           if choice["without_estimate"] else ""))
    return keys


def finish(study, args):
    """The CSV, the plots and the status lines at the end of a run."""
    rows = study.db.points([study.sweep.name])
    outputs(study.sweep, rows, study.env.results_dir, sys.stdout)
    counts = study.db.counts(study.sweep.name)
    failed = [r for r in rows if r["status"] == "failed"]
    report.print_status(study.sweep.name, counts, failed, {}, sys.stdout,
                        rerun_hint(study.sweep, args, failed))
    report.print_energy_note(rows, sys.stdout)
    problems = report.metric_problems(rows)
    report.print_metric_problems(problems, sys.stdout)
    estimate_problems = two_stage_outputs(study.sweep, rows, study.env.results_dir)
    return 1 if failed or problems or estimate_problems else 0


def two_stage_outputs(sweep, rows, results_dir, out=sys.stdout):
    """A two-stage study's comparison, CSV, JSON and plot; returns the points without an
    estimate (each printed with its reason)."""
    if not sweep.two_stage:
        return []
    comparison = twostage.compare(sweep, rows)
    twostage.print_comparison(comparison, out)
    twostage.write_outputs(sweep, rows, comparison, os.path.join(results_dir, sweep.name),
                           out)
    return twostage.print_estimate_problems(rows, out)


def rerun_hint(sweep, args, failed):
    slurm_used = getattr(args, "backend", None) == "slurm" or \
        any(r.get("backend") == "slurm" for r in failed)
    backend = " --backend slurm" if slurm_used else ""
    points = ",".join(str(r["idx"]) for r in failed[:20])
    return f"socsim sweep run {sweep.file} --dir {args.dir}{backend} --point {points}"


def outputs(sweep, rows, results_dir, out):
    """The sweep's CSV and the plots of its file, in results_dir/<sweep>/."""
    folder = os.path.join(results_dir, sweep.name)
    write_csv(rows, os.path.join(folder, "results.csv"), out)
    draw_plots(sweep.plots, rows, os.path.join(folder, "plots"), out)


def write_csv(rows, path, out):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    report.write_csv(rows, path)
    out.write(f"results: {path} ({len(rows)} points)\n")


def draw_plots(specs, rows, folder, out):
    """Draws the plots (spec.PlotSpec) of the points that have metrics; prints the Pareto
    fronts."""
    from socsim_sweep import plots  # matplotlib: only when plotting
    usable = [r for r in rows if r["metrics"]]
    for p in specs:
        path, _ = plots.draw(p, usable, folder)
        out.write(f"plot: {path}\n")
        if p.kind == "pareto":
            print_front(plots.plot_rows(p, usable), p.fields, out)


def print_front(rows, fields, out):
    x, y = fields["x"], fields["y"]
    front, _ = report.pareto_front(rows, x, y, tuple(fields.get("minimize", (True, True))))
    out.write(f"Pareto front of {x} and {y} ({len(front)} of {len(rows)} points):\n")
    params, _ = report.columns(front)
    report.print_table(front, out, params + [x, y])


def cmd_status(args):
    study = Study(sweep_file(args.sweep, args.dir), args.dir, socsim_binary(args))
    queued = slurm.refresh(study) if _has_slurm_points(study) else {}
    counts = study.db.counts(study.sweep.name)
    failed = study.db.points([study.sweep.name], status=["failed"])
    report.print_status(study.sweep.name, counts, failed, queued, sys.stdout,
                        rerun_hint(study.sweep, args, failed))
    ok = study.db.points([study.sweep.name], status=["ok"])
    report.print_energy_note(ok, sys.stdout)
    problems = report.metric_problems(ok)
    report.print_metric_problems(problems, sys.stdout)
    estimate_problems = []
    if study.sweep.two_stage:
        rows = study.db.points([study.sweep.name])
        twostage.print_stage_status(rows, sys.stdout)
        estimate_problems = twostage.print_estimate_problems(rows, sys.stdout)
    return 1 if failed or problems or estimate_problems else 0


def _has_slurm_points(study):
    return bool(study.db.points([study.sweep.name], status=["submitted"]))


# --line/--pareto/--heatmap of `report`: the fields each takes, and how many are required
CLI_PLOTS = {"line": (("x", "y", "series"), 2), "pareto": (("x", "y"), 2),
             "heatmap": (("x", "y", "value"), 3)}


def cli_plots(args, rows):
    """The plots asked for on the command line, their fields checked against the rows."""
    params, metrics = report.columns(rows)
    known = set(params) | set(metrics)
    specs = []
    for kind, (keys, required) in CLI_PLOTS.items():
        for item in getattr(args, kind) or []:
            fields = item.split(",")
            if not required <= len(fields) <= len(keys):
                raise SweepError(f"--{kind} {item}: expected " +
                                 ",".join(k.upper() for k in keys[:required]) +
                                 "".join(f"[,{k.upper()}]" for k in keys[required:]))
            for f in fields:
                if f not in known:
                    raise SweepError(f"--{kind} {item}: '{f}' is neither a parameter nor a "
                                     f"metric of these points (known: {', '.join(sorted(known))})")
            specs.append(spec.PlotSpec(kind, dict(zip(keys, fields)), None))
    return specs


def cmd_report(args):
    socsim = socsim_binary(args)
    studies = [Study(sweep_file(ref, args.dir), args.dir, socsim) for ref in args.sweeps]
    if args.recompute:
        for s in studies:
            log(f"sweep '{s.sweep.name}': metrics read again for {s.recompute()} points")
    names = [s.sweep.name for s in studies]
    rows = studies[0].db.points(names, active_only=not args.all)
    if args.status:
        rows = [r for r in rows if r["status"] in args.status.split(",")]
    extra = cli_plots(args, rows)
    # A two-stage study's points left out by the estimate were not simulated: the table
    # shows the others (two_stage.csv has every point).
    shown = [r for r in rows if r["status"] != "estimated"]
    report.print_table(shown, sys.stdout, args.columns.split(",") if args.columns else None)
    if len(shown) < len(rows):
        print(f"({len(rows) - len(shown)} point(s) estimated only, not simulated: "
              "two_stage.csv lists them)")
    estimate_problems = []
    if len(studies) == 1 and not args.csv and not args.out:
        outputs(studies[0].sweep, rows, args.dir, sys.stdout)
        folder = os.path.join(args.dir, names[0])
        estimate_problems = two_stage_outputs(studies[0].sweep, rows, args.dir)
    else:
        folder = args.out or os.path.join(args.dir, "report-" + "+".join(names))
        write_csv(rows, args.csv or os.path.join(folder, "results.csv"), sys.stdout)
    draw_plots(extra, rows, os.path.join(folder, "plots"), sys.stdout)
    report.print_energy_note(rows, sys.stdout)
    # Metrics some ok point could not evaluate (a typo in an edited metric, after
    # --recompute): the block run and status end with, and exit 1 as they do.
    problems = report.metric_problems(rows)
    report.print_metric_problems(problems, sys.stdout)
    return 1 if problems or estimate_problems else 0


def cmd_points(args):
    sweep = spec.load(args.file, default_config(), socsim_binary(args))
    points, excluded = expand(sweep)
    for i, p in enumerate(points):
        print(f"{i:4d}  {describe_params(p, 200)}")
    print(f"{len(points)} points" + (f" ({excluded} excluded by constraints)"
                                     if excluded else ""))
    return 0


def cmd_query(args):
    db = open_db(args.dir)
    names, rows = db.query(args.sql)
    out = sys.stdout
    if names:
        widths = [max([len(n)] + [len(report.format_number(r[i])) for r in rows])
                  for i, n in enumerate(names)]
        out.write("  ".join(n.ljust(w) for n, w in zip(names, widths)).rstrip() + "\n")
        for r in rows:
            out.write("  ".join(report.format_number(v).ljust(w)
                                for v, w in zip(r, widths)).rstrip() + "\n")
    return 0


def cmd_task(args):
    return slurm.task_main(args.tasks, args.index)


# ---- the command line -------------------------------------------------------------------

def parser():
    p = argparse.ArgumentParser(
        prog="socsim sweep", description=__doc__.split("\n\n")[0],
        epilog="Examples:\n"
               "  socsim sweep run configs/sweeps/mobilenet_npu.yaml -j 2\n"
               "  socsim sweep run configs/sweeps/mobilenet_npu.yaml --backend slurm "
               "--throttle 4 --wait\n"
               "  socsim sweep status mobilenet_npu\n"
               "  socsim sweep report mobilenet_npu --pareto cost.npu_area_mm2,execute_ms\n"
               "See docs/sweeps.md for the sweep file.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def common(sp):
        sp.add_argument("--dir", default=DEFAULT_DIR,
                        help=f"results folder: database, point reports, models, CSV and "
                             f"plots (default ./{DEFAULT_DIR})")
        sp.add_argument("--socsim", help="the socsim binary (default: the one running this)")

    r = sub.add_parser("run", help="run the points that have no result yet",
                       description="Expand the sweep, compile each distinct model once, run "
                                   "the points without a result (a killed or interrupted "
                                   "sweep resumes where it stopped), record them in the "
                                   "database, then write the CSV and the plots.")
    r.add_argument("file", help="sweep description (YAML, docs/sweeps.md)")
    common(r)
    r.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="local processes at a time (default: all cores, "
                        f"{os.cpu_count()} here)")
    r.add_argument("--backend", choices=["local", "slurm"], default="local",
                   help="where the points run (default local)")
    r.add_argument("--rerun-failed", action="store_true",
                   help="run the failed points again too")
    r.add_argument("--stage", choices=["all", "estimate"], default="all",
                   help="a two-stage study (the file's two_stage section): `estimate` runs "
                        "the estimate stage alone and chooses the candidates; `all` "
                        "(default) simulates the candidates too")
    r.add_argument("--point", metavar="N[,M,A-B]",
                   help="run exactly these points (numbers as `points` and `status` show "
                        "them), whatever their status")
    g = r.add_argument_group("Slurm (--backend slurm)")
    g.add_argument("--partition", help="sbatch --partition")
    g.add_argument("--time", help="sbatch --time per task, e.g. 00:30:00")
    g.add_argument("--mem", help="sbatch --mem per task, e.g. 2G")
    g.add_argument("--throttle", type=int, metavar="K",
                   help="at most K array tasks at a time (--array=...%%K)")
    g.add_argument("--points-per-task", type=int, default=1, metavar="N",
                   help="points run one after the other by each array task (default 1)")
    g.add_argument("--sbatch-arg", action="append", default=[], metavar="ARG",
                   help="one more sbatch argument (repeatable), e.g. --sbatch-arg=--qos=low")
    g.add_argument("--wait", action="store_true",
                   help="follow the job until every point has finished, then write the "
                        "outputs (default: return after submitting)")
    g.add_argument("--poll", type=float, default=2.0, help="seconds between queue checks")
    r.set_defaults(func=cmd_run)

    s = sub.add_parser("status", help="counts per status and the failed points",
                       description="Counts of points per status and the failed points with "
                                   "their errors. Points submitted to Slurm are followed "
                                   "(squeue, sacct, the tasks' outputs) and recorded.")
    s.add_argument("sweep", help="sweep file or sweep name")
    common(s)
    s.set_defaults(func=cmd_status)

    rp = sub.add_parser("report", help="table, CSV and plots of one or more sweeps",
                        description="Print the points table of one or more sweeps and write "
                                    "the CSV and the sweep file's plots; more plots from "
                                    "the command line. Several sweeps are reported together "
                                    "(with a sweep column).")
    rp.add_argument("sweeps", nargs="+", metavar="SWEEP", help="sweep files or names")
    common(rp)
    rp.add_argument("--csv", help="write the CSV here")
    rp.add_argument("--out", help="folder for the CSV and plots of this report")
    rp.add_argument("--columns", help="comma-separated parameters and metrics to print")
    rp.add_argument("--status", help="only points with these statuses (e.g. ok,failed)")
    rp.add_argument("--all", action="store_true",
                    help="include points no longer in the sweep file")
    rp.add_argument("--recompute", action="store_true",
                    help="read the metrics again from the reports (after editing metrics)")
    rp.add_argument("--line", action="append", metavar="X,Y[,SERIES]",
                    help="plot metric Y against parameter X")
    rp.add_argument("--pareto", action="append", metavar="X,Y",
                    help="Pareto front of metrics X and Y (both minimised)")
    rp.add_argument("--heatmap", action="append", metavar="X,Y,VALUE",
                    help="heat map of metric VALUE over parameters X and Y")
    rp.set_defaults(func=cmd_report)

    pt = sub.add_parser("points", help="list the points a sweep file expands to")
    pt.add_argument("file")
    pt.add_argument("--socsim", help="the socsim binary (default: the one running this)")
    pt.set_defaults(func=cmd_points)

    q = sub.add_parser("query", help="run SQL over the results database",
                       description="Run SQL over the results database (tables sweeps, "
                                   "points, point_values, jobs; view results), e.g. "
                                   "\"SELECT sweep, name, value FROM results WHERE "
                                   "kind='metric' AND name='cycles'\".")
    q.add_argument("sql")
    q.add_argument("--dir", default=DEFAULT_DIR, help="results folder")
    q.set_defaults(func=cmd_query)

    t = sub.add_parser("task", help="(internal) run one Slurm array task of a submission")
    t.add_argument("tasks")
    t.add_argument("index", type=int)
    t.set_defaults(func=cmd_task)
    return p


# As `socsim run` (docs/platform.md#exit-status): a file that could not be written whole.
OUTPUT_ERROR = 74


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP, handled as Ctrl-C is (`signum` says which)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _interrupt(signum, frame):
    signal.signal(signum, signal.SIG_DFL)  # a second one ends the process at once
    raise Interrupted(signum)


def main(argv=None):
    for s in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, _interrupt)
    p = parser()
    args = p.parse_args(argv)
    if not getattr(args, "command", None):
        p.print_help()
        return 2
    try:
        return args.func(args)
    except SweepError as e:
        print(f"socsim sweep: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        signum = getattr(e, "signum", signal.SIGINT)
        print(f"\nsocsim sweep: interrupted by {signal.Signals(signum).name}; run the same "
              "command again to resume", file=sys.stderr)
        return 128 + signum
    except BrokenPipeError:
        return 0
    except sqlite3.Error as e:
        # A full disk or an I/O error under the results database: told, not a traceback.
        print(f"socsim sweep: error: the results database in {getattr(args, 'dir', '?')}: {e}",
              file=sys.stderr)
        return OUTPUT_ERROR
    except OSError as e:
        # A CSV, a plot or a report folder that could not be written (or read) whole.
        where = f" {e.filename}" if e.filename else ""
        print(f"socsim sweep: error: I/O error on{where}: {e.strerror or e}", file=sys.stderr)
        return OUTPUT_ERROR
