#!/usr/bin/python3
"""Roofline plot of an NPU run: every layer of `socsim run --report DIR` (DIR/<npu>_layers.json)
as a point (arithmetic intensity = 2 x MACs / DDR bytes the layer moved: its DMA traffic to
operands in DDR, re-reads included, not the bytes of operands in SRAM; achieved ops/s over
its elapsed time), under two roofs: the array's compute peak (the NPU preset: cores x rows x
columns x 2 ops x clock) and the DDR preset's peak bandwidth (DIR/ddr.json, "peak_gbps", or
--peak-gbps). A layer is coloured by the side of the ridge (peak / bandwidth) it lies on:
red left of it (bandwidth-bound), blue right (compute-bound). No layer can lie above the
roof: its bytes cannot move faster than the DDR's peak nor its MACs faster than the array.
"""

import argparse
import json
import os
import sys


def ddr_peak_bytes_per_s(report_path, override_gbps):
    """The DDR preset's peak from ddr.json beside the layer report (the largest DDR)."""
    if override_gbps:
        return override_gbps * 1e9
    path = os.path.join(os.path.dirname(os.path.abspath(report_path)), "ddr.json")
    with open(path) as f:
        ddrs = json.load(f)
    peaks = [d["peak_gbps"] for d in ddrs.values() if d.get("peak_gbps")]
    if not peaks:
        raise ValueError(f"{path}: no DDR with a peak_gbps")
    return max(peaks) * 1e9


def ddr_bytes(layer):
    """The DDR bytes a layer moved (reports before ddr_read_bytes: all its bytes)."""
    if "ddr_read_bytes" in layer:
        return layer["ddr_read_bytes"] + layer["ddr_write_bytes"]
    return layer["read_bytes"] + layer["write_bytes"]


def ridge_side(intensity, peak, bandwidth):
    """'bandwidth' left of the ridge point, 'compute' at or right of it."""
    return "bandwidth" if intensity * bandwidth < peak else "compute"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report", help="the <npu>_layers.json written by socsim run --report")
    parser.add_argument("-o", "--output", default="roofline.png", help="PNG to write")
    parser.add_argument("--frame", type=int, default=-1,
                        help="which frame (one execution of the program: all its command "
                             "lists) to plot (default: the last)")
    parser.add_argument("--peak-gbps", type=float,
                        help="DDR peak bandwidth in GB/s (default: from DIR/ddr.json)")
    args = parser.parse_args(argv)
    try:
        with open(args.report) as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        print(f"npu_roofline: {args.report}: {e}", file=sys.stderr)
        return 1
    layers = report["layers"]
    if not layers:
        print(f"npu_roofline: {args.report}: no layers", file=sys.stderr)
        return 1
    frame = max(layer["frame"] for layer in layers) if args.frame < 0 else args.frame
    layers = [layer for layer in layers if layer["frame"] == frame and layer["macs"] > 0]
    on_chip = [layer["name"] for layer in layers if ddr_bytes(layer) == 0]
    if on_chip:
        print(f"npu_roofline: no DDR traffic (left out): {', '.join(on_chip)}", file=sys.stderr)
    layers = [layer for layer in layers if ddr_bytes(layer) > 0]
    if not layers:
        print(f"npu_roofline: {args.report}: no layers with MACs and DDR traffic in frame "
              f"{frame}",
              file=sys.stderr)
        return 1
    clock = report["clock_mhz"] * 1e6
    peak = report["peak_ops_per_s"]
    try:
        bandwidth = ddr_peak_bytes_per_s(args.report, args.peak_gbps)
    except (OSError, KeyError, ValueError, json.JSONDecodeError) as e:
        print(f"npu_roofline: no DDR peak ({e}); give --peak-gbps", file=sys.stderr)
        return 1

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5))
    intensity = [2 * l["macs"] / ddr_bytes(l) for l in layers]
    achieved = [2 * l["macs"] / (l["elapsed_cycles"] / clock) for l in layers]
    colours = ["tab:red" if ridge_side(x, peak, bandwidth) == "bandwidth" else "tab:blue"
               for x in intensity]
    above = [l["name"] for l, x, y in zip(layers, intensity, achieved)
             if y > min(peak, x * bandwidth) * (1 + 1e-9)]
    if above:
        print(f"npu_roofline: above the roof (bytes outside DDR?): {', '.join(above)}",
              file=sys.stderr)
    ax.scatter(intensity, achieved, c=colours, s=18, zorder=3)
    lo = min(intensity + [1.0]) / 2
    hi = max(intensity + [peak / bandwidth if bandwidth else 1.0]) * 2
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(peak, x * bandwidth) for x in xs], "k-", lw=1.5,
            label=f"roof: {peak / 1e12:.2f} TOPS (array), {bandwidth / 1e9:.1f} GB/s (DDR peak)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (ops per DRAM byte)")
    ax.set_ylabel("achieved ops per second")
    ax.set_title(f"{report['npu']} ({report['preset']}): {len(layers)} layers, "
                 "red = left of the ridge (bandwidth), blue = right (compute)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"npu_roofline: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
