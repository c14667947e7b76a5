#!/usr/bin/python3
"""A stop request that lands while an NPU layer computes (on its host thread, the core
asleep in WFI waiting for the NPU's interrupt) ends the run as a stop: status 124 with
--max-host-seconds (and 130 / 143 for a signal, the same path), never as the lock-up fault
the cut-short layer would otherwise leave behind.

Runs resnet18 on the NPU once whole, then with host-time limits at tenths of its time,
most of which fall inside a layer.
Usage: check_stop_in_layer.py SOCSIM RUNNER MODEL INPUT
"""
import subprocess
import sys
import time


def run(command, limit=None):
    extra = ["--max-host-seconds", f"{limit:.3f}"] if limit else []
    start = time.monotonic()
    proc = subprocess.run(command + extra, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=300)
    last = (proc.stderr.strip().splitlines() or [""])[-1]
    return proc.returncode, last, time.monotonic() - start


def main():
    socsim, runner, model, data = sys.argv[1:5]
    command = [socsim, "run", "--cpu", "iss", "--firmware", runner, "--model", model,
               "--input", data, "-q"]
    status, last, whole = run(command)
    if status != 0:
        sys.exit(f"check_stop_in_layer: the whole run: status {status}: {last}")
    # Limits spread over the run (its time on this host): most land inside a layer.
    outcomes = []
    for tenth in range(1, 10):
        limit = whole * tenth / 10
        status, last, _ = run(command, limit)
        outcomes.append((round(limit, 3), status, last))
        print(f"--max-host-seconds {limit:.3f}: status {status}: {last}")
    bad = [o for o in outcomes if o[1] not in (0, 124) or "lock-up" in o[2]]
    if bad:
        sys.exit(f"check_stop_in_layer: a stop ended as something else: {bad}")
    print(f"{sum(o[1] == 124 for o in outcomes)} of {len(outcomes)} runs stopped by the limit "
          f"(the whole run: {whole:.2f} s), none as a lock-up")

if __name__ == "__main__":
    main()
