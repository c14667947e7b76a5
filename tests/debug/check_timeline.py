#!/usr/bin/python3
"""timeline.json of `socsim run --report DIR --timeline --timeline-functions`, checked
against Chrome's trace-event format and against the run's other reports:

  - format: a traceEvents list; every event with a name, a phase (X complete, C counter, M
    metadata) and a pid; X events with ts >= 0, dur >= 0 and a tid; counters with numeric
    values; every process and track named by metadata;
  - nesting: on every track, each span lies inside the one it starts in or after it;
  - timestamps: inside the run (its cycles at the CPU clock);
  - content: the CPU's regions and functions (main among them), an NPU layer per layer of
    npu_layers.json at its start cycle on each core it used, DMA transfers, the DDR's
    bandwidth counter adding up to the bytes of ddr.json, its queue depth, and (for a
    program with a timer interrupt) the interrupt handler.
"""
import argparse
import json
import os
import subprocess
import sys

EPS_US = 1e-6


def fail(message):
    sys.exit(f"check_timeline: {message}")


def run(args, out, firmware, extra):
    cmd = [args.socsim, "run", "-q", "--cpu", args.cpu, "--firmware", firmware, "--report", out,
           "--timeline", "--timeline-functions"] + extra
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        fail(f"{' '.join(cmd)}: status {done.returncode}:\n{done.stdout}")
    with open(os.path.join(out, "timeline.json")) as f:
        timeline = json.load(f)
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    return timeline, summary


def validate(timeline, summary):
    """Format, naming, nesting, time range. Returns {(process, track): [X events]} and
    {(process, counter): [C events]}."""
    events = timeline.get("traceEvents")
    if not isinstance(events, list) or not events:
        fail("no traceEvents list")
    processes, tracks = {}, {}
    for e in events:
        if not isinstance(e.get("name"), str) or not isinstance(e.get("pid"), int):
            fail(f"event without name or pid: {e}")
        if e.get("ph") not in ("X", "C", "M"):
            fail(f"unexpected phase: {e}")
        if e["ph"] == "M" and e["name"] == "process_name":
            processes[e["pid"]] = e["args"]["name"]
        if e["ph"] == "M" and e["name"] == "thread_name":
            tracks[(e["pid"], e["tid"])] = e["args"]["name"]
    end_us = summary["cycles"] / summary["clocks"]["cpu_mhz"]
    spans, counters = {}, {}
    for e in events:
        if e["ph"] == "X":
            if not isinstance(e.get("tid"), int) or (e["pid"], e["tid"]) not in tracks:
                fail(f"span on an unnamed track: {e}")
            if not (isinstance(e["ts"], (int, float)) and isinstance(e["dur"], (int, float))):
                fail(f"span without numeric ts/dur: {e}")
            if e["ts"] < 0 or e["dur"] < 0 or e["ts"] + e["dur"] > end_us + EPS_US:
                fail(f"span outside the run (0..{end_us} us): {e}")
            key = (processes[e["pid"]], tracks[(e["pid"], e["tid"])])
            spans.setdefault(key, []).append(e)
        elif e["ph"] == "C":
            if e["pid"] not in processes or not all(
                    isinstance(v, (int, float)) for v in e["args"].values()):
                fail(f"counter of an unnamed process or not numeric: {e}")
            if e["ts"] < 0:
                fail(f"counter before the run: {e}")
            counters.setdefault((processes[e["pid"]], e["name"]), []).append(e)
    for key, track in spans.items():
        stack = []
        for e in sorted(track, key=lambda e: (e["ts"], -e["dur"])):
            while stack and stack[-1] <= e["ts"] + EPS_US:
                stack.pop()
            end = e["ts"] + e["dur"]
            if stack and end > stack[-1] + EPS_US:
                fail(f"{key}: {e['name']} at {e['ts']} us overlaps the span it starts in "
                     f"(which ends at {stack[-1]} us)")
            stack.append(end)
    return spans, counters


def check_bounds(spans, npu):
    """Each NPU layer's bound in the timeline is the report's class (ddr, on-chip-dma,
    compute), not a class of its own."""
    bounds = {(e["name"], e["args"].get("bound")) for (p, t), es in spans.items()
              if p.startswith("npu") and t.startswith("core 0") for e in es}
    if bounds != {(l["name"], l["bound"]) for l in npu["layers"]} or \
            any(b not in ("compute", "ddr", "on-chip-dma") for _, b in bounds):
        fail(f"NPU layers' bounds {sorted(bounds)} differ from npu_layers.json's")


def check_npu_run(args):
    out = os.path.join(args.out, "npu")
    timeline, summary = run(args, out, args.runner, ["--model", args.model, "--input", args.input])
    spans, counters = validate(timeline, summary)
    cpu = next(p for p, _ in spans if p.startswith("cpu"))
    regions = {e["name"] for e in spans.get((cpu, "regions"), [])}
    if "main to exit" not in regions:
        fail(f"no 'main to exit' region: {sorted(regions)}")
    functions = {e["name"] for (p, t), es in spans.items() if t.startswith("functions") for e in es}
    if "main" not in functions:
        fail("no function span for main")

    with open(os.path.join(out, "npu_layers.json")) as f:
        npu = json.load(f)
    layers = [(e["name"], e["ts"]) for (p, t), es in spans.items()
              if p.startswith("npu") and t.startswith("core 0") for e in es]
    expected = [(l["name"], l["start_cycle"] / npu["clock_mhz"]) for l in npu["layers"]]
    if sorted(layers) != sorted(expected) or not expected:
        fail(f"NPU layers on core 0 {layers} differ from npu_layers.json {expected}")
    check_bounds(spans, npu)
    # A narrow DMA port makes layers DMA-bound: their bound too is the report's.
    narrow = os.path.join(args.out, "npu_narrow")
    narrow_timeline, narrow_summary = run(args, narrow, args.runner,
                                          ["--model", args.model, "--input", args.input,
                                           "--set", "npu.dma.bytes_per_cycle=1"])
    with open(os.path.join(narrow, "npu_layers.json")) as f:
        narrow_npu = json.load(f)
    if all(l["bound"] == "compute" for l in narrow_npu["layers"]):
        fail("no DMA-bound layer with npu.dma.bytes_per_cycle=1")
    check_bounds(validate(narrow_timeline, narrow_summary)[0], narrow_npu)
    npu_processes = {p for p, _ in spans if p.startswith("npu")}
    for l in npu["layers"]:
        for core in range(max(1, l["cores_used"])):
            names = [e["name"] for p in npu_processes for e in spans.get((p, f"core {core}"), [])]
            if l["name"] not in names:
                fail(f"layer {l['name']} is not on core {core}")
    dma = [e for (p, t), es in spans.items() if p.startswith("npu") and t.startswith("DMA")
           for e in es]
    if len(dma) < len(npu["layers"]):
        fail(f"only {len(dma)} DMA transfers for {len(npu['layers'])} layers")

    with open(os.path.join(out, "ddr.json")) as f:
        ddr = json.load(f)["ddr"]["total"]
    bins = timeline["otherData"]["ddr_counter_bin_us"]
    ddr_name, bin_us = next(iter(bins.items()))
    bandwidth = counters.get((f"ddr {ddr_name}", "bandwidth (GB/s)"))
    depth = counters.get((f"ddr {ddr_name}", "queue depth (requests)"))
    if not bandwidth or not depth:
        fail(f"no DDR counters: {sorted(counters)}")
    # Each point holds until the next: GB/s x bin width in ns = bytes per bin.
    points = sorted((e["ts"], e["args"]["value"]) for e in bandwidth)
    total = 0.0
    for (t0, v), (t1, _) in zip(points, points[1:] + [(points[-1][0] + bin_us, 0)]):
        total += v * 1e3 * (t1 - t0)
    moved = ddr["bytes_read"] + ddr["bytes_written"]
    if abs(total - moved) > 0.5 + 1e-6 * moved:
        fail(f"DDR bandwidth counter adds up to {total} bytes, ddr.json says {moved}")
    if max(e["args"]["value"] for e in depth) < 1:
        fail("DDR queue depth never above 0")
    return len(spans), sum(len(s) for s in spans.values())


def check_interrupt_run(args):
    out = os.path.join(args.out, "timer")
    timeline, summary = run(args, out, args.timer, [])
    spans, _ = validate(timeline, summary)
    traps = [e for (p, t), es in spans.items() if t.startswith("traps") for e in es]
    if not any(e["name"] == "__socsim_interrupt_entry" for e in traps):
        fail(f"no interrupt handler span: {[e['name'] for e in traps]}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True)
    parser.add_argument("--cpu", choices=["iss", "rtl"], required=True)
    parser.add_argument("--runner", required=True, help="executor_runner.elf")
    parser.add_argument("--model", required=True, help="a program delegating to the NPU")
    parser.add_argument("--input", required=True)
    parser.add_argument("--timer", required=True, help="timer_demo.elf")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    tracks, events = check_npu_run(args)
    check_interrupt_run(args)
    print(f"{events} spans on {tracks} tracks: format, nesting, time range and content as expected")


if __name__ == "__main__":
    main()
