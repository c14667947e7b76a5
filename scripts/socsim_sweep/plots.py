"""PNG plots of a sweep (matplotlib): metric vs parameter, Pareto front, heat map.

Each plot also writes `<name>.png.json`, a description read back from the drawn figure
(its series and their point counts, the front and the dominated points, the heat map's
cells), so that what a plot shows can be checked without looking at it.
"""

import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from socsim_sweep.expr import EvalError  # noqa: E402
from socsim_sweep.report import (ENERGY_METRICS, _is_number, mixed_energy_note,  # noqa: E402
                                  pareto_front, value)
from socsim_sweep.study import short  # noqa: E402

GREY = "#b0b0b0"


def _accepts(expr, row):
    def lookup(name):
        if name in row["params"]:
            return True, row["params"][name]
        if name in row["metrics"]:
            return True, row["metrics"][name]
        return False, None

    try:
        return bool(expr.evaluate(lookup))
    except EvalError:
        return False


def _axis_values(rows, name):
    """Sorted distinct values of a parameter; (values, numeric)."""
    vals = []
    for r in rows:
        v = value(r, name)
        if v is not None and v not in vals:
            vals.append(v)
    numeric = all(_is_number(v) for v in vals)
    return (sorted(vals) if numeric else sorted(vals, key=str)), numeric


def _varying(rows, exclude):
    """Parameters (other than `exclude`) that take more than one value in the rows."""
    names = []
    for r in rows:
        for k in r["params"]:
            if k not in exclude and k not in names:
                names.append(k)
    return [n for n in names if len({json.dumps(value(r, n)) for r in rows}) > 1]


def _save(fig, ax, path, description):
    description["title"] = ax.get_title()
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:  # a full disk: name the plot
        raise OSError(e.errno, e.strerror, path) from e
    finally:
        plt.close(fig)
    try:
        with open(path + ".json", "w") as f:
            json.dump(description, f, indent=2)
    except OSError as e:
        raise OSError(e.errno, e.strerror, path + ".json") from e
    return description


def short_names(names):
    """Display names of parameters: the last part of a dotted name where that is unique."""
    last = [n.rsplit(".", 1)[-1] for n in names]
    return {n: (l if last.count(l) == 1 else n) for n, l in zip(names, last)}


def line_plot(rows, x, y, series=None, path="plot.png", title=None):
    """y against x, one line per combination of the other parameters that vary: the colour
    follows `series` (when given), the line style the other parameters."""
    rows = [r for r in rows if value(r, x) is not None and _is_number(value(r, y))]
    xs, numeric = _axis_values(rows, x)
    others = _varying(rows, {x})
    if series in others:
        others.remove(series)
        others.insert(0, series)
    display = short_names(others)
    groups = {}
    for r in rows:
        key = tuple(json.dumps(value(r, n)) for n in others)
        groups.setdefault(key, []).append(r)
    colour_of, style_of = {}, {}
    styles = ["-", "--", ":", "-."]
    fig, ax = plt.subplots(figsize=(9.5, 5.0))
    for key, members in groups.items():
        members.sort(key=lambda r: xs.index(value(r, x)))
        first = members[0]
        label = ", ".join(f"{display[n]}={short(value(first, n))}" for n in others) or y
        colour_key = key[0] if series in others else key
        rest_key = key[1:] if series in others else ()
        colour = colour_of.setdefault(colour_key, f"C{len(colour_of) % 10}")
        style = style_of.setdefault(rest_key, styles[len(style_of) % len(styles)])
        px = [value(r, x) if numeric else xs.index(value(r, x)) for r in members]
        ax.plot(px, [value(r, y) for r in members], marker="o", color=colour, linestyle=style,
                label=label)
    if not numeric:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([short(v) for v in xs], rotation=20)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(title or f"{y} vs {x}")
    ax.grid(True, alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    description = {"kind": "line", "x": x, "y": y,
                   "series": {line.get_label(): len(line.get_xdata()) for line in ax.lines}}
    description["points"] = sum(description["series"].values())
    return _save(fig, ax, path, description)


def pareto_plot(rows, x, y, minimize=(True, True), label=None, path="pareto.png",
                title=None):
    """Every point, the dominated ones grey, the front in colour joined by steps."""
    front, candidates = pareto_front(rows, x, y, minimize)
    front_ids = {id(r) for r in front}
    dominated = [r for r in candidates if id(r) not in front_ids]
    fig, ax = plt.subplots(figsize=(7.5, 5.2))
    ax.scatter([value(r, x) for r in dominated], [value(r, y) for r in dominated],
               color=GREY, s=22, label=f"dominated ({len(dominated)})", zorder=2)
    ax.scatter([value(r, x) for r in front], [value(r, y) for r in front], color="C3", s=40,
               label=f"Pareto front ({len(front)})", zorder=3)
    if len(front) > 1:
        ax.step([value(r, x) for r in front], [value(r, y) for r in front],
                where="post" if minimize[1] else "pre", color="C3", alpha=0.6, zorder=3)
    for r in front:
        text = short(value(r, label)) if label else f"#{r['idx']}"
        ax.annotate(text, (value(r, x), value(r, y)), textcoords="offset points",
                    xytext=(4, 4), fontsize=7)
    ax.set_xlabel(x + (" (lower is better)" if minimize[0] else " (higher is better)"))
    ax.set_ylabel(y + (" (lower is better)" if minimize[1] else " (higher is better)"))
    ax.set_title(title or f"Pareto front: {y} vs {x}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    offsets = [len(c.get_offsets()) for c in ax.collections]
    description = {"kind": "pareto", "x": x, "y": y, "dominated": offsets[0],
                   "front": offsets[1],
                   "front_points": [r["idx"] for r in front],
                   "front_sweeps": [r["sweep"] for r in front]}
    return _save(fig, ax, path, description)


def heatmap(rows, x, y, metric, path="heatmap.png", title=None):
    """The metric over two parameters; a cell with several points shows their mean."""
    import numpy as np
    rows = [r for r in rows if _is_number(value(r, metric))]
    xs, _ = _axis_values(rows, x)
    ys, _ = _axis_values(rows, y)
    cells = {}
    for r in rows:
        cells.setdefault((xs.index(value(r, x)), ys.index(value(r, y))), []).append(
            value(r, metric))
    grid = np.full((max(1, len(ys)), max(1, len(xs))), np.nan)
    for (i, j), vals in cells.items():
        grid[j, i] = sum(vals) / len(vals)
    fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 3, 0.6 * len(ys) + 2.5))
    image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    fig.colorbar(image, ax=ax, label=metric)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([short(v) for v in xs])
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels([short(v) for v in ys])
    lo, hi = (np.nanmin(grid), np.nanmax(grid)) if cells else (0.0, 0.0)
    for (i, j) in cells:
        bright = hi > lo and (grid[j, i] - lo) / (hi - lo) > 0.6
        ax.text(i, j, f"{grid[j, i]:.4g}", ha="center", va="center", fontsize=7,
                color="black" if bright else "white")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    most = max((len(v) for v in cells.values()), default=0)
    ax.set_title(title or f"{metric}" + (f" (mean of up to {most} points per cell)"
                                         if most > 1 else ""))
    drawn = ax.images[0].get_array()
    description = {"kind": "heatmap", "x": x, "y": y, "value": metric,
                   "shape": list(drawn.shape) if cells else [0, 0],
                   "cells": int(np.count_nonzero(~np.isnan(np.asarray(drawn, dtype=float))))}
    return _save(fig, ax, path, description)


def plot_rows(plot, rows):
    """The rows a plot shows: those its `where` expression accepts, if it has one."""
    if plot.where is None:
        return rows
    return [r for r in rows if _accepts(plot.where, r)]


def draw(plot, rows, folder):
    """Draws a plot of a sweep file's `plots:` (a spec.PlotSpec) into `folder`."""
    f = plot.fields
    rows = plot_rows(plot, rows)
    name = f.get("name") or "-".join([plot.kind] + [f[k] for k in ("x", "y") if k in f])
    path = os.path.join(folder, name.replace("/", "_") + ".png")
    # An energy axis over points whose DDR energy has two sources says so in its title.
    mixed = any(f.get(k) in ENERGY_METRICS for k in ("x", "y", "value")) and \
        mixed_energy_note(rows) is not None
    suffix = "\n(mixed DDR energy sources: DDR model and cost model)" if mixed else ""
    if plot.kind == "line":
        return path, line_plot(rows, f["x"], f["y"], f.get("series"), path,
                               f"{f['y']} vs {f['x']}{suffix}" if mixed else None)
    if plot.kind == "pareto":
        return path, pareto_plot(rows, f["x"], f["y"], tuple(f.get("minimize", (True, True))),
                                 f.get("label"), path,
                                 f"Pareto front: {f['y']} vs {f['x']}{suffix}" if mixed else None)
    return path, heatmap(rows, f["x"], f["y"], f["value"], path,
                         f"{f['value']}{suffix}" if mixed else None)
