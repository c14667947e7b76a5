#!/usr/bin/python3
"""scripts/npu_what_if.py against the runs it made (docs/npu.md, "What-if").

1. The zoo's convnet with a float input (its quantise runs on the CPU), recompiled from its
   ONNX model, on one and two cores: the baseline's frame is its report's (NPU layers of the
   last frame plus the CPU operators); every action's measured saving is the baseline minus
   the frame of that action's own report; every predicted saving is the sum of the rule's
   cycles at stake in the baseline's advice (channel alignment, integer input) or the
   estimate mode's difference (cores); the integer-input re-run reads a uint8 input, has no
   CPU quantise, and saves time.
2. A small Conv + SiLU model written with torch: compiled without the SiLU fusion, its advice
   has a missed_fusion finding; the fusion row measures the unfused run minus the fused one
   and predicts the Mul layers' cycles.
3. Bad input: a program that does not exist, --cores 0: status 2 and one line on stderr.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WHAT_IF = os.path.join(ROOT, "scripts", "npu_what_if.py")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def frame_us(report_dir):
    with open(os.path.join(report_dir, "npu_layers.json")) as f:
        r = json.load(f)
    last = r["layers"][-1]["frame"]
    return (sum(l["elapsed_cycles"] for l in r["layers"] if l["frame"] == last) /
            r["clock_mhz"] + sum(op["time_us"] for op in r["cpu_operators"])), r


def close(a, b):
    return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))


def what_if(args, out, extra):
    cmd = [sys.executable, WHAT_IF, "--socsim", args.socsim, "--runner", args.runner,
           "-c", args.config, "--out-dir", out, "--json", os.path.join(out, "what_if.json")]
    done = subprocess.run(cmd + extra, capture_output=True, text=True)
    print(done.stdout + done.stderr)
    if done.returncode != 0:
        fail(f"npu_what_if.py ended with status {done.returncode}")
    with open(os.path.join(out, "what_if.json")) as f:
        return json.load(f)


def check_convnet(args):
    out = os.path.join(args.out_dir, "convnet")
    compile_args = f"--quantize int8 --delegate npu --npu-config {args.npu_config} " \
                   f"--calibration {os.path.join(args.zoo, 'convnet.calibration.npz')}"
    result = what_if(args, out, [
        "--program", os.path.join(args.zoo, "convnet_int8_npu.pte"),
        "--input", os.path.join(args.zoo, "convnet.input.bin"),
        "--onnx", os.path.join(args.zoo, "convnet.onnx"), "--compile-args", compile_args,
        "--cores", "2"])
    base, base_report = frame_us(result["baseline_report"])
    if not close(base, result["baseline_frame_us"]):
        fail(f"baseline frame {result['baseline_frame_us']} != its report's {base}")
    stakes = {}
    for f in base_report["advice"]:
        stakes.setdefault(f["rule"], []).append(f)
    actions = {a["action"]: a for a in result["actions"]}
    for name, a in actions.items():
        t, _ = frame_us(a["report"])
        if not close(a["frame_us"], t) or not close(a["measured_saving_us"], base - t):
            fail(f"{name}: frame {a['frame_us']} / saving {a['measured_saving_us']}, "
                 f"its report gives {t} / {base - t}")
    if "integer_input" not in actions:
        fail(f"no integer_input action for a float input: {sorted(actions)}")
    quantize = [f for f in stakes.get("cpu_operator", []) if "--input-type uint8" in f["text"]]
    want = sum(f["cycles_at_stake"] for f in quantize) / base_report["clock_mhz"]
    if not quantize or not close(actions["integer_input"]["predicted_saving_us"], want):
        fail(f"integer_input predicted {actions['integer_input']['predicted_saving_us']}, "
             f"the advice's stake {want}")
    _, uint8_report = frame_us(actions["integer_input"]["report"])
    if any(op["data_type"] == "FLOAT32" for op in uint8_report["cpu_operators"]):
        fail("the integer-input run still quantises a float input on the CPU")
    if actions["integer_input"]["measured_saving_us"] <= 0:
        fail("the integer input saved nothing")
    if "channel_alignment" in stakes:
        want = sum(f["cycles_at_stake"] for f in stakes["channel_alignment"]) / \
            base_report["clock_mhz"]
        a = actions.get("channel_alignment")
        if a is None or not close(a["predicted_saving_us"], want):
            fail(f"channel_alignment: predicted {a and a['predicted_saving_us']}, stake {want}")
    if "cores=2" not in actions:
        fail("no cores=2 action")
    estimates = sorted(p for p in os.listdir(out) if p.endswith("_estimate.json"))
    if len(estimates) != 2:
        fail(f"expected two estimate runs, found {estimates}")
    e1, _ = frame_us_of_estimate(os.path.join(out, estimates[0]))
    e2, _ = frame_us_of_estimate(os.path.join(out, estimates[1]))
    if not close(actions["cores=2"]["predicted_saving_us"], e1 - e2):
        fail(f"cores=2 predicted {actions['cores=2']['predicted_saving_us']}, estimates "
             f"give {e1 - e2}")


def frame_us_of_estimate(path):
    """An estimate's frame: its NPU layers (it has no CPU operators)."""
    with open(path) as f:
        r = json.load(f)
    return sum(l["elapsed_cycles"] for l in r["layers"]) / r["clock_mhz"], r


def check_fusion(args):
    import torch
    out = os.path.join(args.out_dir, "silu")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.SiLU(),
                                torch.nn.Conv2d(32, 32, 3, padding=1), torch.nn.SiLU()).eval()
    onnx_path = os.path.join(out, "silu.onnx")
    with torch.no_grad():
        torch.onnx.export(model, torch.zeros(1, 16, 32, 32), onnx_path, opset_version=13)
    compile_args = f"--quantize int8 --delegate npu --npu-config {args.npu_config} " \
                   "--input-type int8 --output-type int8"
    prog = os.path.join(out, "silu.pte")
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "compile_model.py"), onnx_path, "-o",
           prog, "-q"] + compile_args.split()
    if subprocess.run(cmd).returncode != 0:
        fail("compiling the SiLU model")
    inp = os.path.join(out, "silu.input.bin")
    with open(inp, "wb") as f:
        f.write(bytes(range(256)) * (16 * 32 * 32 // 256))
    result = what_if(args, out, ["--program", prog, "--input", inp, "--onnx", onnx_path,
                                 "--compile-args", compile_args])
    actions = {a["action"]: a for a in result["actions"]}
    if "fusion" not in actions:
        fail(f"no fusion action for a model with SiLU: {sorted(actions)}")
    a = actions["fusion"]
    unfused, report = frame_us(a["report"])
    muls = [l for l in report["layers"] if l["op_type"].startswith("Mul")
            and l["frame"] == report["layers"][-1]["frame"]]
    want = sum(l["elapsed_cycles"] for l in muls) / report["clock_mhz"]
    if a["findings"] != 2 or not close(a["predicted_saving_us"], want):
        fail(f"fusion: {a['findings']} findings predicting {a['predicted_saving_us']} us; "
             f"the unfused run has {len(muls)} Mul layers of {want} us")
    if not close(a["measured_saving_us"], unfused - result["baseline_frame_us"]) or \
            a["measured_saving_us"] <= 0:
        fail(f"fusion: measured {a['measured_saving_us']}, runs give "
             f"{unfused - result['baseline_frame_us']}")


def check_bad_input(args):
    for extra, what in ((["--program", "/nonexistent.pte", "--input", args.runner],
                         "--program"),
                        (["--program", args.runner, "--input", args.runner, "--cores", "0"],
                         "--cores")):
        done = subprocess.run([sys.executable, WHAT_IF, "--socsim", args.socsim, "--runner",
                               args.runner] + extra, capture_output=True, text=True)
        lines = done.stderr.strip().splitlines()
        if done.returncode != 2 or len(lines) != 1 or what not in lines[0]:
            fail(f"bad {what}: status {done.returncode}, stderr {done.stderr!r}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--socsim", required=True)
    p.add_argument("--runner", required=True)
    p.add_argument("--config", required=True)
    p.add_argument("--npu-config", required=True)
    p.add_argument("--zoo", required=True)
    p.add_argument("--out-dir", required=True)
    args = p.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    check_bad_input(args)
    check_convnet(args)
    check_fusion(args)
    print("PASS")


if __name__ == "__main__":
    main()
