#!/usr/bin/python3
"""Runs programs on the whole SoC with both CPU models (socsim run --cpu rtl / --cpu iss) and
checks that the ISS takes the RTL core's cycles: the same status, exit code, cycle count and
instruction count in summary.json, and the same firmware output.

  compare_soc.py SOCSIM REPORT_DIR RUN [RUN ...]

Each RUN is the `socsim run` arguments of one program as a single string, e.g.
"--firmware hello.elf" or "--firmware runner.elf --model add8.prog". Prints one line per run
with both cycle counts; exit status 0 if all agree, 1 otherwise, 2 on usage errors.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys


def run(socsim, cpu, args, report):
    cmd = [socsim, "run", "--cpu", cpu, "-q", "--max-cycles", "300000000", "--report", report]
    done = subprocess.run(cmd + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with open(os.path.join(report, "summary.json")) as f:
            summary = json.load(f)
    except OSError as e:
        summary = {"error": str(e)}
    # the firmware's output: everything before the summary line
    output = [l for l in done.stdout.splitlines() if "@ cycle" not in l]
    return done.returncode, summary, output


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("socsim")
    parser.add_argument("reports", help="folder for the runs' reports")
    parser.add_argument("runs", nargs="+", help="socsim run arguments of each program")
    args = parser.parse_args()
    failures = 0
    for i, spec in enumerate(args.runs):
        run_args = shlex.split(spec)
        name = " ".join(os.path.basename(a) for a in run_args if not a.startswith("-"))
        results = {}
        for cpu in ("rtl", "iss"):
            report = os.path.join(args.reports, f"{i}_{cpu}")
            os.makedirs(report, exist_ok=True)
            results[cpu] = run(args.socsim, cpu, run_args, report)
        (rc_r, s_r, out_r), (rc_i, s_i, out_i) = results["rtl"], results["iss"]
        problems = []
        if rc_r != rc_i:
            problems.append(f"exit status rtl {rc_r}, iss {rc_i}")
        for key in ("status", "exit_code", "cycles", "instructions", "cycles_exact"):
            if s_r.get(key) != s_i.get(key):
                problems.append(f"{key} rtl {s_r.get(key)}, iss {s_i.get(key)}")
        if out_r != out_i:
            problems.append("the firmware's output differs")
        verdict = "same" if not problems else "DIFFERENT: " + "; ".join(problems)
        print(f"{name:48s} rtl {s_r.get('cycles')!s:>12} iss {s_i.get('cycles')!s:>12}  {verdict}")
        failures += bool(problems)
    print(f"compare_soc: {len(args.runs) - failures} of {len(args.runs)} runs with the same cycles")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
