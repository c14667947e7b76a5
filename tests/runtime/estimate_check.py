#!/usr/bin/python3
"""`socsim estimate` against `socsim run` of the same program and SoC:

  - the estimate has the run's layers (the last frame), in order, with the same names, the
    same operator types and the same NPU (compute) cycles: one planner for both;
  - its NPU time per frame is within --tolerance of the simulated one (the DDR model's banks,
    queues and refresh are what it leaves out);
  - --compare prints the attribution lines, --json writes the layers;
  - a missing --model, a file that is not a program and a --compare directory without a
    report end with status 2 and a one-line message.

Usage: estimate_check.py --socsim BIN --runner ELF --config SOC.yaml --out-dir DIR PROG [INPUT]
"""
import argparse
import json
import os
import re
import subprocess
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--runner", required=True)
    parser.add_argument("--config", required=True)
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--tolerance", type=float, default=0.05)
    parser.add_argument("program")
    parser.add_argument("input", nargs="?")
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(message)

    report = os.path.join(args.out_dir, "run")
    cmd = [args.socsim, "run", "-q", "-c", args.config, "--firmware", args.runner, "--model",
           args.program, "--report", report]
    if args.input:
        cmd += ["--input", args.input]
    subprocess.run(cmd + ["--", "--inputs-in-place"], check=True, capture_output=True)
    est_json = os.path.join(args.out_dir, "estimate.json")
    done = subprocess.run([args.socsim, "estimate", "--model", args.program, "-c", args.config,
                           "--json", est_json, "--compare", report],
                          capture_output=True, text=True)
    check(done.returncode == 0, f"estimate --compare exited {done.returncode}: {done.stderr}")
    with open(os.path.join(report, "npu_layers.json")) as f:
        run_layers = json.load(f)["layers"]
    last = max(l["frame"] for l in run_layers)
    sim = [l for l in run_layers if l["frame"] == last]
    with open(est_json) as f:
        est = json.load(f)["layers"]
    check(len(sim) == len(est), f"{len(sim)} simulated layers, {len(est)} estimated")
    for s, e in zip(sim, est):
        for key in ("name", "op_type", "npu_cycles", "macs"):
            check(s[key] == e[key], f"layer {s['name']}: {key} {s[key]} simulated, {e[key]} "
                                    "estimated")
    sim_us = sum(l["time_us"] for l in sim)
    est_us = sum(l["time_us"] for l in est)
    print(f"estimate_check: {len(est)} layers, simulated {sim_us:.1f} us, estimated "
          f"{est_us:.1f} us ({100 * (est_us / sim_us - 1):+.2f} %)")
    check(abs(est_us / sim_us - 1) <= args.tolerance,
          f"estimate {est_us:.1f} us vs simulated {sim_us:.1f} us: beyond {args.tolerance:.0%}")
    frame = re.search(r"NPU per frame: simulated ([0-9.]+) us, estimated ([0-9.]+) us",
                      done.stdout)
    check(frame is not None and "DDR-bound" in done.stdout and "CPU operators" in done.stdout,
          f"--compare printed no attribution:\n{done.stdout[-600:]}")
    if frame:
        check(abs(float(frame.group(1)) - sim_us) < 0.2,
              f"--compare's simulated total {frame.group(1)} us, the report's {sim_us:.1f}")
    # Bad input: status 2 and one line naming the problem.
    for extra, what in ((["--model", args.config], "not a socsim program file"),
                        ([], "--model is required"),
                        (["--model", args.program, "--compare", args.out_dir + "/none"],
                         "cannot open file")):
        bad = subprocess.run([args.socsim, "estimate", "-c", args.config] + extra,
                             capture_output=True, text=True)
        check(bad.returncode == 2 and what in bad.stderr,
              f"estimate {' '.join(extra)}: status {bad.returncode}, {bad.stderr[:200]!r}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
