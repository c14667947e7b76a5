#!/usr/bin/python3
"""Roofline plot of an NPU run: every layer of `socsim run --report DIR` (DIR/<npu>_layers.json)
as a point (arithmetic intensity = 2 x MACs / DDR bytes the layer moved: its DMA traffic to
operands in DDR, re-reads included, not the bytes of operands in SRAM; achieved ops/s over
its elapsed time), under two roofs: the array's compute peak (the NPU preset: cores x rows x
columns x 2 ops x clock) and the DDR preset's peak bandwidth (DIR/ddr.json, "peak_gbps", or
--peak-gbps), and, dashed, the DMA engine's rate when it is below the DDR's peak (the roof a
DDR-bound layer meets first). Every layer of the frame is drawn and labelled with its ID in the report's
table, coloured by the report's Bound column (red DDR-bound, orange on-chip-DMA-bound, blue
compute-bound); a layer with MACs but no DDR bytes (operands in SRAM) sits hollow at the
right edge. A second panel shows every layer's DMA rate against the DDR peak and the DMA
engine's rate, and labels the layers without MACs (elementwise, pooling, lookups), which have
no place on the roofline. No layer can lie above the roof: its bytes cannot move faster than
the DDR's peak nor its MACs faster than the array.
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


# The report's Bound column (npu_report.h, npu_bound) -> colour; reports before it said
# "bandwidth" for any DMA-bound layer.
COLOURS = {"ddr": "tab:red", "bandwidth": "tab:red", "on-chip-dma": "tab:orange",
           "compute": "tab:blue"}
NAMES = {"ddr": "DDR-bound", "on-chip-dma": "on-chip-DMA-bound", "compute": "compute-bound"}


def frame_layers(layers, frame):
    """The frame's layers with their report IDs (1.., the order of the report's table)."""
    chosen = [layer for layer in layers if layer["frame"] == frame]
    return [(i + 1, layer) for i, layer in enumerate(chosen)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
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
    numbered = frame_layers(layers, frame)
    if not numbered:
        print(f"npu_roofline: {args.report}: no layers in frame {frame}", file=sys.stderr)
        return 1
    clock = report["clock_mhz"] * 1e6
    peak = report["peak_ops_per_s"]
    try:
        bandwidth = ddr_peak_bytes_per_s(args.report, args.peak_gbps)
    except (OSError, KeyError, ValueError, json.JSONDecodeError) as e:
        print(f"npu_roofline: no DDR peak ({e}); give --peak-gbps", file=sys.stderr)
        return 1
    with_macs = [(i, l) for i, l in numbered if l["macs"] > 0]
    without = [(i, l) for i, l in numbered if l["macs"] == 0]

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 6), gridspec_kw={"width_ratios": [3, 2]})
    # Left: layers with MACs. Intensity over DDR bytes; a layer without DDR bytes (operands in
    # SRAM) has no DDR intensity and sits at the right edge, hollow.
    intensity = [2 * l["macs"] / ddr_bytes(l) for _, l in with_macs if ddr_bytes(l) > 0]
    lo = min(intensity + [1.0]) / 2
    hi = max(intensity + [peak / bandwidth]) * 2
    edge = hi * 1.5
    above = []
    for i, l in with_macs:
        x = 2 * l["macs"] / ddr_bytes(l) if ddr_bytes(l) > 0 else edge
        y = 2 * l["macs"] / (l["elapsed_cycles"] / clock)
        if ddr_bytes(l) > 0 and y > min(peak, x * bandwidth) * (1 + 1e-9):
            above.append(l["name"])
        colour = COLOURS.get(l.get("bound"), "tab:gray")
        ax.scatter([x], [y], s=22, zorder=3, color=colour,
                   facecolors=colour if ddr_bytes(l) > 0 else "none")
        ax.annotate(str(i), (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
    if above:
        print(f"npu_roofline: above the roof (bytes outside DDR?): {', '.join(above)}",
              file=sys.stderr)
    xs = [lo * (edge / lo) ** (k / 200) for k in range(201)]
    ax.plot(xs, [min(peak, x * bandwidth) for x in xs], "k-", lw=1.5,
            label=f"roof: {peak / 1e12:.2f} TOPS array, {bandwidth / 1e9:.1f} GB/s DDR peak")
    # A DMA engine slower than the DDR's peak is the roof a DDR-bound layer meets first.
    dma_rate = report.get("dma_bytes_per_cycle")
    if dma_rate and dma_rate * clock < bandwidth:
        ax.plot(xs, [min(peak, x * dma_rate * clock) for x in xs], "k--", lw=1,
                label=f"DMA engine {dma_rate * clock / 1e9:.1f} GB/s (below the DDR peak)")
    for bound in ("ddr", "on-chip-dma", "compute"):
        ax.scatter([], [], color=COLOURS[bound], s=22, label=NAMES[bound] + " (report's Bound)")
    ax.scatter([], [], color="k", facecolors="none", s=22, label="no DDR bytes (right edge)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (ops per DDR byte)")
    ax.set_ylabel("achieved ops per second")
    ax.set_title(f"{len(with_macs)} layers with MACs (labels: report IDs)", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=7)
    # Right: every layer's DMA rate (all bytes it moved over its elapsed time) against the
    # DDR peak and the DMA engine's rate; layers without MACs (elementwise, pooling, lookups)
    # have no place on the roofline, so they are read here.
    for i, l in numbered:
        y = (l["read_bytes"] + l["write_bytes"]) / (l["elapsed_cycles"] / clock)
        colour = COLOURS.get(l.get("bound"), "tab:gray")
        marker = "s" if l["macs"] == 0 else "o"
        bx.scatter([i], [y], s=18 if marker == "s" else 8, marker=marker, color=colour,
                   zorder=3, alpha=1.0 if marker == "s" else 0.35)
        if l["macs"] == 0:
            bx.annotate(str(i), (i, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
    bx.axhline(bandwidth, color="k", lw=1.2, label=f"DDR peak {bandwidth / 1e9:.1f} GB/s")
    if dma_rate:
        bx.axhline(dma_rate * clock, color="k", ls="--", lw=1,
                   label=f"DMA engine {dma_rate * clock / 1e9:.1f} GB/s")
    bx.scatter([], [], marker="s", color="gray", label="no MACs (labelled)")
    bx.scatter([], [], marker="o", color="gray", alpha=0.35, label="with MACs")
    bx.set_yscale("log")
    bx.set_xlabel("layer (report ID)")
    bx.set_ylabel("DMA bytes per second (elapsed)")
    bx.set_title(f"bandwidth: {len(without)} layers without MACs", fontsize=10)
    bx.grid(True, which="both", alpha=0.3)
    bx.legend(loc="lower right", fontsize=7)
    fig.suptitle(f"{report['npu']} ({report['preset']}, {report['cores']} core(s)): frame "
                 f"{frame}, {len(numbered)} layers", fontsize=11)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"npu_roofline: wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
