"""PNG plots of a sweep (matplotlib): metric vs parameter, Pareto front, heat map.

Each plot also writes `<name>.png.json`, a description read back from the drawn figure
(its series and their point counts, the front and the dominated points, the heat map's
cells, the axes' labels and scales, overlapping labels), so that what a plot shows can be
checked without looking at it.

For a paper: axes are labelled in words with their unit (from the name's suffix: `_us`,
`_mm2`, `_uj`...), a parameter whose values are powers of two (three or more, spanning a
factor of 4 or more) gets a base-2 logarithmic axis with a tick at each value, a metric axis
spanning more than a factor of 100 a base-10 one; the Pareto front's labels are placed
where they overlap no other label or point (a label that fits nowhere is left off and
counted); the heat map's cells and colour bar show plain numbers (no offset, no 1e+05
notation) and its title says how far the values spread when that is little.
"""

import json
import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from socsim_sweep.expr import EvalError  # noqa: E402
from socsim_sweep.report import (ENERGY_METRICS, _is_number, mixed_energy_note,  # noqa: E402
                                  pareto_front, value)
from socsim_sweep.study import short  # noqa: E402

GREY = "#b0b0b0"
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]

# Units of metric names, by suffix (docs/sweeps.md, "Outputs").
UNITS = (("_percent", "%"), ("_pct", "%"), ("_mm2", "mm²"), ("_uj", "µJ"), ("_nj", "nJ"),
         ("_pj", "pJ"), ("_mj", "mJ"), ("_us", "µs"), ("_ms", "ms"), ("_ns", "ns"),
         ("_s", "s"), ("_mhz", "MHz"), ("_ghz", "GHz"), ("_gbps", "GB/s"), ("_mbps", "MB/s"),
         ("_mb", "MB"), ("_kb", "KB"), ("_gb", "GB"), ("_bytes", "bytes"), ("_mw", "mW"),
         ("_w", "W"), ("_cycles", "cycles"))
WORDS = {"npu": "NPU", "ddr": "DDR", "cpu": "CPU", "mac": "MAC", "dma": "DMA", "sram": "SRAM",
         "hbm2": "HBM2", "gbps": "GB/s", "ipc": "IPC", "macs": "MACs"}


def axis_label(name):
    """A name as an axis reads it: the last two dotted parts in words, the unit its suffix
    names in brackets ("cost.npu_area_mm2" -> "NPU area (mm²)", "npu.mac_array.rows" ->
    "MAC array rows")."""
    parts = name.split(".")
    last = parts[-1]
    unit = ""
    lower = last.lower()
    for suffix, u in UNITS:
        if lower.endswith(suffix) and len(lower) > len(suffix):
            unit, last = u, last[:-len(suffix)]
            break
    if lower in ("cycles", "total_cycles") or lower.endswith("cycles") and not unit:
        unit = "cycles"
        last = last[:-len("cycles")].rstrip("_") or last
    words = " ".join(WORDS.get(w.lower(), w) for w in last.split("_") if w)
    if len(parts) > 1 and parts[-2] not in ("regions", "total", "layers"):
        parent = " ".join(WORDS.get(w.lower(), w) for w in parts[-2].split("_") if w)
        if not (len(parts) == 2 and parts[0] == "cost"):  # the cost model's: named alone
            words = f"{parent} {words}"
    return f"{words} ({unit})" if unit and unit not in words else words


def _powers_of_two(values):
    """True for 3 or more positive powers of two spanning a factor of 4 or more."""
    nums = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(nums) < 3 or len(nums) != len(values) or min(nums) <= 0:
        return False
    if not all(float(v).is_integer() and int(v) & (int(v) - 1) == 0 for v in nums):
        return False
    return max(nums) / min(nums) >= 4


def _wide(values):
    """True for positive values spanning more than a factor of 100 (a log axis)."""
    nums = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return bool(nums) and min(nums) > 0 and max(nums) / min(nums) > 100


def _log2_axis(axis, values):
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    axis.set_major_locator(FixedLocator(sorted(values)))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    axis.set_minor_locator(NullLocator())


def plain(v, digits=4):
    """A number for a label: plain digits, thousands grouped, `digits` significant ones
    (489512.3 -> "489,512"; 0.00123 -> "0.00123"; 1.5e9 -> "1.5e+09")."""
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
        return str(v)
    if v == 0:
        return "0"
    mag = abs(v)
    if mag >= 1e9 or mag < 1e-4:
        return f"{v:.{digits - 1}e}"
    if mag >= 10 ** (digits - 1):
        return f"{v:,.0f}"
    decimals = digits - 1 - int(math.floor(math.log10(mag)))
    text = f"{v:,.{max(0, decimals)}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def tick(v):
    """A tick label: a plain number, millions and billions as "M" and "G" so that long
    numbers do not run into each other (200000000 -> "200 M", 1500 -> "1,500")."""
    if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
        for size, unit in ((1e9, "G"), (1e6, "M")):
            if abs(v) >= size:
                return f"{plain(v / size)} {unit}"
    return plain(v)


def _plain_axis(axis):
    from matplotlib.ticker import FuncFormatter
    axis.set_major_formatter(FuncFormatter(lambda v, _: tick(v)))


def _metric_axis(axis, values, set_scale):
    """A numeric axis: logarithmic when its values span more than a factor of 100 (ticks at
    1, 2 and 5 of each decade), linear otherwise; plain numbers as tick labels either way
    (tick(): no offset text, no 1e8 or 10^8 notation)."""
    if _wide(values):
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
        set_scale("log")
        axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        axis.set_major_formatter(FuncFormatter(lambda v, _: tick(v)))
        axis.set_minor_formatter(NullFormatter())
    else:
        _plain_axis(axis)


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
        if "axes" in description:
            _drawn_ticks(ax, description["axes"])
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
    fig, ax = plt.subplots(figsize=(8.0, 4.8))
    for key, members in groups.items():
        members.sort(key=lambda r: xs.index(value(r, x)))
        first = members[0]
        label = ", ".join(f"{display[n]}={short(value(first, n))}" for n in others) or y
        colour_key = key[0] if series in others else key
        rest_key = key[1:] if series in others else ()
        colour = colour_of.setdefault(colour_key, f"C{len(colour_of) % 10}")
        style = style_of.setdefault(rest_key, styles[len(style_of) % len(styles)])
        px = [value(r, x) if numeric else xs.index(value(r, x)) for r in members]
        # Series that coincide stay visible: each its own marker, open, a little apart.
        index = len(ax.lines)
        ax.plot(px, [value(r, y) for r in members], marker=MARKERS[index % len(MARKERS)],
                markersize=7 - min(index, 3), markerfacecolor="none", color=colour,
                linestyle=style, linewidth=1.4, alpha=0.85, label=label)
    log_x = numeric and _powers_of_two(xs)
    if not numeric:
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([short(v) for v in xs], rotation=20)
    elif log_x:
        ax.set_xscale("log", base=2)
        _log2_axis(ax.xaxis, xs)
    else:
        _metric_axis(ax.xaxis, xs, ax.set_xscale)
    _metric_axis(ax.yaxis, [value(r, y) for r in rows], ax.set_yscale)
    ax.set_xlabel(axis_label(x))
    ax.set_ylabel(axis_label(y))
    ax.set_title(title or f"{axis_label(y)} vs {axis_label(x)}")
    ax.grid(True, alpha=0.3)
    if len(groups) > 1:
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
                  title=", ".join(display[n] for n in others), title_fontsize=8)
    description = {"kind": "line", "x": x, "y": y,
                   "series": {line.get_label(): len(line.get_xdata()) for line in ax.lines}}
    description["points"] = sum(description["series"].values())
    description["axes"] = _axes(ax)
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
    every = dominated + front
    for axis, name, scale in ((ax.xaxis, x, ax.set_xscale), (ax.yaxis, y, ax.set_yscale)):
        _metric_axis(axis, [value(r, name) for r in every], scale)
    ax.set_xlabel(axis_label(x) + (", lower is better" if minimize[0] else
                                   ", higher is better"))
    ax.set_ylabel(axis_label(y) + (", lower is better" if minimize[1] else
                                   ", higher is better"))
    ax.set_title(title or f"Pareto front: {axis_label(y)} vs {axis_label(x)}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    # Points of the front at one place share one label: its distinct texts, and how many.
    spots = {}
    for r in front:
        text = short(value(r, label)) if label else f"#{r['idx']}"
        spots.setdefault((value(r, x), value(r, y)), []).append(text)
    texts = []
    for names in spots.values():
        distinct = list(dict.fromkeys(names))
        texts.append(", ".join(distinct) + (f" (×{len(names)})" if len(names) > 1 else ""))
    placed, left_off = _place_labels(fig, ax, list(spots), texts,
                                     [(value(r, x), value(r, y)) for r in every])
    if left_off:  # in the title: a note inside the axes could cover a label
        ax.set_title(f"{ax.get_title()}\n({left_off} of {len(texts)} labels left off: no room)",
                     fontsize=10)
    offsets = [len(c.get_offsets()) for c in ax.collections]
    description = {"kind": "pareto", "x": x, "y": y, "dominated": offsets[0],
                   "front": offsets[1],
                   "front_points": [r["idx"] for r in front],
                   "front_sweeps": [r["sweep"] for r in front],
                   "labels": placed, "labels_left_off": left_off,
                   "labels_overlapping": _overlaps(fig, ax)}
    description["axes"] = _axes(ax)
    return _save(fig, ax, path, description)


# Where a Pareto label may go, in points from its point: right, above, left, below, the
# corners, then the same farther out.
_LABEL_OFFSETS = [(d * a, d * b) for d in (5, 12, 22)
                  for a, b in ((1, 0.2), (0, 1), (-1, 0.2), (0, -1.6), (1, 1), (-1, 1),
                               (1, -1.4), (-1, -1.4))]


def _place_labels(fig, ax, points, texts, all_points):
    """Annotates each point with its text where the text's box overlaps no label placed
    before it, no marker and stays inside the axes; returns (labels placed, left off)."""
    fig.tight_layout()
    renderer = fig.canvas.get_renderer()
    inside = ax.get_window_extent(renderer)
    marker_boxes = []
    for px, py in all_points:
        cx, cy = ax.transData.transform((px, py))
        marker_boxes.append((cx - 4, cy - 4, cx + 4, cy + 4))
    taken = []
    placed = left_off = 0
    for (px, py), text in zip(points, texts):
        for dx, dy in _LABEL_OFFSETS:
            ha = "left" if dx > 0 else "right" if dx < 0 else "center"
            va = "bottom" if dy > 0 else "top" if dy < 0 else "center"
            note = ax.annotate(text, (px, py), textcoords="offset points", xytext=(dx, dy),
                               fontsize=8, ha=ha, va=va)
            b = note.get_window_extent(renderer)
            box = (b.x0 - 1, b.y0 - 1, b.x1 + 1, b.y1 + 1)
            fits = inside.x0 <= box[0] and box[2] <= inside.x1 and \
                inside.y0 <= box[1] and box[3] <= inside.y1
            if fits and not any(_hit(box, o) for o in taken + marker_boxes):
                taken.append(box)
                placed += 1
                break
            note.remove()
        else:
            left_off += 1
    return placed, left_off


def _hit(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _overlaps(fig, ax):
    """Pairs of the axes' text labels whose boxes overlap, read back from the figure."""
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    return sum(1 for i in range(len(boxes)) for j in range(i)
               if _hit((boxes[i].x0, boxes[i].y0, boxes[i].x1, boxes[i].y1),
                       (boxes[j].x0, boxes[j].y0, boxes[j].x1, boxes[j].y1)))


def _axes(ax):
    """Labels and scales; _save adds the tick labels as drawn."""
    return {"x_label": ax.get_xlabel(), "y_label": ax.get_ylabel(),
            "x_scale": ax.get_xscale(), "y_scale": ax.get_yscale()}


def _drawn_ticks(ax, axes):
    """The tick labels and any offset text matplotlib added, read after the figure was drawn
    (saved)."""
    for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
        axes[f"{name}_ticks"] = [t.get_text() for t in axis.get_ticklabels() if t.get_text()]
        axes[f"{name}_offset"] = axis.get_offset_text().get_text()


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
    fig, ax = plt.subplots(figsize=(1.3 * len(xs) + 3.2, 0.7 * len(ys) + 2.6))
    lo, hi = (np.nanmin(grid), np.nanmax(grid)) if cells else (0.0, 0.0)
    # Values close together (within 5 %): the colours show the percentage above the lowest,
    # so that the scale says how small the differences are; the cells keep the values.
    relative = bool(cells) and hi > lo > 0 and (hi - lo) / lo < 0.05
    shown = 100 * (grid - lo) / lo if relative else grid
    image = ax.imshow(shown, origin="lower", aspect="auto", cmap="viridis")
    bar = fig.colorbar(image, ax=ax, label=(f"% above the lowest, {plain(float(lo))}"
                                            if relative else axis_label(metric)))
    _plain_axis(bar.ax.yaxis)
    for j in range(grid.shape[0]):
        for i in range(grid.shape[1]):
            if (i, j) not in cells and cells:
                ax.text(i, j, "no point", ha="center", va="center", fontsize=8, color=GREY)
    ax.set_xticks(range(len(xs)))
    ax.set_xticklabels([short(v) for v in xs])
    ax.set_yticks(range(len(ys)))
    ax.set_yticklabels([short(v) for v in ys])
    # Enough significant digits that cells of different values read differently.
    digits = 3
    while digits < 8 and len({plain(float(grid[j, i]), digits) for (i, j) in cells}) < \
            len({float(grid[j, i]) for (i, j) in cells}):
        digits += 1
    for (i, j) in cells:
        bright = hi > lo and (grid[j, i] - lo) / (hi - lo) > 0.6
        ax.text(i, j, plain(float(grid[j, i]), digits), ha="center", va="center", fontsize=8,
                color="black" if bright else "white", gid="cell")
    ax.set_xlabel(axis_label(x))
    ax.set_ylabel(axis_label(y))
    most = max((len(v) for v in cells.values()), default=0)
    spread = ""
    if relative:
        spread = f"\nall values within {100 * (hi - lo) / lo:.2g} % " \
                 f"({plain(float(lo))} to {plain(float(hi))})"
    ax.set_title(title or f"{axis_label(metric)}" + (f" (mean of up to {most} points per cell)"
                                                     if most > 1 else "") + spread,
                 fontsize=10)
    drawn = ax.images[0].get_array()
    description = {"kind": "heatmap", "x": x, "y": y, "value": metric,
                   "shape": list(drawn.shape) if cells else [0, 0],
                   "cells": int(np.count_nonzero(~np.isnan(np.asarray(drawn, dtype=float)))),
                   "cell_texts": sorted(t.get_text() for t in ax.texts if t.get_gid() == "cell"),
                   "spread_percent": float(100 * (hi - lo) / lo) if cells and lo > 0 else None,
                   "colour_scale": bar.ax.get_ylabel()}
    description["axes"] = _axes(ax)
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


def two_stage_plot(rows, x, y, comparison, path="two-stage.png"):
    """A two-stage study (docs/sweeps.md): every estimated point grey, the candidates within
    the margin as open circles, the estimated front joined by steps; each simulated
    candidate as a filled marker joined to its estimate by a thin line, the simulated front
    joined by steps."""
    est = [(r["estimate"][x], r["estimate"][y], r) for r in rows
           if r.get("estimate") and _is_number(r["estimate"].get(x)) and
           _is_number(r["estimate"].get(y))]
    others = [e for e in est if not e[2].get("candidate")]
    cands = [e for e in est if e[2].get("candidate")]
    front = sorted((e for e in est if e[2].get("est_front")), key=lambda e: (e[0], e[1]))
    sims = [(i["simulated"][x], i["simulated"][y], i) for i in comparison["candidates_table"]]
    by_point = {e[2]["idx"]: e for e in est}
    sim_front = sorted((s for s in sims if s[2]["sim_front"]), key=lambda s: (s[0], s[1]))
    fig, ax = plt.subplots(figsize=(8.5, 5.8))
    ax.scatter([e[0] for e in others], [e[1] for e in others], color=GREY, s=6, alpha=0.5,
               linewidths=0, label=f"estimated, not simulated ({len(others)})", zorder=1)
    margins = {o: m for o, m in comparison["margin_percent"].items() if m}
    margin_text = (" within " + ", ".join(f"{m:g} % in {o}" for o, m in margins.items()) +
                   " of the estimated front") if margins else ": the estimated front"
    ax.scatter([e[0] for e in cands], [e[1] for e in cands], facecolors="none",
               edgecolors="C0", s=60, linewidths=1.1, zorder=3,
               label=f"candidates{margin_text} ({len(cands)})")
    if len(front) > 1:
        ax.step([e[0] for e in front], [e[1] for e in front], where="post", color="C0",
                linewidth=1.4, linestyle="--", zorder=5, label=f"estimated front ({len(front)})")
    for s in sims:
        e = by_point.get(s[2]["point"])
        if e is not None:
            ax.plot([e[0], s[0]], [e[1], s[1]], color="C1", alpha=0.5, linewidth=0.7,
                    zorder=2)
    ax.scatter([s[0] for s in sims], [s[1] for s in sims], color="C1", s=14, zorder=4,
               label=f"simulated candidates ({len(sims)})")
    if len(sim_front) > 1:
        ax.step([s[0] for s in sim_front], [s[1] for s in sim_front], where="post",
                color="C3", linewidth=1.6, zorder=4,
                label=f"simulated front ({len(sim_front)})")
    every_x = [e[0] for e in est] + [s[0] for s in sims]
    every_y = [e[1] for e in est] + [s[1] for s in sims]
    # Thousands of points crowd the low end of an axis spanning a factor of 4 or more: a
    # log axis (ticks at 1, 2 and 5 of each decade; more within a factor of 20) spreads the
    # front out.
    for axis, values, scale in ((ax.xaxis, every_x, ax.set_xscale),
                                (ax.yaxis, every_y, ax.set_yscale)):
        if values and min(values) > 0 and max(values) / min(values) >= 4:
            from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
            scale("log")
            subs = (1.0, 2.0, 5.0) if max(values) / min(values) > 20 else \
                (1.0, 1.5, 2.0, 3.0, 5.0, 7.0)
            axis.set_major_locator(LogLocator(base=10, subs=subs))
            axis.set_major_formatter(FuncFormatter(lambda v, _: plain(v)))
            axis.set_minor_formatter(NullFormatter())
        else:
            _plain_axis(axis)
    ax.set_xlabel(axis_label(x) + ", lower is better")
    ax.set_ylabel(axis_label(y) + ", lower is better")
    agree = "fronts agree" if comparison["fronts_agree"] else "fronts differ"
    ax.set_title(f"Two-stage study: {len(est)} points estimated, {len(sims)} simulated "
                 f"({agree})", fontsize=11)
    ax.grid(True, alpha=0.3, which="major")
    ax.legend(fontsize=8, loc="upper right", framealpha=0.95)
    description = {"kind": "two-stage", "x": x, "y": y, "estimated": len(est),
                   "candidates": len(cands), "estimated_front": [e[2]["idx"] for e in front],
                   "simulated": len(sims),
                   "simulated_front": [s[2]["point"] for s in sim_front],
                   "axes": _axes(ax)}
    return _save(fig, ax, path, description)
