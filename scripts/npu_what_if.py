#!/usr/bin/python3
"""What-if: re-run each actionable advice of the NPU report and measure what it saves.

  scripts/npu_what_if.py --program P --input I [-c SOC] [--set KEY=VALUE ...]
                         [--onnx MODEL.onnx] [--cores 1,2,3] [--json OUT] [--out-dir DIR]

Runs the program once (`socsim run --report`), reads the report's advice (npu_layers.json,
docs/npu.md "Advice") and, for every rule that names an action socsim can apply, runs the
program again with that action applied; it prints, per action, the saving the advice
predicted (the sum of its findings' cycles at stake, at the NPU clock) beside the measured
one (the per-frame time of the baseline minus that of the re-run: the last frame's NPU
layers plus the CPU operators of that execution).

Actions (each only when the baseline's advice has the rule):
  channel_alignment  --set npu.alignment.int8.{conv_input,conv_output,depthwise}=1: the
                     padding gone, which is what the stake counts
  pointwise_floor    --set npu.mac_array.pointwise_channels_per_cycle=0: the 1x1 floor gone
  cpu_operator       (a float input's quantise) the model recompiled with --input-type uint8
                     and --mean/--std (needs --onnx); a uint8 image as input
  missed_fusion      none can be applied to the program; with --onnx the fusion is measured
                     the other way round: the model compiled without the compiler's SiLU
                     fusion (--no-pass fuse_silu) predicts, in its own advice, what fusing
                     saves, and the measured saving is that run minus the baseline
  cores              --set npu.cores=N for each N of --cores: the prediction is the
                     estimate mode's (`socsim estimate`, the same SoC and settings: its
                     frame with the baseline's cores minus its frame with N)
Rules whose action is a model change (low_mac_usage, small_output, large_weights,
kernel_stride, bandwidth_bound) or another DMA engine (on_chip_dma_bound) are listed as not
re-run.

Exit status: 0; 2 for bad arguments or a file that cannot be read (one line on stderr);
1 when a run fails (its last output line on stderr).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

IMAGE_MEAN = "123.675,116.28,103.53"
IMAGE_STD = "58.395,57.12,57.375"
MODEL_CHANGE_RULES = {"low_mac_usage": "a model change", "small_output": "a model change",
                      "large_weights": "a model change", "kernel_stride": "a model change",
                      "bandwidth_bound": "a model change or another DDR preset "
                                         "(memory_map.ddr.preset)",
                      "on_chip_dma_bound": "another DMA engine (npu.dma.bytes_per_cycle)"}


class WhatIfError(Exception):
    """A run or a compile that failed: status 1."""


def frame(report: dict) -> dict:
    """The last frame's time in us: its NPU layers at the NPU clock plus the CPU operators."""
    last = report["layers"][-1]["frame"]
    npu_us = sum(l["elapsed_cycles"] for l in report["layers"] if l["frame"] == last) / \
        report["clock_mhz"]
    cpu_us = sum(op["time_us"] for op in report.get("cpu_operators", []))
    return {"npu_us": npu_us, "cpu_us": cpu_us, "frame_us": npu_us + cpu_us}


def stake_us(report: dict, rule: str, only=None) -> float:
    return sum(f["cycles_at_stake"] for f in report["advice"]
               if f["rule"] == rule and (only is None or only(f))) / report["clock_mhz"]


def float_quantize(f: dict) -> bool:
    return f["rule"] == "cpu_operator" and "--input-type uint8" in f["text"]


class Runner:
    def __init__(self, args):
        self.args = args
        self.count = 0

    def socsim_run(self, program, inp, sets, label) -> dict:
        self.count += 1
        out = os.path.join(self.args.out_dir, f"{self.count:02d}_{label}")
        cmd = [self.args.socsim, "run", "-q", "--firmware", self.args.runner, "--model",
               program, "--input", inp, "--report", out]
        if self.args.config:
            cmd += ["-c", self.args.config]
        for s in self.args.set + sets:
            cmd += ["--set", s]
        done = subprocess.run(cmd + ["--", "--inputs-in-place"], capture_output=True,
                              text=True)
        path = os.path.join(out, "npu_layers.json")
        if done.returncode != 0 or not os.path.exists(path):
            last = (done.stdout + done.stderr).strip().splitlines()
            raise WhatIfError(f"socsim run ({label}) ended with status {done.returncode}: "
                              f"{last[-1] if last else ''}")
        with open(path) as f:
            report = json.load(f)
        report["_dir"] = out
        return report

    def socsim_estimate(self, program, sets) -> float:
        cmd = [self.args.socsim, "estimate", "--model", program]
        if self.args.config:
            cmd += ["-c", self.args.config]
        for s in self.args.set + sets:
            cmd += ["--set", s]
        self.count += 1
        path = os.path.join(self.args.out_dir, f"{self.count:02d}_estimate.json")
        done = subprocess.run(cmd + ["--json", path], capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stdout + done.stderr).strip().splitlines()
            raise WhatIfError(f"socsim estimate ended with status {done.returncode}: "
                              f"{last[-1] if last else ''}")
        with open(path) as f:
            return frame(json.load(f))["frame_us"]

    def compile(self, extra, label) -> tuple:
        """(program, input) of --onnx compiled with the baseline's options plus `extra`."""
        from socsim_aot import program_format as pf
        from socsim_aot import pte_format
        import numpy as np
        prog = os.path.join(self.args.out_dir, label + ".pte")
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "compile_model.py"),
               self.args.onnx, "-o", prog, "-q"] + self.args.compile_args + extra
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            last = (done.stdout + done.stderr).strip().splitlines()
            raise WhatIfError(f"compile ({label}) ended with status {done.returncode}: "
                              f"{last[-1] if last else ''}")
        with open(prog, "rb") as f:
            program = pte_format.read_any(f.read())
        inp = os.path.join(self.args.out_dir, label + ".input.bin")
        rng = np.random.default_rng(1)
        with open(inp, "wb") as f:
            for tid in program.inputs:
                t = program.tensors[tid]
                dtype = pf.DTYPES[t.dtype]
                sample = rng.integers(0, 256, t.shape) if dtype == np.uint8 else \
                    rng.integers(-128, 128, t.shape) if dtype == np.int8 else \
                    rng.standard_normal(t.shape)
                f.write(sample.astype(dtype).tobytes())
        return prog, inp


def what_if(args) -> dict:
    r = Runner(args)
    base = r.socsim_run(args.program, args.input, [], "baseline")
    base_us = frame(base)["frame_us"]
    rules = sorted({f["rule"] for f in base["advice"]})
    rows = []

    def measured(name, action, predicted_us, report, findings):
        t = frame(report)["frame_us"]
        rows.append({"action": name, "how": action, "findings": findings,
                     "predicted_saving_us": predicted_us, "frame_us": t,
                     "measured_saving_us": base_us - t, "report": report["_dir"]})

    def count(rule, only=None):
        return sum(1 for f in base["advice"] if f["rule"] == rule and (only is None or only(f)))

    if "channel_alignment" in rules:
        sets = [f"npu.alignment.int8.{k}=1" for k in ("conv_input", "conv_output", "depthwise")]
        measured("channel_alignment", " ".join("--set " + s for s in sets),
                 stake_us(base, "channel_alignment"), r.socsim_run(
                     args.program, args.input, sets, "channel_alignment"),
                 count("channel_alignment"))
    if "pointwise_floor" in rules:
        sets = ["npu.mac_array.pointwise_channels_per_cycle=0"]
        measured("pointwise_floor", "--set " + sets[0], stake_us(base, "pointwise_floor"),
                 r.socsim_run(args.program, args.input, sets, "pointwise_floor"),
                 count("pointwise_floor"))
    skipped = []
    if count("cpu_operator", float_quantize):
        if args.onnx:
            extra = ["--input-type", "uint8", "--mean", args.mean, "--std", args.std]
            prog, inp = r.compile(extra, "integer_input")
            measured("integer_input", "compile_model.py " + " ".join(extra),
                     stake_us(base, "cpu_operator", float_quantize),
                     r.socsim_run(prog, inp, [], "integer_input"),
                     count("cpu_operator", float_quantize))
        else:
            skipped.append(("cpu_operator (float input)", "needs --onnx to recompile"))
    if args.onnx:
        # The fusion measured the other way round: unfused, its advice predicts the saving.
        prog, inp = r.compile(["--no-pass", "fuse_silu"], "unfused")
        unfused = r.socsim_run(prog, inp, [], "unfused")
        if any(f["rule"] == "missed_fusion" for f in unfused["advice"]):
            t = frame(unfused)["frame_us"]
            rows.append({"action": "fusion", "how": "compiled with --no-pass fuse_silu: "
                         "its missed_fusion findings against the baseline (fused)",
                         "findings": sum(1 for f in unfused["advice"]
                                         if f["rule"] == "missed_fusion"),
                         "predicted_saving_us": stake_us(unfused, "missed_fusion"),
                         "frame_us": t, "measured_saving_us": t - base_us,
                         "report": unfused["_dir"]})
        elif "missed_fusion" not in rules:
            skipped.append(("fusion", "no Sigmoid x input pair in the model, fused or not"))
    if "missed_fusion" in rules:
        skipped.append(("missed_fusion", "a model change (why the compiler's fusion did not "
                        "match)"))
    base_estimate = r.socsim_estimate(args.program, []) if args.cores else 0.0
    for n in args.cores:
        sets = [f"npu.cores={n}"]
        # The estimate mode's saving (its own baseline minus its frame with N cores).
        predicted = base_estimate - r.socsim_estimate(args.program, sets)
        measured(f"cores={n}", "--set " + sets[0], predicted,
                 r.socsim_run(args.program, args.input, sets, f"cores{n}"), 0)
    for rule in rules:
        if rule in MODEL_CHANGE_RULES:
            skipped.append((rule, MODEL_CHANGE_RULES[rule]))
        elif rule == "cpu_operator" and count("cpu_operator") > count("cpu_operator",
                                                                      float_quantize):
            skipped.append(("cpu_operator", "an operator the preset has no layer for"))
    return {"baseline_frame_us": base_us, "baseline_report": base["_dir"], "actions": rows,
            "not_rerun": [{"rule": a, "why": b} for a, b in skipped]}


def print_table(result: dict):
    print(f"baseline: {result['baseline_frame_us']:.1f} us per frame")
    print("| action | findings | predicted saving us | measured saving us | frame us | re-run |")
    print("|---|---:|---:|---:|---:|---|")
    for a in result["actions"]:
        print(f"| {a['action']} | {a['findings']} | {a['predicted_saving_us']:.1f} | "
              f"{a['measured_saving_us']:.1f} | {a['frame_us']:.1f} | {a['how']} |")
    for s in result["not_rerun"]:
        print(f"not re-run: {s['rule']}: {s['why']}")


def main(argv=None) -> int:
    build = os.path.join(ROOT, "build")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--program", required=True)
    p.add_argument("--input", required=True)
    p.add_argument("-c", "--config", help="SoC file (socsim's default without)")
    p.add_argument("--set", action="append", default=[], help="socsim --set for every run")
    p.add_argument("--onnx", help="the program's model, for the actions that recompile it")
    p.add_argument("--compile-args", default="",
                   help="the baseline's compile_model.py options, one string (with --onnx)")
    p.add_argument("--mean", default=IMAGE_MEAN)
    p.add_argument("--std", default=IMAGE_STD)
    p.add_argument("--cores", default="", help="core counts to try, e.g. 2,3")
    p.add_argument("--socsim", default=os.path.join(build, "bin", "socsim"))
    p.add_argument("--runner", default=os.path.join(
        build, "firmware", "apps", "executor_runner", "executor_runner.elf"))
    p.add_argument("--out-dir", help="the runs' reports (default: a new temporary folder)")
    p.add_argument("--json", help="write the result here")
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return 2 if e.code else 0
    try:
        args.cores = [int(c) for c in args.cores.split(",") if c]
        if any(c < 1 for c in args.cores):
            raise ValueError
    except ValueError:
        print(f"npu_what_if: --cores: expected core counts like 2,3, got '{args.cores}'",
              file=sys.stderr)
        return 2
    args.compile_args = args.compile_args.split()
    for what, path in (("--program", args.program), ("--input", args.input),
                       ("--onnx", args.onnx), ("--socsim", args.socsim),
                       ("--runner", args.runner), ("-c", args.config)):
        if path is not None and not os.path.isfile(path):
            print(f"npu_what_if: {what}: cannot read '{path}'", file=sys.stderr)
            return 2
    args.out_dir = args.out_dir or tempfile.mkdtemp(prefix="npu_what_if_")
    os.makedirs(args.out_dir, exist_ok=True)
    try:
        result = what_if(args)
    except WhatIfError as e:
        print(f"npu_what_if: {e}", file=sys.stderr)
        return 1
    print_table(result)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
