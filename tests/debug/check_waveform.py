#!/usr/bin/python3
"""Waveforms of the RTL core (`socsim run --trace-fst/--trace-vcd --trace-window A..B`):

  - an FST of a short window, read back with gtkwave's fst2vcd: its header (timescale, the
    core's scope), the number of signals, and its time range, which must be the window's
    cycles at the SoC's clock period;
  - a VCD of another window, read directly: the same checks, and clk_i toggling twice a cycle;
  - the refusals: --cpu iss, a malformed window, a window without a trace file (status 2).
"""
import argparse
import json
import os
import re
import subprocess
import sys


def fail(message):
    sys.exit(f"check_waveform: {message}")


def read_vcd(text):
    """(timescale, scopes, {id: name}, [times], {id: number of value changes})."""
    header, _, body = text.partition("$enddefinitions")
    timescale = re.search(r"\$timescale\s+(\S+)\s+\$end", header)
    scopes = re.findall(r"\$scope \w+ (\S+) \$end", header)
    signals = dict(re.findall(r"\$var \w+ \d+ (\S+) (\S+)", header))
    times, changes = [], {}
    for line in body.splitlines():
        if line.startswith("#"):
            times.append(int(line[1:]))
        elif line[:1] in "01xz" and len(line) > 1:
            changes[line[1:]] = changes.get(line[1:], 0) + 1
        elif line[:1] == "b" and " " in line:
            ident = line.split()[1]
            changes[ident] = changes.get(ident, 0) + 1
    return (timescale.group(1) if timescale else None), scopes, signals, times, changes


def check(vcd_text, first, end, period_ps, what):
    timescale, scopes, signals, times, changes = read_vcd(vcd_text)
    if timescale != "1ps":
        fail(f"{what}: timescale {timescale}, expected 1ps")
    if not scopes or scopes[0] != "rv_core_sim":
        fail(f"{what}: top scope {scopes[:1]}, expected rv_core_sim")
    if len(signals) < 200:
        fail(f"{what}: only {len(signals)} signals")
    if not times or times[0] != first * period_ps or times[-1] != (end - 1) * period_ps + period_ps // 2:
        fail(f"{what}: time range {times[:1]}..{times[-1:]} ps, expected "
             f"{first * period_ps}..{(end - 1) * period_ps + period_ps // 2}")
    clk = [ident for ident, name in signals.items() if name == "clk_i"]
    if not clk or changes.get(clk[0], 0) < 2 * (end - first) - 1:
        fail(f"{what}: clk_i changes {changes.get(clk[0]) if clk else None} times in "
             f"{end - first} cycles")
    return len(signals), times[0], times[-1]


def run(args, extra, expect=0):
    cmd = [args.socsim, "run", "-q", "--firmware", args.firmware] + extra
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != expect:
        fail(f"{' '.join(cmd)}: status {done.returncode}, expected {expect}:\n{done.stdout}")
    return done.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--fst2vcd", default="fst2vcd")
    parser.add_argument("--firmware", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    fst = os.path.join(args.out, "window.fst")
    run(args, ["--cpu", "rtl", "--trace-fst", fst, "--trace-window", "100..200",
               "--report", args.out])
    with open(os.path.join(args.out, "summary.json")) as f:
        period_ps = round(1e6 / json.load(f)["clocks"]["cpu_mhz"])
    with open(fst, "rb") as f:
        if f.read(1) != b"\x00":  # an FST file starts with its header block (type 0)
            fail("window.fst is not an FST file")
    vcd = subprocess.run([args.fst2vcd, "-f", fst], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    signals, t0, t1 = check(vcd, 100, 200, period_ps, "FST")

    vcd_path = os.path.join(args.out, "window.vcd")
    run(args, ["--cpu", "rtl", "--trace-vcd", vcd_path, "--trace-window", "500..520"])
    with open(vcd_path) as f:
        check(f.read(), 500, 520, period_ps, "VCD")
    if os.path.exists(vcd_path + ".fst"):
        fail("the intermediate FST of --trace-vcd was left behind")

    for extra, message in [
            (["--cpu", "iss", "--trace-fst", fst], "use --cpu rtl"),
            (["--trace-fst", fst, "--trace-window", "20..10"], "expected A..B"),
            (["--trace-window", "1..2"], "needs --trace-fst or --trace-vcd")]:
        out = run(args, extra, expect=2)
        if message not in out:
            fail(f"{extra}: no '{message}' in: {out}")
    print(f"FST: {signals} signals, {t0}..{t1} ps; VCD window as asked; refusals with status 2")


if __name__ == "__main__":
    main()
