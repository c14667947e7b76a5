"""The language-model study (docs/llm.md, "The study"): builds the bundles the sweeps
configs/sweeps/llm_decode.yaml and llm_prefill.yaml run, and draws their results beside the
simple roofline prediction.

    scripts/socsim_llm/study.py bundles [-o build/llm]
    build/bin/socsim sweep run configs/sweeps/llm_decode.yaml
    build/bin/socsim sweep run configs/sweeps/llm_prefill.yaml
    scripts/socsim_llm/study.py plot socsim-sweeps/llm_decode socsim-sweeps/llm_prefill \\
        -o socsim-sweeps/llm_study

`plot` reads each sweep's results.csv and every point's report folder (report.py's
analysis), and writes decode_tokens_per_s.png (decode tokens/s against the DDR preset's
peak bandwidth: simulated, the NPU's share alone, and the roofline), prefill_time.png
(prefill time against its MACs, same three), study.json and study.md (the tables).
"""

import argparse
import csv
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from socsim_llm import report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# name: build.py arguments (int8, per-channel weights, on the NPU)
BUNDLES = {
    "small_t256_p16": ["--size", "small", "--prompt-tokens", "16", "--generate", "8"],
    "medium_t256_p16": ["--size", "medium", "--prompt-tokens", "16", "--generate", "8"],
    "small_t128_p16": ["--size", "small", "--context", "128", "--prompt-tokens", "16",
                       "--generate", "8"],
    "small_t512_p16": ["--size", "small", "--context", "512", "--prompt-tokens", "16",
                       "--generate", "8"],
    "small_t256_p64": ["--size", "small", "--prompt-tokens", "64", "--generate", "4"],
    "small_t256_p128": ["--size", "small", "--prompt-tokens", "128", "--generate", "4"],
}


def bundles(out_dir: str) -> int:
    os.makedirs(out_dir, exist_ok=True)
    for name, argv in BUNDLES.items():
        path = os.path.join(out_dir, name)
        if os.path.exists(path + ".slm"):
            print(f"{path}.slm: exists")
            continue
        cmd = [sys.executable, os.path.join(HERE, "build.py"), "--quantize", "int8",
               "--delegate", "npu", "-q", "-o", path] + argv
        print(" ".join(cmd))
        if subprocess.run(cmd).returncode != 0:
            return 1
    return 0


def _sweep_models(sweep_dir: str):
    """model name -> bundle path, from the sweep file named in the results' folder (its
    results.csv rows name their model; the programs come from the sweep file)."""
    import yaml
    name = os.path.basename(os.path.normpath(sweep_dir))
    path = os.path.join(REPO, "configs", "sweeps", name + ".yaml")
    with open(path) as f:
        spec = yaml.safe_load(f)
    base = os.path.dirname(path)
    return {m: os.path.normpath(os.path.join(base, v["program"]))
            for m, v in spec["models"].items()}


def points(sweep_dir: str):
    """Every ok point of a sweep: its parameters and report.py's analysis."""
    models = _sweep_models(sweep_dir)
    infos = {}
    out = []
    with open(os.path.join(sweep_dir, "results.csv")) as f:
        for row in csv.DictReader(f):
            if row.get("status") != "ok":
                continue
            model = row.get("model") or next(iter(models))
            if model not in infos:
                infos[model] = report.analyse_bundle(models[model])
            s = report.analyse(row["report_dir"], infos[model])
            out.append(dict(row=row, model=model, summary=s, info=infos[model]))
    return out


def _ddr_name(s):
    return s["ddr_device"].split()[0]


def _axes():
    """A figure of the study's size on the non-interactive backend: (pyplot, figure, axes)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5.5))
    return plt, fig, ax


def _finish(plt, fig, ax, path, title, xlabel, legend_size):
    """The study's common frame (labels, grid, legend beside the axes), written to path."""
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=legend_size, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def decode_plot(pts, path):
    import numpy as np
    plt, fig, ax = _axes()
    models = sorted({p["model"] for p in pts})
    colours = dict(zip(models, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    bw = np.linspace(20, 60, 50)
    rows = []
    for m in models:
        mine = [p for p in pts if p["model"] == m]
        s0 = mine[0]["summary"]
        tok_bytes = s0["per_token_bytes"]["total"]
        macs = s0["decode"]["macs_per_step"]
        peak = s0["npu"]["peak_macs_per_cycle"] * s0["npu"]["clock_mhz"] * 1e6
        roof = np.minimum(bw * 1e9 / tok_bytes, peak / macs)
        ax.plot(bw, roof, "--", color=colours[m], lw=1, label=f"{m}: roofline (DDR peak)")
        for dma, marker in ((24, "s"), (64, "o")):
            sel = sorted((p for p in mine if int(float(p["row"]["npu.dma.bytes_per_cycle"]))
                          == dma), key=lambda p: p["summary"]["ddr_peak_gbps"])
            if not sel:
                continue
            x = [p["summary"]["ddr_peak_gbps"] for p in sel]
            sim = [p["summary"]["decode_tokens_per_s"] for p in sel]
            npu = [1e6 / p["summary"]["decode"]["npu_time_us_per_step"] for p in sel]
            ax.plot(x, npu, marker, mfc="none", color=colours[m], ls=":",
                    label=f"{m}: NPU time alone, DMA {dma} B/cycle")
            ax.plot(x, sim, marker, color=colours[m], ls="-",
                    label=f"{m}: simulated, DMA {dma} B/cycle")
            for p in sel:
                s = p["summary"]
                rows.append(dict(model=m, ddr=_ddr_name(s), dma=dma,
                                 ddr_peak_gbps=round(s["ddr_peak_gbps"], 1),
                                 tokens_per_s=round(s["decode_tokens_per_s"], 1),
                                 npu_only_tokens_per_s=round(
                                     1e6 / s["decode"]["npu_time_us_per_step"], 1),
                                 roofline_tokens_per_s=round(
                                     s["roofline"]["decode_tokens_per_s"], 1),
                                 ttft_ms=round(s["ttft_ms"], 2),
                                 bytes_per_token=s["per_token_bytes"]["total"],
                                 npu_decode_ddr_bytes_per_step=round(
                                     s["decode"]["ddr_read_bytes_per_step"] +
                                     s["decode"]["ddr_write_bytes_per_step"]),
                                 decode_bound=s["decode"]["bound"],
                                 decode_cpu_share=round(s["decode"]["cpu_share"], 3),
                                 decode_mac_usage=round(s["decode"]["mac_usage_phase"], 6)))
    ax.set_yscale("log")
    ax.set_ylabel("decode tokens/s")
    _finish(plt, fig, ax, path, "Decode: simulated vs NPU alone vs roofline (int8, NPU rk3588-like)",
            "DDR preset peak bandwidth (GB/s)", 6.5)
    return rows


def prefill_plot(pts, path):
    plt, fig, ax = _axes()
    arrays = sorted({(int(float(p["row"]["npu.cores"])), int(float(p["row"]["npu.mac_array.rows"])))
                     for p in pts})
    colours = dict(zip(arrays, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    rows = []
    for cores, side in arrays:
        sel = sorted((p for p in pts if (int(float(p["row"]["npu.cores"])),
                                         int(float(p["row"]["npu.mac_array.rows"])))
                      == (cores, side)), key=lambda p: p["summary"]["prefill"]["macs"])
        c = colours[(cores, side)]
        label = f"{cores} x {side}x{side}"
        x = [p["summary"]["prefill"]["macs"] for p in sel]
        ax.plot(x, [p["summary"]["ttft_ms"] for p in sel], "o-", color=c,
                label=f"{label}: simulated TTFT")
        ax.plot(x, [p["summary"]["prefill"]["npu_time_us"] / 1e3 for p in sel], "o:",
                mfc="none", color=c, label=f"{label}: NPU time alone")
        ax.plot(x, [p["summary"]["roofline"]["prefill_ms"] for p in sel], "--", color=c,
                lw=1, label=f"{label}: roofline")
        for p in sel:
            s = p["summary"]
            rows.append(dict(array=label, prompt=s["prompt_tokens"], macs=s["prefill"]["macs"],
                             ttft_ms=round(s["ttft_ms"], 3),
                             npu_time_ms=round(s["prefill"]["npu_time_us"] / 1e3, 3),
                             roofline_ms=round(s["roofline"]["prefill_ms"], 4),
                             roofline_bound=s["roofline"]["prefill_bound"],
                             npu_bound=s["prefill"]["bound"],
                             npu_mac_usage_busy=round(s["prefill"]["mac_usage_busy"], 4),
                             cpu_share=round(s["prefill"]["cpu_share"], 3)))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylabel("time (ms)")
    _finish(plt, fig, ax, path, "Prefill: simulated vs NPU alone vs roofline (small model, LPDDR5)",
            "prefill MACs (prompt of 16, 64, 128 tokens)", 7)
    return rows


def _table(rows):
    if not rows:
        return ""
    keys = list(rows[0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def plot(decode_dir, prefill_dir, out_dir) -> int:
    os.makedirs(out_dir, exist_ok=True)
    result = {}
    md = []
    if decode_dir:
        result["decode"] = decode_plot(points(decode_dir),
                                       os.path.join(out_dir, "decode_tokens_per_s.png"))
        md += ["## Decode", "", _table(result["decode"])]
    if prefill_dir:
        result["prefill"] = prefill_plot(points(prefill_dir),
                                         os.path.join(out_dir, "prefill_time.png"))
        md += ["## Prefill", "", _table(result["prefill"])]
    with open(os.path.join(out_dir, "study.json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(out_dir, "study.md"), "w") as f:
        f.write("\n".join(md))
    print("\n".join(md))
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bundles", help="build the study's bundles")
    b.add_argument("-o", "--out-dir", default=os.path.join(REPO, "build", "llm"))
    p = sub.add_parser("plot", help="plots and tables from the sweeps' results")
    p.add_argument("decode", help="the llm_decode sweep's results folder")
    p.add_argument("prefill", nargs="?", help="the llm_prefill sweep's results folder")
    p.add_argument("-o", "--out-dir", default="socsim-sweeps/llm_study")
    args = parser.parse_args(argv)
    if args.command == "bundles":
        return bundles(args.out_dir)
    return plot(args.decode, args.prefill, args.out_dir)


if __name__ == "__main__":
    sys.exit(main())
