"""The report in tokens of a language-model run (docs/llm.md, "Reading the report"): time to
first token, decode tokens per second, per-token DDR bytes against the DDR preset's peak, NPU
MAC usage and the Bound of each phase, and the simple roofline prediction beside them.

    scripts/socsim_llm/report.py --bundle build/llm/small.slm --run DIR [--generate 8] \\
        [--socsim build/bin/socsim --firmware ...executor_runner.elf] [--set KEY=VALUE ...]

With --socsim the run is made first (`socsim run --report DIR`, the firmware's output kept
in DIR/console.txt); without, DIR is a finished run's report folder. Writes
DIR/llm_summary.json and DIR/llm_report.txt and prints the text.

What is measured and what is derived:
- phases from the runner's probe marks (probes.json: `mark 101` prefill, `mark 102` one
  per decode step), in CPU cycles: prefill = the prefill execution, the cache writes and the
  argmax; a step = mask, execution, cache write, argmax;
- NPU figures from npu_layers.json, split by the programs' NPU layer counts (the prefill
  program's layers first, then one decode program's per step);
- per-token bytes: weights = the decode program's constants as its operators read them (a
  gather reads one row of its table), KV cache reads = the cache inputs whole (the program's
  shapes are fixed: it reads all T rows, masked or not), KV cache writes = the token's key
  and value per layer; measured beside them, the NPU's DDR bytes per step;
- roofline: a phase takes at least max(MACs / the NPU's peak, bytes / the DDR's peak).
"""

import argparse
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from socsim_schema import layouts  # noqa: E402
from socsim_aot import npu_partition  # noqa: E402
from socsim_aot import npu_pte_blob  # noqa: E402
from socsim_aot import program_format as pf  # noqa: E402
from socsim_aot import pte_format  # noqa: E402
from socsim_llm import bundle  # noqa: E402

PREFILL_MARK, DECODE_MARK = "mark 101", "mark 102"
GATHER = "aten::index_select.out"


def npu_layers(program) -> int:
    """NPU layers one execution of `program` runs."""
    count = 0
    for ins in program.instructions:
        if ins.delegate != pf.NO_BUFFER and program.delegates[ins.delegate].backend == "npu":
            count += npu_partition.HEADER.unpack(
                program.delegates[ins.delegate].blob)["layer_count"]
    return count


def constant_bytes_read(program) -> int:
    """Bytes of constants one execution reads: whole tensors, except a gather's table, of
    which it reads the rows it outputs. An ExecuTorch program's npu calls carry their
    constants (the weights) in their blobs (version 2, docs/executorch-npu.md): those count
    as the call's constant operands do in the legacy format."""
    total = 0
    for ins in program.instructions:
        if ins.delegate != pf.NO_BUFFER:
            blob = program.delegates[ins.delegate].blob
            if (program.delegates[ins.delegate].backend == "npu" and
                    npu_partition.HEADER.unpack(blob)["version"] ==
                    layouts.NPU_BLOB_VERSION_SELF_CONTAINED):
                _, constants, _ = npu_pte_blob.decode(blob, len(ins.inputs), len(ins.outputs))
                total += sum(c.nbytes for c in constants)
        for tid in set(ins.inputs):
            t = program.tensors[tid]
            if not t.is_constant:
                continue
            if ins.name == GATHER and tid == ins.inputs[0]:
                total += program.tensors[ins.outputs[0]].nbytes
            else:
                total += t.nbytes
    return total


def analyse_bundle(path: str) -> dict:
    with open(path, "rb") as f:
        fields, prefill, decode = bundle.read(f.read())
    pre, dec = pte_format.read_any(prefill), pte_format.read_any(decode)
    caches = [dec.tensors[t] for t in dec.inputs[3:]]
    elem = pf.DTYPES[caches[0].dtype].itemsize
    d_model = fields["heads"] * fields["head_dim"]
    return dict(fields=fields, prefill_layers=npu_layers(pre), decode_layers=npu_layers(dec),
                decode_weight_bytes=constant_bytes_read(dec),
                prefill_weight_bytes=constant_bytes_read(pre),
                kv_read_bytes=sum(t.nbytes for t in caches),
                kv_write_bytes=2 * fields["layers"] * d_model * elem,
                kv_prefill_write_bytes=2 * fields["layers"] * d_model * elem * fields["prompt"],
                cache_element_bytes=elem, bundle_bytes=os.path.getsize(path))


def _load(run_dir, name):
    with open(os.path.join(run_dir, name + ".json")) as f:
        return json.load(f)


def _npu_phase(layers, npu, ddr_peak_gbps):
    """MACs, NPU busy time, DDR bytes, Bound shares of a list of layer records."""
    mhz = npu["clock_mhz"]
    macs = sum(l["macs"] for l in layers)
    elapsed = sum(l["elapsed_cycles"] for l in layers)
    shares = {}
    for l in layers:
        shares[l["bound"]] = shares.get(l["bound"], 0) + l["elapsed_cycles"]
    bound = max(shares, key=shares.get) if shares else None
    return dict(layers=len(layers), macs=macs, npu_elapsed_cycles=elapsed,
                npu_time_us=elapsed / mhz,
                mac_usage_busy=macs / (elapsed * npu["peak_macs_per_cycle"]) if elapsed else 0.0,
                ddr_read_bytes=sum(l["ddr_read_bytes"] for l in layers),
                ddr_write_bytes=sum(l["ddr_write_bytes"] for l in layers),
                bound=bound,
                bound_shares={k: v / elapsed for k, v in sorted(shares.items())} if elapsed
                else {})


def analyse(run_dir: str, info: dict) -> dict:
    summary, probes, ddr = (_load(run_dir, n) for n in ("summary", "probes", "ddr"))
    npu = _load(run_dir, "npu_layers") if os.path.exists(
        os.path.join(run_dir, "npu_layers.json")) else None
    cpu_mhz = summary["clocks"]["cpu_mhz"]
    marks = {r["name"]: r for r in probes["regions"] if r["category"] == "mark"}
    if PREFILL_MARK not in marks:
        raise ValueError(f"{run_dir}: no prefill mark ({PREFILL_MARK}) in probes.json: not a "
                         "language-model run")
    pre_cycles = marks[PREFILL_MARK]["cycles"]
    steps = marks[DECODE_MARK]["count"] if DECODE_MARK in marks else 0
    dec_cycles = marks[DECODE_MARK]["cycles"] if steps else 0
    device = next(iter(ddr.values()))
    peak_gbps = device["peak_gbps"]
    f = info["fields"]
    out = dict(model={k: f[k] for k in ("layers", "heads", "head_dim", "vocab", "context")},
               prompt_tokens=f["prompt"], generated_tokens=steps + 1, cpu_mhz=cpu_mhz,
               ddr_device=device["device"], ddr_peak_gbps=peak_gbps,
               ttft_ms=pre_cycles / cpu_mhz / 1e3,
               prefill_cycles=pre_cycles,
               decode_step_cycles_mean=dec_cycles / steps if steps else None,
               decode_tokens_per_s=steps / (dec_cycles / (cpu_mhz * 1e6)) if steps else None,
               per_token_bytes=dict(weights=info["decode_weight_bytes"],
                                    kv_cache_read=info["kv_read_bytes"],
                                    kv_cache_write=info["kv_write_bytes"]),
               run_ddr_bytes=dict(read=device["total"]["bytes_read"],
                                  written=device["total"]["bytes_written"]))
    tok_bytes = sum(out["per_token_bytes"].values())
    out["per_token_bytes"]["total"] = tok_bytes
    out["decode_bytes_per_s"] = tok_bytes * out["decode_tokens_per_s"] if steps else None
    out["decode_share_of_ddr_peak"] = (out["decode_bytes_per_s"] / (peak_gbps * 1e9)
                                       if steps else None)
    if npu is not None:
        layers = npu["layers"]
        p, d = info["prefill_layers"], info["decode_layers"]
        if len(layers) != p + d * steps:
            raise ValueError(f"{run_dir}: {len(layers)} NPU layers; the bundle runs {p} in "
                             f"prefill and {d} per decode step ({steps} steps)")
        pre = _npu_phase(layers[:p], npu, peak_gbps)
        dec = _npu_phase(layers[p:], npu, peak_gbps)
        peak_macs_s = npu["peak_macs_per_cycle"] * npu["clock_mhz"] * 1e6
        pre["mac_usage_phase"] = pre["macs"] / (out["ttft_ms"] / 1e3 * peak_macs_s)
        pre["cpu_share"] = 1 - pre["npu_time_us"] / (out["ttft_ms"] * 1e3)
        if steps:
            dec_s = dec_cycles / (cpu_mhz * 1e6)
            dec["mac_usage_phase"] = dec["macs"] / (dec_s * peak_macs_s)
            dec["cpu_share"] = 1 - dec["npu_time_us"] / (dec_s * 1e6)
            for key in ("macs", "npu_elapsed_cycles", "npu_time_us", "ddr_read_bytes",
                        "ddr_write_bytes"):
                dec[key + "_per_step"] = dec[key] / steps
        out.update(npu=dict(preset=npu["preset"], cores=npu["cores"], rows=npu["rows"],
                            columns=npu["columns"], clock_mhz=npu["clock_mhz"],
                            peak_macs_per_cycle=npu["peak_macs_per_cycle"]),
                   prefill=pre, decode=dec)
        out["roofline"] = roofline(out, info, peak_macs_s, peak_gbps)
    return out


def roofline(out, info, peak_macs_s, peak_gbps):
    """The simple prediction: time = max(MACs / peak MAC rate, bytes / peak DDR rate)."""
    bw = peak_gbps * 1e9
    pre_bytes = info["prefill_weight_bytes"] + info["kv_prefill_write_bytes"]
    pre_compute = out["prefill"]["macs"] / peak_macs_s
    pre_memory = pre_bytes / bw
    r = dict(prefill_bytes=pre_bytes, prefill_compute_ms=pre_compute * 1e3,
             prefill_memory_ms=pre_memory * 1e3,
             prefill_ms=max(pre_compute, pre_memory) * 1e3,
             prefill_bound="compute" if pre_compute >= pre_memory else "ddr")
    if out["decode_tokens_per_s"]:
        macs = out["decode"]["macs_per_step"]
        t_compute, t_memory = macs / peak_macs_s, out["per_token_bytes"]["total"] / bw
        r.update(decode_compute_us=t_compute * 1e6, decode_memory_us=t_memory * 1e6,
                 decode_tokens_per_s=1 / max(t_compute, t_memory),
                 decode_bound="compute" if t_compute >= t_memory else "ddr")
    return r


def text(s: dict) -> str:
    m = s["model"]
    lines = [f"Language model: {m['layers']} layers, d_model {m['heads'] * m['head_dim']}, "
             f"vocabulary {m['vocab']}, context {m['context']}; prompt {s['prompt_tokens']} "
             f"tokens, {s['generated_tokens']} generated",
             f"DDR {s['ddr_device']} (peak {s['ddr_peak_gbps']:.1f} GB/s), CPU "
             f"{s['cpu_mhz']:.0f} MHz"]
    if "npu" in s:
        n = s["npu"]
        lines.append(f"NPU {n['preset']}: {n['cores']} core(s) x {n['rows']}x{n['columns']}, "
                     f"{n['clock_mhz']:.0f} MHz ({n['peak_macs_per_cycle']} MACs/cycle)")
    lines += ["", f"Time to first token: {s['ttft_ms']:.3f} ms ({s['prefill_cycles']} cycles)"]
    if s["decode_tokens_per_s"]:
        lines.append(f"Decode: {s['decode_tokens_per_s']:.1f} tokens/s "
                     f"({s['decode_step_cycles_mean']:.0f} cycles per token)")
    b = s["per_token_bytes"]
    lines += ["", "Per-token DDR bytes (decode): weights {:,}, KV cache reads {:,}, KV cache "
              "writes {:,}; total {:,}".format(b["weights"], b["kv_cache_read"],
                                               b["kv_cache_write"], b["total"])]
    if s["decode_bytes_per_s"]:
        lines.append(f"  at {s['decode_tokens_per_s']:.1f} tokens/s: "
                     f"{s['decode_bytes_per_s'] / 1e9:.3f} GB/s, "
                     f"{100 * s['decode_share_of_ddr_peak']:.1f} % of the DDR peak")
    if "npu" in s:
        lines += ["", "| phase | NPU layers | MACs | NPU busy (us) | MAC usage busy | MAC usage "
                  "phase | NPU DDR read / write | Bound (by NPU time) | CPU share |",
                  "|---|---:|---:|---:|---:|---:|---:|---|---:|"]
        for name in ("prefill", "decode"):
            p = s[name]
            if "mac_usage_phase" not in p:
                continue
            shares = ", ".join(f"{k} {100 * v:.0f} %" for k, v in p["bound_shares"].items())
            lines.append(f"| {name} | {p['layers']} | {p['macs']:,} | {p['npu_time_us']:.1f} | "
                         f"{100 * p['mac_usage_busy']:.2f} % | "
                         f"{100 * p['mac_usage_phase']:.3f} % | "
                         f"{p['ddr_read_bytes']:,} / {p['ddr_write_bytes']:,} | "
                         f"{p['bound']} ({shares}) | {100 * p['cpu_share']:.1f} % |")
        r = s["roofline"]
        lines += ["", f"Roofline: prefill {r['prefill_ms']:.3f} ms ({r['prefill_bound']}-bound: "
                  f"compute {r['prefill_compute_ms']:.3f} ms, DDR {r['prefill_memory_ms']:.3f} "
                  f"ms); simulated {s['ttft_ms']:.3f} ms"]
        if "decode_tokens_per_s" in r:
            lines.append(f"Roofline: decode {r['decode_tokens_per_s']:.1f} tokens/s "
                         f"({r['decode_bound']}-bound: compute {r['decode_compute_us']:.1f} us, "
                         f"DDR {r['decode_memory_us']:.1f} us per token); simulated "
                         f"{s['decode_tokens_per_s']:.1f} tokens/s")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bundle", required=True)
    parser.add_argument("--run", required=True, help="the run's report folder")
    parser.add_argument("--socsim", help="run first: the socsim binary")
    parser.add_argument("--firmware", help="with --socsim: executor_runner.elf")
    parser.add_argument("--generate", type=int, default=8)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="with --socsim: socsim run --set (repeatable)")
    args = parser.parse_args(argv)
    try:
        info = analyse_bundle(args.bundle)
    except (OSError, ValueError) as e:
        print(f"report: {args.bundle}: {e}", file=sys.stderr)
        return 1
    if args.socsim:
        if not args.firmware:
            parser.error("--socsim needs --firmware")
        os.makedirs(args.run, exist_ok=True)
        cmd = [args.socsim, "run", "-q", "--firmware", args.firmware, "--model", args.bundle,
               "--report", args.run, "--max-cycles", "20000000000"]
        for s in args.set:
            cmd += ["--set", s]
        cmd += ["--", "--generate", str(args.generate)]
        result = subprocess.run(cmd, capture_output=True, text=True)
        with open(os.path.join(args.run, "console.txt"), "w") as f:
            f.write(result.stdout + result.stderr)
        if result.returncode != 0:
            print(f"report: socsim exited {result.returncode}: {result.stdout[-2000:]}"
                  f"{result.stderr[-2000:]}", file=sys.stderr)
            return 1
    try:
        s = analyse(args.run, info)
    except (OSError, ValueError, KeyError) as e:
        print(f"report: {e}", file=sys.stderr)
        return 1
    with open(os.path.join(args.run, "llm_summary.json"), "w") as f:
        json.dump(s, f, indent=1)
    t = text(s)
    with open(os.path.join(args.run, "llm_report.txt"), "w") as f:
        f.write(t)
    print(t, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
