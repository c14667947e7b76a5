#!/usr/bin/python3
"""Roofline plot of an NPU run: every layer of `socsim run --report DIR` (DIR/<npu>_layers.json)
as a point (arithmetic intensity = 2 x MACs / bytes moved, achieved ops/s), under the
preset's compute peak and the DMA bandwidth measured in the run."""

import argparse
import json
import sys


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report", help="the <npu>_layers.json written by socsim run --report")
    parser.add_argument("-o", "--output", default="roofline.png", help="PNG to write")
    parser.add_argument("--frame", type=int, default=-1,
                        help="which frame (one execution of the program: all its command "
                             "lists) to plot (default: the last)")
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
    if not layers:
        print(f"npu_roofline: {args.report}: no layers with MACs in frame {frame}",
              file=sys.stderr)
        return 1
    clock = report["clock_mhz"] * 1e6
    peak = report["peak_ops_per_s"]
    bandwidth = report["measured_ddr_bytes_per_s"]

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5.5))
    intensity = [2 * l["macs"] / max(1, l["read_bytes"] + l["write_bytes"]) for l in layers]
    achieved = [2 * l["macs"] / (l["elapsed_cycles"] / clock) for l in layers]
    colours = ["tab:red" if l["bound"] == "bandwidth" else "tab:blue" for l in layers]
    ax.scatter(intensity, achieved, c=colours, s=18, zorder=3)
    lo = min(intensity + [1.0]) / 2
    hi = max(intensity + [peak / bandwidth if bandwidth else 1.0]) * 2
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.plot(xs, [min(peak, x * bandwidth) for x in xs], "k-", lw=1.5,
            label=f"roof: {peak / 1e12:.2f} TOPS, {bandwidth / 1e9:.1f} GB/s measured")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (ops per DRAM byte)")
    ax.set_ylabel("achieved ops per second")
    ax.set_title(f"{report['npu']} ({report['preset']}): {len(layers)} layers, "
                 "red = bandwidth-bound, blue = compute-bound")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"npu_roofline: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
