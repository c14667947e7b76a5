"""Tables of a sweep's results: the status summary, the points table, CSV, Pareto fronts."""

import csv
import json

from socsim_sweep.study import describe_params, short

FIXED = ("sweep", "point", "status", "exit_code", "wall_s")


def columns(rows):
    """(parameter names, metric names) over the rows, in order of first appearance."""
    params, metrics = {}, {}
    for r in rows:
        for k in r["params"]:
            params.setdefault(k, None)
        for k in r["metrics"]:
            metrics.setdefault(k, None)
    return list(params), list(metrics)


def value(row, name):
    """A parameter's or metric's value in a row (parameters first), or None."""
    if name in row["params"]:
        return row["params"][name]
    return row["metrics"].get(name)


def write_csv(rows, path):
    params, metrics = columns(rows)
    try:
        return _write_csv(rows, path, params, metrics)
    except OSError as e:  # a full disk shows at the close: name the file
        raise OSError(e.errno, e.strerror, path) from e


def _write_csv(rows, path, params, metrics):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(FIXED) + params + metrics + ["error", "report_dir"])
        for r in rows:
            cells = [r["sweep"], r["idx"], r["status"], r["exit_code"],
                     None if r["wall_s"] is None else round(r["wall_s"], 3)]
            for name in params:
                cells.append(_cell(r["params"].get(name)))
            for name in metrics:
                cells.append(_cell(r["metrics"].get(name)))
            cells += [r["error"] or "", r["report_dir"]]
            w.writerow(cells)
    return len(rows)


def _cell(v):
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return "" if v is None else v


def format_number(v):
    if v is None:
        return "-"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, float):
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return f"{v:.4g}"
        return f"{v:.4f}".rstrip("0").rstrip(".")
    return short(v)


def print_table(rows, out, names=None):
    """Aligned text table of the rows; `names` picks columns (default: every parameter and
    metric)."""
    params, metrics = columns(rows)
    names = names or params + metrics
    show_sweep = len({r["sweep"] for r in rows}) > 1
    header = (["sweep"] if show_sweep else []) + ["point", "status"] + names
    body = []
    for r in rows:
        cells = ([r["sweep"]] if show_sweep else []) + [str(r["idx"]), r["status"]]
        cells += [format_number(value(r, n)) for n in names]
        body.append(cells)
    widths = [max(len(str(c)) for c in col) for col in zip(header, *body)] if body else \
        [len(h) for h in header]
    for line in [header] + body:
        out.write("  ".join(str(c).rjust(w) if i >= 2 else str(c).ljust(w)
                            for i, (c, w) in enumerate(zip(line, widths))).rstrip() + "\n")


def print_status(sweep_name, counts, rows_failed, queued, out, rerun_hint):
    total = sum(counts.values())
    parts = [f"{counts.get(s, 0)} {s}" for s in ("ok", "failed", "running", "submitted",
                                                  "pending", "estimated") if counts.get(s)]
    out.write(f"sweep '{sweep_name}': {total} points: {', '.join(parts) or 'none'}\n")
    if queued:
        out.write("  in the Slurm queue: " +
                  ", ".join(f"{n} {state.lower()}" for state, n in sorted(queued.items())) +
                  "\n")
    if rows_failed:
        out.write(f"failed points ({len(rows_failed)}):\n")
        for r in rows_failed:
            out.write(f"  point {r['idx']} [{describe_params(r['params'], 80)}]: "
                      f"{r['error']}\n")
            out.write(f"    report: {r['report_dir']}\n")
        out.write(f"rerun them with: {rerun_hint}\n")


def metric_problems(rows):
    """{metric: (points, first error)} of the ok points whose metric expressions could not
    be evaluated (a field their reports do not have, a report a run did not write)."""
    problems = {}
    for r in rows:
        if r["status"] != "ok":
            continue
        for name, error in sorted((r.get("metric_errors") or {}).items()):
            points, first = problems.get(name, ([], error))
            points.append(r["idx"])
            problems[name] = (points, first)
    return problems


def print_metric_problems(problems, out):
    """The metric errors of ok points, one line per metric; nothing when there are none."""
    if not problems:
        return
    out.write(f"metric errors ({len(problems)} metric(s) without a value):\n")
    for name, (points, first) in problems.items():
        shown = ",".join(str(i) for i in points[:20]) + (",..." if len(points) > 20 else "")
        out.write(f"  {name}: {len(points)} point(s) [{shown}]: {first}\n")


# Metrics that add the DDR energy: they compare across points only when every point's DDR
# energy comes from the same source (cost.ddr_energy_source).
ENERGY_METRICS = ("cost.ddr_energy_uj", "cost.energy_uj")


def energy_sources(rows):
    """{source: [point indices]} of the DDR energy of the points that have one ('ddr model':
    the DDR model's own figure, 'cost model': the cost model's per-bit estimate)."""
    sources = {}
    for r in rows:
        source = (r.get("metrics") or {}).get("cost.ddr_energy_source")
        if source is not None:
            sources.setdefault(source, []).append(r["idx"])
    return sources


def mixed_energy_note(rows):
    """One line when the points' DDR energy comes from more than one source, else None."""
    sources = energy_sources(rows)
    if len(sources) < 2:
        return None
    parts = []
    for source, points in sorted(sources.items()):
        shown = ",".join(str(i) for i in points[:20]) + (",..." if len(points) > 20 else "")
        parts.append(f"the {source}'s on {len(points)} point(s) [{shown}]")
    return ("mixed energy sources: the DDR energy is " + ", ".join(parts) +
            f"; {' and '.join(ENERGY_METRICS)} do not compare across them (docs/sweeps.md, "
            "Cost model)")


def print_energy_note(rows, out):
    """The mixed_energy_note() line, when there is one."""
    note = mixed_energy_note(rows)
    if note:
        out.write(f"warning: {note}\n")


def pareto_front(rows, x, y, minimize=(True, True)):
    """The rows (with numeric x and y) that no other row dominates, sorted by x."""
    def key(r):
        vx, vy = value(r, x), value(r, y)
        return (vx if minimize[0] else -vx, vy if minimize[1] else -vy)

    candidates = [r for r in rows if _is_number(value(r, x)) and _is_number(value(r, y))]
    front = []
    for r in candidates:
        kx, ky = key(r)
        dominated = False
        for o in candidates:
            if o is r:
                continue
            ox, oy = key(o)
            if ox <= kx and oy <= ky and (ox < kx or oy < ky):
                dominated = True
                break
        if not dominated:
            front.append(r)
    front.sort(key=lambda r: value(r, x))
    return front, candidates


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)
