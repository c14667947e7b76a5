#!/usr/bin/python3
"""Cost of TLM-2.0 base-protocol checking (models/bus/protocol_checker.h): the same runs with
every link of the default SoC unchecked and checked (cpu.protocol_check and every region's
protocol_check set to false, then to true with --set):

  cpu_loop  bench/programs/cpu_loop.S on the ISS: fetches and loads through DMI, where the
            checker sees only the DMI requests
  convnet   the runtime's int8 convnet on the NPU (executor_runner with
            convnet_int8_npu.pte): CPU accesses to devices and the NPU's DMA traffic to DDR,
            every one through the router

Each is run N times, interleaved, and the median CPU time of the child is printed (the
machine may be shared: CPU time is the steadier figure) with the ratio checked / unchecked.
Run after scripts/build.sh (the convnet program comes from the test suite's build).
"""
import argparse
import os
import statistics
import sys

from cpu_speed import ROOT, timed

REGIONS = ["ram", "timer", "bootinfo", "console", "corev_ctrl", "probe", "exit", "npu", "ddr"]


def settings(value):
    out = ["--set", f"cpu.protocol_check={value}"]
    for region in REGIONS:
        out += ["--set", f"memory_map.{region}.protocol_check={value}"]
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs per case (default 5)")
    parser.add_argument("--build", default=os.environ.get("SOCSIM_BUILD_DIR",
                                                          os.path.join(ROOT, "build")))
    args = parser.parse_args()
    socsim = os.path.join(args.build, "bin", "socsim")
    runner = os.path.join(args.build, "firmware", "apps", "executor_runner",
                          "executor_runner.elf")
    model = os.path.join(args.build, "tests", "runtime", "zoo", "convnet_int8_npu.pte")
    loop = os.path.join(args.build, "bench", "cpu_loop.elf")
    for path in (socsim, runner, model, loop):
        if not os.path.exists(path):
            sys.exit(f"protocol_check_cost: {path} is missing: run scripts/build.sh first")
    cases = {
        "cpu_loop (iss)": [socsim, "run", "-q", "--no-probes", "--cpu", "iss", "--firmware", loop],
        "convnet (rtl, NPU)": [socsim, "run", "-q", "--no-probes", "--cpu", "rtl",
                               "--firmware", runner, "--model", model],
    }
    results = {(name, check): [] for name in cases for check in ("false", "true")}
    for _ in range(args.runs):
        for name, cmd in cases.items():
            for check in ("false", "true"):
                results[(name, check)].append(timed(cmd + settings(check))[1])
    print(f"median CPU seconds of {args.runs} runs")
    print(f"{'case':22s} {'unchecked':>10s} {'checked':>10s} {'ratio':>7s}")
    for name in cases:
        off = statistics.median(results[(name, "false")])
        on = statistics.median(results[(name, "true")])
        print(f"{name:22s} {off:10.3f} {on:10.3f} {on / off:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
