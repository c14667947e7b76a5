"""One sweep against one results folder: expand, compile, plan, decide what to run, record.

Shared by `run`, `status` and `report` and by both backends, so that a point is decided,
run and recorded the same way wherever it runs.
"""

import concurrent.futures
import fcntl
import os
import sys

from socsim_sweep import expand, metrics, plan as plan_mod, runner, spec
from socsim_sweep.db import Database
from socsim_sweep.models import ModelCache
from socsim_sweep.progress import Progress
from socsim_sweep.source import SweepError

DB_NAME = "results.db"


def log(message):
    print(f"socsim sweep: {message}", file=sys.stderr, flush=True)


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def default_config():
    """socsim's default SoC description (that of this checkout)."""
    return os.path.join(ROOT, "configs", "soc", "default.yaml")


def open_db(results_dir):
    os.makedirs(results_dir, exist_ok=True)
    return Database(os.path.join(results_dir, DB_NAME))


class Study:
    """A sweep file against a results folder; `plan()` expands it and compiles its models
    (what `run` needs); `status` and `report` need only the file's metrics."""

    def __init__(self, sweep_file, results_dir, socsim, jobs=1, quiet=False):
        self.env = plan_mod.Environment(socsim, results_dir)
        self.sweep = spec.load(sweep_file, default_config(), socsim)
        self.jobs = jobs
        self.quiet = quiet
        self.db = open_db(self.env.results_dir)
        self.plans = []
        self.excluded = self.duplicates = self.models_compiled = 0
        self._lock = None

    def plan(self):
        points, self.excluded = expand.expand(self.sweep)
        compile_jobs = plan_mod.compile_jobs(self.sweep, points)
        cache = ModelCache(self.env.results_dir, self.jobs, log=None if self.quiet else log)
        groups = cache.prepare([j for j in compile_jobs if j is not None])
        self.models_compiled = len(groups)
        self.plans, self.duplicates = plan_mod.build_plans(self.sweep, points, compile_jobs,
                                                           self.env)
        self.db.register(self.sweep, self.plans)

    def summary(self):
        s = f"{len(self.plans)} points"
        notes = []
        if self.excluded:
            notes.append(f"{self.excluded} excluded by constraints")
        if self.duplicates:
            notes.append(f"{self.duplicates} identical to others")
        if self.models_compiled:
            notes.append(f"{self.models_compiled} distinct model(s)")
        return s + (f" ({', '.join(notes)})" if notes else "")

    def lock(self):
        """Holds the sweep's lock for this process (one `run` of a sweep at a time)."""
        path = os.path.join(self.env.results_dir, f".{self.sweep.name}.lock")
        self._lock = open(path, "w")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SweepError(f"sweep '{self.sweep.name}' is being run by another process "
                             f"(lock {path})") from None

    # ---- what to run --------------------------------------------------------------------

    def select(self, rerun_failed=False, only=None):
        """(plans to run now, {reason: points skipped}). Finished points found on disk are
        recorded on the way (a killed run's work is kept); ok points are skipped, failed
        ones unless `rerun_failed`, points submitted to Slurm and not back yet; `only` (a
        set of point indices) runs exactly those."""
        todo, skipped = [], {}
        for plan in self.plans:
            row = self.db.point(self.sweep.name, plan.key)
            if only is not None:
                if plan.index in only:
                    todo.append(plan)
                continue
            status = row["status"]
            if status not in ("ok", "failed", "submitted"):
                result = runner.read_result(plan.report_dir)
                if result is not None and result.get("key") == plan.key:
                    status = self.record(plan.key, plan.params, plan.report_dir, result)
            if status in ("ok", "submitted") or (status == "failed" and not rerun_failed):
                skipped[status] = skipped.get(status, 0) + 1
                continue
            todo.append(plan)
        if only is not None:
            unknown = only - {p.index for p in self.plans}
            if unknown:
                raise SweepError(f"no point {', '.join(map(str, sorted(unknown)))} in sweep "
                                 f"'{self.sweep.name}' (points 0..{len(self.plans) - 1})")
        return todo, skipped

    def record(self, key, params, report_dir, result):
        """Reads a finished point's metrics and stores it; returns its status."""
        values, errors, reports = metrics.evaluate(self.sweep, params, report_dir)
        if result["status"] != "ok":
            errors = {}
        try:
            sim_seconds = (reports.get("summary") or {}).get("host_seconds")
        except metrics.EvalError:
            sim_seconds = None
        self.db.record(self.sweep.name, key, result, values, errors, sim_seconds)
        return result["status"]

    def recompute(self):
        """Reads the metrics of every finished point again (after the metrics changed)."""
        n = 0
        for row in self.db.points([self.sweep.name], status=["ok", "failed"]):
            result = runner.read_result(row["report_dir"])
            if result is not None and result.get("key") == row["key"]:
                self.record(row["key"], row["params"], row["report_dir"], result)
                n += 1
        return n

    # ---- the local backend --------------------------------------------------------------

    def run_local(self, todo, jobs):
        """Runs the plans on `jobs` local processes; returns (ok, failed)."""
        progress = Progress(len(todo))
        progress.redraw()
        ok = failed = 0
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        pool = concurrent.futures.ThreadPoolExecutor(max(1, jobs))
        futures = {pool.submit(self._run_one, plan, env): plan for plan in todo}
        try:
            for future in _as_completed(futures, progress.redraw):
                plan = futures[future]
                result = future.result()
                if result is None:  # interrupted: runs again next time
                    self.db.mark(self.sweep.name, [plan.key], "pending")
                    continue
                status = self.record(plan.key, plan.params, plan.report_dir, result)
                good = status == "ok"
                ok += good
                failed += not good
                what = f"point {plan.index} {describe_params(plan.params)}"
                if good:
                    message = f"ok     {what} ({result['wall_s']:.1f} s)"
                else:
                    message = f"FAILED {what}: {result['error']}"
                progress.advance(good, message)
        except BaseException:
            progress.close()
            pool.shutdown(wait=False, cancel_futures=True)
            runner.stop_all()
            pool.shutdown(wait=True)
            # Stopped or unrecorded runs are not running any more: the next run takes them
            # (a result.json written as the signal came is recorded then).
            self.db.unmark_running(self.sweep.name, [p.key for p in todo])
            raise
        pool.shutdown(wait=True)
        progress.close()
        return ok, failed

    def _run_one(self, plan, env):
        self.db_mark_running(plan)
        return runner.run_plan(plan, self.env.socsim, env)

    def db_mark_running(self, plan):
        # SQLite connections belong to their thread: a short-lived one per mark.
        db = open_db(self.env.results_dir)
        try:
            db.mark(self.sweep.name, [plan.key], "running", backend="local")
        finally:
            db.close()


def _as_completed(futures, tick, every_s=1.0):
    """Futures as they complete, calling `tick()` every second while waiting."""
    pending = set(futures)
    while pending:
        done, pending = concurrent.futures.wait(pending, timeout=every_s,
                                                return_when=concurrent.futures.FIRST_COMPLETED)
        if not done:
            tick()
        yield from done


def describe_params(params, limit=120):
    text = " ".join(f"{k}={short(v)}" for k, v in params.items())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def short(value):
    """A value as shown in tables and plots: presets by their file's stem."""
    if isinstance(value, str) and value.endswith((".yaml", ".yml")) and "/" in value:
        return os.path.splitext(os.path.basename(value))[0]
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if value is None:
        return "none"
    return str(value)
