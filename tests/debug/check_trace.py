#!/usr/bin/python3
"""`socsim run --trace-instr` on tests/debug/programs/trace_isa.S, against its expected commit
log (tests/debug/trace_isa.expected: Spike's format; each line's register and memory write
checked by hand against the instruction's semantics, as the comments of the program say).

The part before ';' must match line for line; the cycles after it must rise with every line
and stay below the run's end. On both CPU models (the ISS takes the RTL core's cycles) the run
ends when the exit store reaches the exit device, before that store retires: the trace stops
at the instruction before it.
"""
import argparse
import json
import os
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--firmware", required=True)
    parser.add_argument("--expected", required=True)
    parser.add_argument("--cpu", choices=["iss", "rtl"], required=True)
    parser.add_argument("--out", required=True, help="folder for the trace and the report")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    trace = os.path.join(args.out, "trace.log")
    done = subprocess.run([args.socsim, "run", "--cpu", args.cpu, "-q", "--firmware",
                           args.firmware, "--trace-instr", trace, "--report", args.out],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        sys.exit(f"check_trace: socsim failed ({done.returncode}):\n{done.stdout}")
    with open(args.expected) as f:
        expected = [line.rstrip("\n") for line in f]
    expected = expected[:-1]  # the exit store does not retire (see above)
    with open(trace) as f:
        lines = [line.rstrip("\n") for line in f]
    got = [line.split(";")[0].rstrip() for line in lines]
    if got != expected:
        for i, (g, e) in enumerate(zip(got + [""] * len(expected), expected + [""] * len(got))):
            if g != e:
                sys.exit(f"check_trace: line {i + 1}:\n  got      {g!r}\n  expected {e!r}")
    cycles = [int(re.search(r"; cycle (\d+)$", line).group(1)) for line in lines]
    if any(b <= a for a, b in zip(cycles, cycles[1:])):
        sys.exit(f"check_trace: cycles do not rise: {cycles}")
    with open(os.path.join(args.out, "summary.json")) as f:
        total = json.load(f)["cycles"]
    if cycles[-1] >= total:
        sys.exit(f"check_trace: last cycle {cycles[-1]} not below the run's {total}")
    print(f"{len(lines)} lines as expected, cycles {cycles[0]}..{cycles[-1]} of {total}")


if __name__ == "__main__":
    main()
