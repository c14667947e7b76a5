"""Two-stage studies (docs/sweeps.md, "Two-stage studies"): estimate every point of a sweep
with `socsim estimate` (analytic, thousands of points a minute), keep the points on or near
the Pareto front of the estimated objectives, simulate only those with `socsim run`, and
set the estimate beside the simulation per candidate.

Stage 1 runs many points per `socsim estimate --batch` process (a process per point costs
more than its estimate) and stores each point's estimate metrics in the results database as
the batches finish, so a killed stage resumes with the points that have none. An estimate is
redone when its key changes: the point's configuration hash (the simulator, the program, the
SoC and its --set values), the estimate metrics' expressions and the cost model's figures.

The candidates are the points within the margin of the estimated front: a point is left out
when another one is better than it by more than the margin in every objective,
q_i <= p_i - margin_i * |p_i| for every objective i and q_i < p_i for one of them (with
margins of 0, the plain Pareto front).
"""

import concurrent.futures
import csv
import hashlib
import json
import os
import subprocess
import time

from socsim_sweep import runner
from socsim_sweep.expr import EvalError
from socsim_sweep.metrics import earlier_or_param
from socsim_sweep.source import SweepError
from socsim_sweep.spec import ESTIMATE_COSTS


# ---- the selection ----------------------------------------------------------------------

def dominates(q, p, margins=None):
    """True when q is better than p in every objective (minimised) by more than the margin,
    q_i <= p_i - m_i * |p_i| for all i, and strictly better in one, q_i < p_i."""
    margins = margins or (0.0,) * len(p)
    if not all(qi <= pi - m * abs(pi) for qi, pi, m in zip(q, p, margins)):
        return False
    return any(qi < pi for qi, pi in zip(q, p))


def select(values, margins=None):
    """The estimated front and the candidates of a list of objective tuples (None for a
    point without every value): (front, candidates), sets of indices into `values`. The
    front is the points no other dominates; a candidate is a point no other dominates by
    more than `margins` (fractions, one per objective). Checking a point against the front
    alone is enough: a point that dominates p by the margin is itself dominated by (or is)
    a front point, which then dominates p by the margin too."""
    usable = sorted((v, i) for i, v in enumerate(values) if v is not None)
    front = []  # (values, index), in lexicographic order
    for v, i in usable:
        # a point later in lexicographic order cannot dominate an earlier one
        if not any(dominates(f, v) for f, _ in front):
            front.append((v, i))
    margins = tuple(margins) if margins else (0.0,) * (len(usable[0][0]) if usable else 0)
    candidates = {i for v, i in usable if not any(dominates(f, v, margins) for f, _ in front)}
    return {i for _, i in front}, candidates


# ---- stage 1: the estimates -------------------------------------------------------------

def estimate_key(sweep, plan):
    identity = [plan.key, sweep.two_stage.definition(), sweep.cost.describe()]
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def estimate_metrics(sweep, params, estimate):
    """(metrics, errors) of one point's estimate (socsim estimate --json's object)."""
    geometry = (estimate.get("cores"), estimate.get("rows"), estimate.get("columns"),
                estimate.get("buffer_per_core"))
    costs = sweep.cost.npu_costs(geometry if all(isinstance(g, int) for g in geometry)
                                 else None, estimate.get("layers", []))
    values, errors = {}, {}

    def lookup(name):
        found = earlier_or_param(name, values, params, "estimate metric")
        if found[0]:
            return found
        if name == "estimate":
            return True, estimate
        if name.startswith("cost."):
            if name in costs:
                return True, costs[name]
            raise EvalError(f"no {name} for an estimate (it has {', '.join(ESTIMATE_COSTS)})")
        if name == "cost":
            return True, {k.split(".", 1)[1]: v for k, v in costs.items()}
        return False, None

    for name, expr in sweep.two_stage.metrics:
        try:
            value = expr.evaluate(lookup)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise EvalError(f"the value is a {type(value).__name__}, not a number")
            values[name] = value
        except EvalError as e:
            values[name] = None
            errors[name] = str(e)
    for name in ESTIMATE_COSTS:
        values.setdefault(name, costs.get(name))
    return values, errors


def _batch(socsim, plans):
    """Runs one `socsim estimate --batch` over the plans: {plan index: estimate or error}."""
    lines = "".join(json.dumps({"id": i, "model": p.program, "config": p.config,
                                "set": p.sets}) + "\n" for i, p in enumerate(plans))
    proc = subprocess.Popen([socsim, "estimate", "--batch", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=runner._die_with_parent)
    with runner._active_lock:
        runner._active.add(proc)
    try:
        out, err = proc.communicate(lines)
    finally:
        with runner._active_lock:
            runner._active.discard(proc)
    if runner.interrupted(proc.returncode):
        raise KeyboardInterrupt
    if proc.returncode != 0:
        message = err.strip().splitlines()[-1] if err.strip() else f"exit {proc.returncode}"
        raise SweepError(f"socsim estimate --batch failed: {message}")
    results = {}
    for line in out.splitlines():
        item = json.loads(line)
        results[item["id"]] = item
    return {i: results.get(i, {"error": "socsim estimate --batch gave no result"})
            for i in range(len(plans))}


def run_estimates(study, jobs, log):
    """Stage 1: estimates the points of `study` (planned) that have none for their current
    estimate key, `jobs` batches at a time. Returns a dict of figures: points, estimated
    (now), kept (from before), failed (now), seconds."""
    sweep = study.sweep
    start = time.perf_counter()
    have = study.db.estimate_keys(sweep.name)
    keys = {p.key: estimate_key(sweep, p) for p in study.plans}
    todo = [p for p in study.plans if have.get(p.key) != keys[p.key]]
    failed = 0
    ready = [(p.key, keys[p.key], None, f"the model did not compile: {p.error}")
             for p in todo if p.error]
    failed += len(ready)
    study.db.record_estimates(sweep.name, ready)
    todo = [p for p in todo if not p.error]
    size = sweep.two_stage.batch
    batches = [todo[i:i + size] for i in range(0, len(todo), size)]
    if batches:
        log(f"estimate stage: {len(todo)} point(s) in {len(batches)} batch(es) of up to "
            f"{size} on {jobs} process(es)")
    done = 0
    pool = concurrent.futures.ThreadPoolExecutor(max(1, jobs))
    futures = {pool.submit(_batch, study.env.socsim, b): b for b in batches}
    try:
        for future in concurrent.futures.as_completed(futures):
            batch = futures[future]
            items = []
            for i, result in future.result().items():
                plan = batch[i]
                if "estimate" in result:
                    values, errors = estimate_metrics(sweep, plan.params, result["estimate"])
                    error = "; ".join(f"{n}: {e}" for n, e in errors.items()) or None
                else:
                    values, error = None, result.get("error", "no estimate")
                failed += error is not None
                items.append((plan.key, keys[plan.key], values, error))
            study.db.record_estimates(sweep.name, items)
            done += len(batch)
            elapsed = max(time.perf_counter() - start, 1e-9)
            log(f"estimate stage: {done}/{len(todo)} point(s), {elapsed:.1f} s "
                f"({60 * done / elapsed:.0f} points/min)")
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        runner.stop_all()
        pool.shutdown(wait=True)
        raise
    pool.shutdown(wait=True)
    return {"points": len(study.plans), "estimated": len(todo), "failed": failed,
            "kept": len(study.plans) - len(todo) - len(ready),
            "seconds": time.perf_counter() - start}


def choose(study):
    """Selects the candidates from the stored estimates, stores the choice (candidates
    become pending, the others estimated) and returns (candidate keys, figures)."""
    sweep = study.sweep
    two = sweep.two_stage
    rows = study.db.points([sweep.name])
    values = [objective_values(r.get("estimate"), two.objectives) for r in rows]
    margins = tuple(two.margins.get(o, 0.0) for o in two.objectives)
    front, candidates = select(values, margins)
    study.db.set_selection(sweep.name, {
        r["key"]: (i in candidates, i in front) for i, r in enumerate(rows)})
    figures = {"points": len(rows), "without_estimate": sum(v is None for v in values),
               "front": len(front), "candidates": len(candidates)}
    return {rows[i]["key"] for i in candidates}, figures


def objective_values(metrics, objectives):
    """The objectives' values of a metrics dict as a tuple, or None when one is missing."""
    if not metrics:
        return None
    out = tuple(metrics.get(o) for o in objectives)
    if any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in out):
        return None
    return out


# ---- the comparison ---------------------------------------------------------------------

def compare(sweep, rows):
    """Estimate against simulation over the candidates that ran: a dict with `candidates`
    (one per candidate: point, params, est and sim values, errors in %, on which front),
    the fronts, and per objective the candidate pairs whose order the simulation changes."""
    two = sweep.two_stage
    objectives = two.objectives
    cands = [r for r in rows if r.get("candidate")]
    done = [r for r in cands if r["status"] == "ok" and
            objective_values(r["metrics"], objectives) is not None and
            objective_values(r.get("estimate"), objectives) is not None]
    sim_values = [objective_values(r["metrics"], objectives) for r in done]
    est_values = [objective_values(r["estimate"], objectives) for r in done]
    sim_front, _ = select(sim_values)
    est_front_here, _ = select(est_values)
    items = []
    for i, r in enumerate(done):
        item = {"point": r["idx"], "params": r["params"], "est_front": bool(r["est_front"]),
                "sim_front": i in sim_front, "estimate": {}, "simulated": {},
                "error_percent": {}}
        for o, e, s in zip(objectives, est_values[i], sim_values[i]):
            item["estimate"][o] = e
            item["simulated"][o] = s
            item["error_percent"][o] = 100.0 * (e - s) / abs(s) if s else None
        items.append(item)
    ranks = {}
    for k, o in enumerate(objectives):
        pairs = swapped = 0
        for a in range(len(done)):
            for b in range(a + 1, len(done)):
                de = est_values[a][k] - est_values[b][k]
                ds = sim_values[a][k] - sim_values[b][k]
                if de == 0 and ds == 0:
                    continue
                pairs += 1
                swapped += de * ds <= 0
        order_e = sorted(range(len(done)), key=lambda i: est_values[i][k])
        order_s = sorted(range(len(done)), key=lambda i: sim_values[i][k])
        shift = max((abs(order_e.index(i) - order_s.index(i)) for i in range(len(done))),
                    default=0)
        ranks[o] = {"pairs": pairs, "swapped": swapped, "largest_rank_shift": shift}
    est_front = sorted(r["idx"] for r in rows if r.get("est_front"))
    sim_front_points = sorted(done[i]["idx"] for i in sim_front)
    missing = [r["idx"] for r in cands if r not in done]
    return {
        "objectives": objectives,
        "margin_percent": {o: 100 * two.margins.get(o, 0.0) for o in objectives},
        "points": len(rows),
        "estimated": sum(1 for r in rows if r.get("estimate") is not None),
        "candidates": len(cands),
        "simulated": len(done),
        "not_simulated_candidates": missing,
        "estimated_front": est_front,
        "simulated_front": sim_front_points,
        "fronts_agree": est_front == sim_front_points,
        "on_simulated_front_only": sorted(set(sim_front_points) - set(est_front)),
        "on_estimated_front_only": sorted(set(est_front) - set(sim_front_points)),
        "estimated_front_among_simulated": sorted(done[i]["idx"] for i in est_front_here),
        "order_changes": ranks,
        "candidates_table": items,
    }


def print_comparison(c, out):
    objectives = c["objectives"]
    margins = ", ".join(f"{o} {c['margin_percent'][o]:g} %" for o in objectives)
    out.write(f"two-stage: {c['estimated']} of {c['points']} points estimated; "
              f"{len(c['estimated_front'])} on the estimated front, {c['candidates']} "
              f"candidates within the margin ({margins}); {c['simulated']} simulated\n")
    if not c["candidates_table"]:
        return
    from socsim_sweep.plots import short_names
    from socsim_sweep.study import short
    varying = [k for k in c["candidates_table"][0]["params"]
               if len({json.dumps(i["params"].get(k)) for i in c["candidates_table"]}) > 1]
    names = short_names(varying)
    header = ["point", "front est/sim"] + [names[k] for k in varying]
    for o in objectives:
        header += [f"{o} est", "sim", "err %"]
    body = []
    for i in sorted(c["candidates_table"], key=lambda i: i["simulated"][objectives[0]]):
        cells = [str(i["point"]), ("E" if i["est_front"] else "-") + "/" +
                 ("S" if i["sim_front"] else "-")]
        cells += [short(i["params"].get(k)) for k in varying]
        for o in objectives:
            err = i["error_percent"][o]
            cells += [_num(i["estimate"][o]), _num(i["simulated"][o]),
                      "-" if err is None else f"{err:+.1f}"]
        body.append(cells)
    widths = [max(len(str(x)) for x in col) for col in zip(header, *body)]
    for line in [header] + body:
        out.write("  ".join(str(x).rjust(w) for x, w in zip(line, widths)).rstrip() + "\n")
    agree = "agree" if c["fronts_agree"] else "differ"
    out.write(f"fronts {agree}: estimated {_points(c['estimated_front'])}, simulated "
              f"{_points(c['simulated_front'])}")
    if c["on_simulated_front_only"]:
        out.write(f"; on the simulated front only (kept by the margin): "
                  f"{_points(c['on_simulated_front_only'])}")
    if c["on_estimated_front_only"]:
        out.write(f"; on the estimated front only: {_points(c['on_estimated_front_only'])}")
    out.write("\n")
    for o, r in c["order_changes"].items():
        out.write(f"order of {o}: {r['swapped']} of {r['pairs']} candidate pairs swapped by "
                  f"the simulation, largest rank shift {r['largest_rank_shift']}\n")
    if c["not_simulated_candidates"]:
        out.write(f"candidates without a simulated value: "
                  f"{_points(c['not_simulated_candidates'])}\n")


def print_stage_status(rows, out):
    """One line of a two-stage study's stages for `status`."""
    estimated = sum(1 for r in rows if r.get("estimate") is not None)
    cands = [r for r in rows if r.get("candidate")]
    done = sum(1 for r in cands if r["status"] in ("ok", "failed"))
    front = sum(1 for r in rows if r.get("est_front"))
    out.write(f"two-stage: {estimated} of {len(rows)} points estimated, {front} on the "
              f"estimated front, {len(cands)} candidates, {done} of them simulated\n")


def print_estimate_problems(rows, out):
    """The points without every estimate metric, one line per reason; returns them."""
    bad = [r for r in rows if r.get("estimate_error")]
    if not bad:
        return []
    reasons = {}
    for r in bad:
        reasons.setdefault(r["estimate_error"], []).append(r["idx"])
    out.write(f"estimate errors ({len(bad)} point(s) without every estimate metric: not "
              "candidates):\n")
    for reason, points in reasons.items():
        out.write(f"  {len(points)} point(s) {_points(points)}: {reason}\n")
    return bad


def _points(points):
    return "[" + ",".join(str(p) for p in points[:30]) + (",..." if len(points) > 30 else "") \
        + "]"


def _num(v):
    from socsim_sweep.plots import plain
    return plain(v)


def write_outputs(sweep, rows, comparison, folder, out):
    """two_stage.csv (every point: estimate, choice, simulated objectives), two_stage.json
    (the comparison) and plots/two-stage.png."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "two_stage.csv")
    two = sweep.two_stage
    params = list(dict.fromkeys(k for r in rows for k in r["params"]))
    est_names = [n for n, _ in two.metrics] + [c for c in ESTIMATE_COSTS
                                               if c not in [n for n, _ in two.metrics]]
    try:
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["point", "status", "candidate", "est_front"] + params +
                       [f"estimate.{n}" for n in est_names] +
                       [f"simulated.{o}" for o in two.objectives] + ["estimate_error"])
            for r in rows:
                est = r.get("estimate") or {}
                w.writerow([r["idx"], r["status"], r.get("candidate"), r.get("est_front")] +
                           [_cell(r["params"].get(k)) for k in params] +
                           [_cell(est.get(n)) for n in est_names] +
                           [_cell(r["metrics"].get(o)) for o in two.objectives] +
                           [r.get("estimate_error") or ""])
    except OSError as e:
        raise OSError(e.errno, e.strerror, path) from e
    out.write(f"two-stage: {path} ({len(rows)} points)\n")
    jpath = os.path.join(folder, "two_stage.json")
    try:
        with open(jpath, "w") as f:
            json.dump(comparison, f, indent=1)
    except OSError as e:
        raise OSError(e.errno, e.strerror, jpath) from e
    from socsim_sweep import plots
    ppath = os.path.join(folder, "plots", "two-stage.png")
    plots.two_stage_plot(rows, two.objectives[0], two.objectives[1], comparison, ppath)
    out.write(f"plot: {ppath}\n")


def _cell(v):
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return "" if v is None else v
