"""Runs an NPU-delegated program with executor_runner (--profile) under `socsim run --report
DIR` and checks the per-layer report against what the firmware measured.

Checks:
  - the printed table has one NPU row per layer of the last frame, and the report files
    (DIR/npu_layers.json, DIR/npu_layers.csv) agree with it;
  - one command list per npu delegate call, in order; the layers of a list run back to back,
    so their elapsed cycles add up exactly to the NPU's CYCLES register, which the firmware
    read after the list (the "npu cycles" of the --profile line);
  - every layer's elapsed cycles cover its compute; Total Cycles = max(DDR, NPU) (RKNN);
    WorkLoad shares add up; MacUsage is RKNN's (MACs over elapsed time x peak of the cores
    used); the quantize row's DataType is FLOAT32;
  - the delegate call as the CPU timed it (its cycles converted to NPU cycles) covers the
    list, and what it adds is the backend's set-up (patching the descriptors' addresses,
    the register writes, waking up): at most --overhead-base + --overhead-per-layer x layers
    CPU cycles;
  - a layer's DDR bytes (what the roofline plots) are part of the bytes its DMA moved;
  - the energy columns: each layer's total is its MAC, buffer and DDR parts, the MAC part is
    MACs x the preset's int8 figure, the CSV agrees with the JSON, and the frame's energy
    (frame_energy_uj) is the sum of its layers';
  - scripts/npu_roofline.py draws the layers into a non-empty PNG, none above the roof
    (the array's peak, the DDR preset's peak bandwidth).
"""

import argparse
import csv
import json
import os
import re
import subprocess
import sys

DELEGATE = re.compile(r"^  delegate (\d+) npu: \d+ elements, (\d+) cycles, (\d+) npu cycles$",
                      re.M)
ROW = re.compile(r"^(\d+)\s+(\S+)\s+(?:INT8|FLOAT32)\s+(NPU|CPU)\s", re.M)


class CheckError(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckError(message)


def run_checks(args):
    os.makedirs(args.out_dir, exist_ok=True)
    cmd = [args.socsim, "run", "--firmware", args.runner, "--model", args.model,
           "--report", args.out_dir, "--max-cycles", args.max_cycles]
    if args.input:
        cmd += ["--input", args.input]
    cmd += ["--", "--profile"]
    result = subprocess.run(cmd, capture_output=True, text=True)
    out = result.stdout
    check(result.returncode == 0, f"socsim exited {result.returncode}\n{out}\n{result.stderr}")

    with open(os.path.join(args.out_dir, "npu_layers.json")) as f:
        report = json.load(f)
    with open(os.path.join(args.out_dir, "summary.json")) as f:
        cpu_mhz = json.load(f)["clocks"]["cpu_mhz"]
    npu_mhz = report["clock_mhz"]
    layers = report["layers"]
    check(layers, "the report has no layers")

    # The table and the files show the last frame.
    last = max(l["frame"] for l in layers)
    frame = [l for l in layers if l["frame"] == last]
    header = out.find("per-layer report")
    check(header >= 0, "no per-layer report printed")
    rows = ROW.findall(out[header:out.find("Total Operator Elapsed", header)])
    npu_rows = [r for r in rows if r[2] == "NPU"]
    cpu_rows = [r for r in rows if r[2] == "CPU"]
    check(len(npu_rows) == len(frame),
          f"{len(npu_rows)} NPU table rows, {len(frame)} layers in the last frame")
    check([r[1] for r in npu_rows] == [l["op_type"] for l in frame], "table op types differ")
    # The operators left to the CPU (from the probes) are listed too: the input quantisation
    # at least, since the NPU works on int8 tensors.
    check("quantize" in [r[1] for r in cpu_rows], f"no CPU quantize row among {cpu_rows}")
    # A quantize reads float data: its DataType says so.
    check(re.search(r"^\d+\s+quantize\s+FLOAT32\s+CPU\s", out[header:], re.M) is not None,
          "the quantize row's DataType is not FLOAT32")
    with open(os.path.join(args.out_dir, "npu_layers.csv")) as f:
        csv_rows = [r for r in csv.DictReader(f) if r["Target"] == "NPU"]
    check([int(r["TotalCycles"]) for r in csv_rows] == [l["total_cycles"] for l in frame],
          "CSV and JSON total cycles differ")
    # RKNN's columns: Total Cycles = max(DDR, NPU); WorkLoad shares add up to 100 %;
    # TaskNumber >= 1; MacUsage = MACs / (elapsed x MACs per cycle of the cores used).
    per_core = report["rows"] * report["columns"]
    for l in frame:
        check(l["total_cycles"] == max(l["ddr_cycles"], l["npu_cycles"]),
              f"{l['name']}: total {l['total_cycles']} != max(DDR, NPU)")
        shares = [float(x.rstrip("%")) for x in l["workload"].split("/")]
        check(len(shares) == report["cores"] and abs(sum(shares) - 100) < 0.5,
              f"{l['name']}: workload {l['workload']}")
        check(l["task_number"] >= 1, f"{l['name']}: no tasks")
        usage = 100.0 * l["macs"] / (l["elapsed_cycles"] * per_core * l["cores_used"])
        check(abs(usage - l["mac_usage_percent"]) < 1e-6, f"{l['name']}: MacUsage {usage}")

    # DDR traffic and energy.
    csv_by_id = {int(r["ID"]): r for r in csv_rows}
    for i, l in enumerate(frame):
        ddr = l["ddr_read_bytes"] + l["ddr_write_bytes"]
        check(0 <= ddr <= l["read_bytes"] + l["write_bytes"],
              f"{l['name']}: {ddr} DDR bytes of {l['read_bytes'] + l['write_bytes']} moved")
        parts = [l[k] for k in ("mac_energy_uj", "buffer_energy_uj", "ddr_energy_uj")]
        check(all(p is not None for p in parts[:2]), f"{l['name']}: no MAC/buffer energy")
        known = sum(p for p in parts if p is not None)
        check(abs(l["energy_uj"] - known) <= 1e-9 * max(1.0, known),
              f"{l['name']}: energy {l['energy_uj']} != parts {parts}")
        check(abs(l["mac_energy_uj"] - l["macs"] * 0.3e-6) <= 1e-9 * max(1.0, known),
              f"{l['name']}: MAC energy {l['mac_energy_uj']} for {l['macs']} MACs")
        check(abs(float(csv_by_id[i + 1]["Energy(uJ)"]) - l["energy_uj"]) < 1e-4,
              f"{l['name']}: CSV energy {csv_by_id[i + 1]['Energy(uJ)']} != {l['energy_uj']}")
    total = sum(l["energy_uj"] for l in frame)
    check(abs(report["frame_energy_uj"]["total"] - total) <= 1e-9 * total,
          f"frame energy {report['frame_energy_uj']} != sum of layers {total}")
    mac_total = sum(l["mac_energy_uj"] for l in frame)
    check(abs(report["frame_energy_uj"]["mac"] - mac_total) <= 1e-9 * max(mac_total, 1e-12),
          f"frame MAC energy {report['frame_energy_uj']['mac']} != {mac_total}")
    check(re.search(r"^Energy of the NPU layers per frame \(uJ\): ", out, re.M) is not None,
          "no per-frame energy line")

    # One list per delegate call; a list's layers add up to the NPU's cycle register.
    calls = [(int(i), int(cpu), int(npu)) for i, cpu, npu in DELEGATE.findall(out)]
    runs = sorted({l["run"] for l in layers})
    check(len(calls) == len(runs), f"{len(calls)} npu delegate calls, {len(runs)} lists run")
    for (instruction, cpu_cycles, register), run in zip(calls, runs):
        mine = [l for l in layers if l["run"] == run]
        total = sum(l["elapsed_cycles"] for l in mine)
        check(total == register,
              f"list {run}: layers' total cycles {total}, NPU cycle register {register}")
        for l in mine:
            check(l["elapsed_cycles"] >= l["npu_cycles"],
                  f"{l['name']}: elapsed {l['elapsed_cycles']} < NPU cycles {l['npu_cycles']}")
        list_cpu_cycles = total * cpu_mhz / npu_mhz
        overhead = cpu_cycles - list_cpu_cycles
        bound = args.overhead_base + args.overhead_per_layer * len(mine)
        check(0 <= overhead <= bound,
              f"delegate {instruction}: {cpu_cycles} CPU cycles for a list of "
              f"{list_cpu_cycles:.0f} CPU cycles ({total} NPU cycles): overhead {overhead:.0f} "
              f"not in [0, {bound}]")
        print(f"npu_report_check: delegate {instruction}: {len(mine)} layers, {total} NPU "
              f"cycles = {list_cpu_cycles:.0f} CPU cycles; the call took {cpu_cycles} "
              f"(set-up {overhead:.0f})")

    png = os.path.join(args.out_dir, "roofline.png")
    if os.path.exists(png):
        os.remove(png)
    plot = subprocess.run([sys.executable, args.roofline,
                           os.path.join(args.out_dir, "npu_layers.json"), "-o", png],
                          capture_output=True, text=True)
    check(plot.returncode == 0, f"npu_roofline.py exited {plot.returncode}: {plot.stderr}")
    check("above the roof" not in plot.stderr, plot.stderr)
    with open(png, "rb") as f:
        head = f.read(8)
    check(head == b"\x89PNG\r\n\x1a\n" and os.path.getsize(png) > 10000,
          f"{png}: not a PNG or too small ({os.path.getsize(png)} bytes)")
    print(f"npu_report_check: {len(frame)} layers in {len(runs)} lists consistent; "
          f"{png} written ({os.path.getsize(png)} bytes)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--socsim", required=True, help="the socsim binary")
    parser.add_argument("--runner", required=True, help="executor_runner.elf")
    parser.add_argument("--roofline", required=True, help="scripts/npu_roofline.py")
    parser.add_argument("--input", help="raw input file")
    parser.add_argument("--out-dir", required=True, help="report directory")
    parser.add_argument("--max-cycles", default="200000000", help="socsim run --max-cycles")
    parser.add_argument("--overhead-base", type=int, default=1000,
                        help="CPU cycles a delegate call may add to its list (default 1000)")
    parser.add_argument("--overhead-per-layer", type=int, default=300,
                        help="and per layer (patching five addresses; default 300)")
    parser.add_argument("model", help="program file with npu delegate segments")
    args = parser.parse_args(argv)
    try:
        run_checks(args)
    except (CheckError, OSError, KeyError, ValueError) as e:
        print(f"npu_report_check: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
