"""`socsim compare RUN_A RUN_B`: two runs' reports side by side, with their differences.

A run is a report folder (`socsim run --report DIR`, or a sweep point's folder), or
SWEEP:POINT for a point of a sweep in the results folder (--dir). Sections: summary, the
configuration lines that differ, probes (start-up phases, runtime events, operators), the
NPU's per-layer table and the DDR statistics. Rows that differ are marked with '*';
--diff-only leaves out the others.
"""

import argparse
import difflib
import json
import os
import sys

from socsim_sweep.source import SweepError

SUMMARY_FIELDS = ("status", "exit_code", "cycles", "instructions", "time_ms", "cpu_model",
                  "cpu_description", "firmware", "host_seconds")
LAYER_FIELDS = ("elapsed_cycles", "total_cycles", "npu_cycles", "ddr_cycles", "mac_usage_percent", "bound",
                "cores_used", "read_bytes", "write_bytes")
DDR_FIELDS = ("bytes_read", "bytes_written", "bandwidth_gbps", "row_hits", "row_misses",
              "row_conflicts", "refresh_stalls")


def load_run(ref, results_dir):
    """The report files of a run: {summary, probes, npu_layers, ddr} (None when absent)."""
    folder = ref
    if not os.path.isdir(ref) and ":" in ref:
        from socsim_sweep.study import open_db
        sweep, _, point = ref.rpartition(":")
        db_path = os.path.join(results_dir, "results.db")
        if not os.path.isfile(db_path) or not point.isdigit():
            raise SweepError(f"{ref}: not a report folder, nor SWEEP:POINT of {db_path}")
        db = open_db(results_dir)
        row = db.conn.execute("SELECT report_dir FROM points WHERE sweep=? AND idx=? AND "
                              "active=1", (sweep, int(point))).fetchone()
        db.close()
        if row is None:
            raise SweepError(f"{ref}: no point {point} in sweep '{sweep}' of {db_path}")
        folder = row["report_dir"]
    if not os.path.isfile(os.path.join(folder, "summary.json")):
        raise SweepError(f"{ref}: no summary.json in {folder} (a folder written by "
                         "socsim run --report)")
    run = {"folder": folder}
    for name in ("summary", "probes", "npu_layers", "ddr"):
        path = os.path.join(folder, name + ".json")
        try:
            with open(path) as f:
                run[name] = json.load(f)
        except OSError:
            run[name] = None
        except ValueError as e:
            raise SweepError(f"{path}: not valid JSON: {e}") from None
    return run


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)


def delta(a, b):
    """'+123 (+4.5%)' for numbers, '' when equal or not numbers."""
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
        return ""
    if a == b:
        return ""
    d = b - a
    text = f"{d:+.6g}" if isinstance(d, float) else f"{d:+d}"
    if a:
        text += f" ({100.0 * d / a:+.2f}%)"
    return text


class Table:
    def __init__(self, title, header):
        self.title = title
        self.header = header
        self.rows = []

    def add(self, cells, differs):
        self.rows.append((["*" if differs else " "] + [fmt(c) for c in cells], differs))

    def write(self, out, diff_only):
        rows = [r for r, d in self.rows if d or not diff_only]
        out.write(f"\n{self.title}\n")
        if not rows:
            out.write("  (no differences)\n" if self.rows else "  (nothing to compare)\n")
            return
        header = [" "] + self.header
        widths = [max(len(c) for c in col) for col in zip(header, *rows)]
        for line in [header] + rows:
            out.write("  " + "  ".join(c.ljust(w) if i <= 1 else c.rjust(w)
                                       for i, (c, w) in enumerate(zip(line, widths))).rstrip()
                      + "\n")


def compare_summary(a, b):
    t = Table("Summary", ["field", "A", "B", "B - A"])
    sa, sb = a["summary"], b["summary"]
    for field in SUMMARY_FIELDS:
        va, vb = sa.get(field), sb.get(field)
        differs = va != vb and field != "host_seconds"
        t.add([field, va, vb, delta(va, vb)], differs)
    oa = (sa.get("config") or {}).get("overrides") or []
    ob = (sb.get("config") or {}).get("overrides") or []
    t.add(["config", (sa.get("config") or {}).get("file"), (sb.get("config") or {}).get("file"),
           ""], (sa.get("config") or {}).get("file") != (sb.get("config") or {}).get("file"))
    t.add(["--set", " ".join(oa), " ".join(ob), ""], oa != ob)
    return t


def config_diff(a, b):
    ya = ((a["summary"].get("config") or {}).get("yaml") or "").splitlines()
    yb = ((b["summary"].get("config") or {}).get("yaml") or "").splitlines()
    return [line for line in difflib.unified_diff(ya, yb, "A", "B", n=0, lineterm="")
            if not line.startswith("@@")]


def compare_probes(a, b):
    t = Table("Probes (cycles)", ["region", "A", "B", "B - A"])
    ra = {r["name"]: r for r in (a["probes"] or {}).get("regions", [])}
    rb = {r["name"]: r for r in (b["probes"] or {}).get("regions", [])}
    for name in list(ra) + [n for n in rb if n not in ra]:
        ca = ra.get(name, {}).get("cycles")
        cb = rb.get(name, {}).get("cycles")
        t.add([name, ca, cb, delta(ca, cb)], ca != cb)
    return t


def layer_keys(layers):
    """A key per layer: (frame, name, occurrence) so that the same layer of two runs is
    compared even when one run has layers the other has not (an operator left to the CPU, a
    different partition); layers without a name are keyed by their position."""
    keys, seen = [], {}
    for i, layer in enumerate(layers):
        name = layer.get("name")
        if not name:
            keys.append(("#", i))
            continue
        base = (layer.get("frame", 0), name)
        seen[base] = seen.get(base, 0) + 1
        keys.append(base + (seen[base],))
    return keys


def _layer_label(key, frames):
    if key[0] == "#":
        return key[1]
    frame, name, occurrence = key
    label = name + (f" #{occurrence}" if occurrence > 1 else "")
    return label + (f" (frame {frame})" if frames else "")


def compare_layers(a, b):
    la = (a["npu_layers"] or {}).get("layers", [])
    lb = (b["npu_layers"] or {}).get("layers", [])
    t = Table("NPU layers (A / B)", ["layer", "op", "total cycles", "B - A", "NPU cycles",
                                     "DDR cycles", "MAC usage %", "bound"])
    by_a = dict(zip(layer_keys(la), la))
    by_b = dict(zip(layer_keys(lb), lb))
    keys = list(by_a) + [k for k in by_b if k not in by_a]
    frames = any(x.get("frame", 0) for x in la + lb)
    for key in keys:
        x = by_a.get(key, {})
        y = by_b.get(key, {})
        differs = any(x.get(f) != y.get(f) for f in LAYER_FIELDS) or not x or not y

        def pair(field, x=x, y=y):
            return f"{fmt(x.get(field))} / {fmt(y.get(field))}"

        op = x.get("op_type") or y.get("op_type")
        if x and y and x.get("op_type") != y.get("op_type"):
            op = f"{x.get('op_type')} / {y.get('op_type')}"
        t.add([_layer_label(key, frames), op, pair("total_cycles"),
               delta(x.get("total_cycles"), y.get("total_cycles")),
               pair("npu_cycles"), pair("ddr_cycles"), pair("mac_usage_percent"),
               pair("bound")], differs)
    if la or lb:
        # A frame's layers take their elapsed cycles one after another (Total Cycles, the
        # larger of DDR and NPU cycles, leaves out setup); older reports only have the total.
        ta = sum(x.get("elapsed_cycles", x.get("total_cycles", 0)) for x in la)
        tb = sum(y.get("elapsed_cycles", y.get("total_cycles", 0)) for y in lb)
        t.add(["all", f"{len(la)} / {len(lb)} layers, elapsed", f"{ta} / {tb}", delta(ta, tb), "", "",
               "", ""], ta != tb or len(la) != len(lb))
    return t


def compare_ddr(a, b):
    t = Table("DDR (totals per region)", ["region", "field", "A", "B", "B - A"])
    da, db = a["ddr"] or {}, b["ddr"] or {}
    for region in list(da) + [r for r in db if r not in da]:
        ta = (da.get(region) or {}).get("total", {})
        tb = (db.get(region) or {}).get("total", {})
        for field in DDR_FIELDS:
            va, vb = ta.get(field), tb.get(field)
            t.add([region, field, va, vb, delta(va, vb)], va != vb)
        la = (ta.get("latency_ns") or {}).get("mean")
        lb = (tb.get("latency_ns") or {}).get("mean")
        t.add([region, "latency_ns.mean", la, lb, delta(la, lb)], la != lb)
    return t


def compare(a, b, out, diff_only=False):
    out.write(f"A: {a['folder']}\nB: {b['folder']}\n")
    compare_summary(a, b).write(out, diff_only)
    diff = config_diff(a, b)
    out.write("\nConfiguration (YAML as run)\n")
    if diff:
        for line in diff:
            out.write(f"  {line}\n")
    else:
        out.write("  (identical)\n")
    compare_probes(a, b).write(out, diff_only)
    if a["npu_layers"] or b["npu_layers"]:
        compare_layers(a, b).write(out, diff_only)
    if a["ddr"] or b["ddr"]:
        compare_ddr(a, b).write(out, diff_only)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="socsim compare",
        description="Print two runs' reports side by side (summary, configuration, probes, "
                    "NPU layers, DDR) with the differences marked '*'.",
        epilog="A run is a folder written by `socsim run --report DIR` (or a sweep point's "
               "folder), or SWEEP:POINT for point POINT of a sweep in --dir.\nExample:\n"
               "  socsim compare out/a out/b\n  socsim compare mobilenet_npu:0 "
               "mobilenet_npu:5",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_a", metavar="RUN_A")
    parser.add_argument("run_b", metavar="RUN_B")
    parser.add_argument("--dir", default="socsim-sweeps",
                        help="results folder for SWEEP:POINT (default ./socsim-sweeps)")
    parser.add_argument("--diff-only", action="store_true",
                        help="show only the rows that differ")
    args = parser.parse_args(argv)
    try:
        a = load_run(args.run_a, args.dir)
        b = load_run(args.run_b, args.dir)
        compare(a, b, sys.stdout, args.diff_only)
    except SweepError as e:
        print(f"socsim compare: error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
