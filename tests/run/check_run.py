"""Runs `socsim run` with --report and checks summary.json (and ddr.json) against
expectations given on the command line.

  check_run.py SOCSIM REPORT_DIR [--expect key=value ...] [--min key=value ...]
               [--ddr-requests N] -- <socsim run arguments>

Keys are dotted paths into summary.json; values are compared as JSON when they parse.
"""
import argparse
import json
import shutil
import subprocess
import sys


def lookup(doc, path):
    for key in path.split("."):
        doc = doc[key]
    return doc


def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("socsim")
    parser.add_argument("report")
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--min", action="append", default=[])
    parser.add_argument("--time-consistent", action="store_true",
                        help="check time_ms == cycles / (cpu_mhz * 1000)")
    parser.add_argument("--ddr-requests", type=int,
                        help="expected CPU reads and writes each, in ddr.json")
    args = parser.parse_args(argv[:sep])
    shutil.rmtree(args.report, ignore_errors=True)
    run = subprocess.run([args.socsim, "run", "--report", args.report] + argv[sep + 1:],
                         capture_output=True, text=True)
    print(run.stdout + run.stderr)
    with open(f"{args.report}/summary.json") as f:
        summary = json.load(f)
    failures = []
    for item in args.expect:
        key, value = item.split("=", 1)
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            pass
        if lookup(summary, key) != value:
            failures.append(f"{key} = {lookup(summary, key)!r}, expected {value!r}")
    for item in args.min:
        key, value = item.split("=", 1)
        if lookup(summary, key) < float(value):
            failures.append(f"{key} = {lookup(summary, key)!r}, expected at least {value}")
    if args.time_consistent:
        want = summary["cycles"] / (summary["clocks"]["cpu_mhz"] * 1e3)
        if abs(summary["time_ms"] - want) > 1e-9 * max(1.0, want):
            failures.append(f"time_ms {summary['time_ms']} != {want}")
    if summary["exit_code"] != run.returncode:
        failures.append(f"exit status {run.returncode} != summary exit_code {summary['exit_code']}")
    if args.ddr_requests is not None:
        with open(f"{args.report}/ddr.json") as f:
            ddr = json.load(f)
        text = json.dumps(ddr)
        counts = [(d["reads"], d["writes"]) for d in find_initiators(ddr)]
        if (args.ddr_requests, args.ddr_requests) not in counts:
            failures.append(f"no initiator with {args.ddr_requests} reads and writes in {text[:400]}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


def find_initiators(node):
    """Every object in ddr.json that has 'reads' and 'writes' counters."""
    found = []
    if isinstance(node, dict):
        if "reads" in node and "writes" in node:
            found.append(node)
        for v in node.values():
            found.extend(find_initiators(v))
    elif isinstance(node, list):
        for v in node:
            found.extend(find_initiators(v))
    return found


if __name__ == "__main__":
    sys.exit(main())
