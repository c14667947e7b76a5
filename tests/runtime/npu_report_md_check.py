"""Runs scripts/npu_report_md.py on a program and checks the markdown against the runs' JSON.

Checks, for one and for three cores: the layer table has one row per layer of the last frame,
in order, with that layer's DDR / NPU / Total cycles, TaskNumber and name; the per-frame time
is the sum of the layers' Time(us) and the elapsed cycles their sum; there is one advice row
per rule that fired, its count and total stake those of the JSON's findings; a run of the
script on a missing program exits with status 2.
"""

import argparse
import json
import os
import subprocess
import sys


def fail(msg):
    print(f"npu_report_md_check: {msg}", file=sys.stderr)
    sys.exit(1)


def section(text, heading):
    at = text.find(f"## {heading}\n")
    if at < 0:
        fail(f"no section '{heading}'")
    end = text.find("\n## ", at + 1)
    return text[at:end if end >= 0 else len(text)]


def table_rows(block):
    rows = [l for l in block.splitlines() if l.startswith("| ")]
    return [[c.strip() for c in r.strip("|").split("|")] for r in rows[1:]]  # past the header


def num(cell):
    return float(cell.replace(",", ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--firmware", required=True)
    parser.add_argument("--input", required=True)
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("program")
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    md = os.path.join(args.out_dir, "report.md")
    base = [sys.executable, args.script, "--input", args.input, "--title", "check",
            "--socsim", args.socsim, "--firmware", args.firmware]
    proc = subprocess.run(base + ["--program", args.program, "-o", md, "--keep", args.out_dir],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        fail(f"exit {proc.returncode}: {proc.stderr}")
    bad = subprocess.run(base + ["--program", os.path.join(args.out_dir, "missing.pte"),
                                 "-o", md + ".bad"], capture_output=True, text=True)
    if bad.returncode != 2 or "missing.pte" not in bad.stderr:
        fail(f"missing program: exit {bad.returncode}, stderr {bad.stderr!r}")
    text = open(md).read()
    frame_rows = {r[0]: r[1:] for r in table_rows(section(text, "Per frame"))}
    for i, cores in enumerate((1, 3)):
        with open(os.path.join(args.out_dir, f"cores{cores}", "npu_layers.json")) as f:
            report = json.load(f)
        frame = max(l["frame"] for l in report["layers"])
        layers = [l for l in report["layers"] if l["frame"] == frame]
        label = f"{cores} core{'s' if cores > 1 else ''}"
        rows = table_rows(section(text, f"Layers, {label}"))
        if len(rows) != len(layers):
            fail(f"{label}: {len(rows)} rows for {len(layers)} layers")
        for n, (row, l) in enumerate(zip(rows, layers), 1):
            want = [str(n), l["op_type"], f"{l['ddr_cycles']:,}", f"{l['npu_cycles']:,}",
                    f"{l['total_cycles']:,}", str(l["task_number"]), f"`{l['name']}`"]
            got = [row[0], row[1], row[6], row[7], row[8], row[12], row[14]]
            if got != want:
                fail(f"{label} row {n}: {got} != {want}")
        time_us = sum(l["time_us"] for l in layers)
        elapsed = sum(l["elapsed_cycles"] for l in layers)
        if abs(num(frame_rows["Total Operator Elapsed Per Frame Time(us)"][i]) - time_us) > 0.06:
            fail(f"{label}: frame time {frame_rows['Total Operator Elapsed Per Frame Time(us)']}"
                 f" != {time_us:.1f}")
        if num(frame_rows["NPU cycles (elapsed)"][i]) != elapsed:
            fail(f"{label}: elapsed {frame_rows['NPU cycles (elapsed)']} != {elapsed}")
        rules = {}
        for a in report.get("advice", []):
            rules.setdefault(a["rule"], []).append(a["cycles_at_stake"])
        advice = {r[0].strip("`"): r for r in table_rows(section(text, f"Advice, {label}"))}
        if set(advice) != set(rules):
            fail(f"{label}: advice rules {sorted(advice)} != {sorted(rules)}")
        for rule, stakes in rules.items():
            if num(advice[rule][1]) != len(stakes) or num(advice[rule][2]) != sum(stakes):
                fail(f"{label}: {rule}: {advice[rule][1:3]} != {len(stakes)}, {sum(stakes)}")
    print(f"npu_report_md_check: {len(layers)} layers, both core counts agree with the JSON")


if __name__ == "__main__":
    main()
