"""Runs firmware/tests/probe_check.elf under `socsim run --profile --report DIR` and checks
the probe reports against the loops' known cycle counts, the documented schema of
probes.json / probes.csv, and that the function profile adds up to the run's cycles.

Usage: check_probes.py SOCSIM FIRMWARE NM OUT_DIR [socsim run arguments...]
"""

import csv
import json
import os
import subprocess
import sys

FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)


def expect(what, got, want):
    check(got == want, f"{what}: got {got}, expected {want}")


REGION_FIELDS = {
    "name": str, "category": str, "spec": str, "intrusive": bool, "count": int, "cycles": int,
    "min_cycles": int, "max_cycles": int, "instructions": int, "cpi": (int, float),
    "time_us": (int, float), "share": (int, float), "occurrences": list,
    "occurrences_truncated": bool,
}
TOP_FIELDS = {
    "schema": str, "cpu_model": str, "cycles_exact": bool, "clock_mhz": (int, float),
    "firmware": str, "total_cycles": int, "total_instructions": int,
    "unmatched_returns": int, "unmatched_marks": int, "regions": list,
}
OCCURRENCE_FIELDS = {"start_cycle": int, "end_cycle": int, "cycles": int, "instructions": int}
CSV_HEADER = ["region", "category", "count", "cycles", "min_cycles", "max_cycles",
              "instructions", "cpi", "time_us", "share", "elements", "cycles_exact"]
CATEGORIES = {"phase", "runtime", "operator", "delegate", "user", "mark"}


def typed(obj, fields, where):
    for key, kind in fields.items():
        check(key in obj, f"{where}: missing '{key}'")
        if key in obj:
            check(isinstance(obj[key], kind) and not (kind is int and isinstance(obj[key], bool)),
                  f"{where}: '{key}' has type {type(obj[key]).__name__}")
    extra = set(obj) - set(fields) - {"elements"}
    check(not extra, f"{where}: undocumented keys {sorted(extra)}")


def validate_schema(probes, rows):
    typed(probes, TOP_FIELDS, "probes.json")
    expect("schema", probes.get("schema"), "socsim-probes/1")
    for r in probes.get("regions", []):
        where = f"region '{r.get('name')}'"
        typed(r, REGION_FIELDS, where)
        check(r.get("category") in CATEGORIES, f"{where}: category {r.get('category')}")
        check(r.get("elements") is None or isinstance(r.get("elements"), int),
              f"{where}: elements must be an integer or null")
        occ = r.get("occurrences", [])
        expect(f"{where} occurrences listed", len(occ), r.get("count"))
        expect(f"{where} cycles = sum over occurrences", sum(o["cycles"] for o in occ),
               r.get("cycles"))
        if occ:
            expect(f"{where} min", min(o["cycles"] for o in occ), r["min_cycles"])
            expect(f"{where} max", max(o["cycles"] for o in occ), r["max_cycles"])
        for o in occ:
            typed(o, OCCURRENCE_FIELDS, where + " occurrence")
            expect(f"{where} occurrence cycles", o["cycles"], o["end_cycle"] - o["start_cycle"])
    expect("probes.csv rows", [row["region"] for row in rows],
           [r["name"] for r in probes["regions"]])
    for row, r in zip(rows, probes["regions"]):
        for key in ("count", "cycles", "min_cycles", "max_cycles", "instructions"):
            expect(f"probes.csv {r['name']} {key}", int(row[key]), r[key])
        expect(f"probes.csv {r['name']} cycles_exact", row["cycles_exact"],
               "true" if probes["cycles_exact"] else "false")


def symbols(nm, elf):
    out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
    return {p[2]: int(p[0], 16) for p in (line.split() for line in out.splitlines())
            if len(p) == 3}


def main():
    socsim, firmware, nm, out_dir = sys.argv[1:5]
    extra = sys.argv[5:]
    probes_file = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probe_loops.yaml")
    cmd = [socsim, "run", "--firmware", firmware, "--profile", "--report", out_dir,
           "--probes", probes_file, "--probe", "loop=probe_loop", "--max-cycles", "10000000"]
    result = subprocess.run(cmd + extra, capture_output=True, text=True)
    sys.stdout.write(result.stdout)
    if result.returncode != 0 or "probe_check: PASS" not in result.stdout:
        print(f"FAIL: {' '.join(cmd + extra)} exited {result.returncode}\n{result.stderr}")
        return 1
    with open(os.path.join(out_dir, "probes.json")) as f:
        probes = json.load(f)
    with open(os.path.join(out_dir, "probes.csv"), newline="") as f:
        reader = csv.DictReader(f)
        expect("probes.csv header", reader.fieldnames, CSV_HEADER)
        rows = list(reader)
    with open(os.path.join(out_dir, "summary.json")) as f:
        summary = json.load(f)
    validate_schema(probes, rows)
    regions = {r["name"]: r for r in probes["regions"]}

    def region(name, **want):
        r = regions.get(name)
        check(r is not None, f"no region '{name}'")
        for key, value in want.items():
            if r is not None:
                expect(f"{name} {key}", r[key], value)

    # probe_loop(100) and probe_loop(10): 4n cycles, 2n + 1 instructions each.
    region("loop", count=2, cycles=400 + 40, min_cycles=40, max_cycles=400,
           instructions=201 + 21, category="user")
    # The loop alone: 4n - 2 cycles, 2n instructions. The range is entered by the call, and
    # the retire trace charges the call's refill cycle to the first instruction at the target:
    # one more cycle per entry (on both CPU models: the ISS takes the RTL core's cycles).
    region("loop_body", count=2, cycles=398 + 38 + 2, instructions=200 + 20)
    # probe_marked(50): the loop and the END store, 4n - 2 + 1 cycles, 2n + 1 instructions.
    region("marked loop", count=1, cycles=199, instructions=101, intrusive=True,
           category="mark")
    # crt0's BSS loop: 5 cycles per word, 3 instructions per word, the last branch 2 less.
    syms = symbols(nm, firmware)
    words = (syms["__bss_end"] - syms["__bss_start"]) // 4
    check(words >= 256, f"BSS of {words} words is smaller than probe_check's buffer")
    region("bss zero", count=1, cycles=5 * words - 2, instructions=3 * words)
    region("static init", count=1)
    region("main to exit", count=1)
    region("reset -> _start", count=1)
    expect("unmatched returns", probes["unmatched_returns"], 0)
    expect("probes total = run cycles", probes["total_cycles"], summary["cycles"])
    expect("probes instructions = run instructions", probes["total_instructions"],
           summary["instructions"])
    expect("cycles_exact", probes["cycles_exact"], summary["cycles_exact"])

    # The profile: self cycles add up to the run's cycles; folded stacks too.
    self_cycles = self_instr = 0
    calls = {}
    current = None
    with open(os.path.join(out_dir, "callgrind.out.socsim")) as f:
        lines = f.read().splitlines()
    names = {}
    in_call = False
    for line in lines:
        if line.startswith("fn="):
            ident = line[3:].split(" ", 1)
            if len(ident) == 2:
                names[ident[0]] = ident[1]
            current = names.get(ident[0])
        elif line.startswith("cfn="):
            ident = line[4:].split(" ", 1)
            if len(ident) == 2:
                names[ident[0]] = ident[1]
            callee = names.get(ident[0])
        elif line.startswith("calls="):
            # One calls= line per call site: add them up per caller and callee.
            calls[(current, callee)] = calls.get((current, callee), 0) + int(line[6:].split()[0])
            in_call = True
        elif line.startswith("0x"):
            if not in_call:
                _, _, c, i = line.split()  # positions: instr line
                self_cycles += int(c)
                self_instr += int(i)
            in_call = False
    expect("callgrind self cycles = run cycles", self_cycles, summary["cycles"])
    expect("callgrind self instructions = run instructions", self_instr, summary["instructions"])
    expect("calls main -> probe_loop", calls.get(("main", "probe_loop")), 2)
    expect("calls middle -> leaf", calls.get(("middle", "leaf")), 20)
    with open(os.path.join(out_dir, "profile.folded")) as f:
        folded = [line.rsplit(" ", 1) for line in f.read().splitlines()]
    expect("folded cycles = run cycles", sum(int(c) for _, c in folded), summary["cycles"])
    check(any(s.endswith("main;middle;leaf") for s, _ in folded), "no main;middle;leaf stack")
    with open(os.path.join(out_dir, "timeline.json")) as f:
        trace = json.load(f)
    events = [e for e in trace["traceEvents"] if e.get("ph") == "X" and e.get("cat") != "layer"]
    expect("trace events", len(events), sum(r["count"] for r in probes["regions"]))

    for failure in FAILURES:
        print("FAIL: " + failure)
    if not FAILURES:
        print("check_probes: PASS")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
