#!/usr/bin/python3
"""Real networks end to end: which torchvision classifiers compile and run, and how long.

For every model (torchvision 0.14, random weights with torch.manual_seed(0), nothing
downloaded) at --size (299 for inception_v3 unless --size is given):

  1. export to ONNX (opset 13) and compile with scripts/compile_model.py's compiler:
     int8, the NPU delegate (default preset), uint8 image input with ImageNet mean/std and
     int8 outputs (--io uint8, the default) or float32 input and output (--io float32);
  2. run the program with executor_runner on the simulator (`socsim run --cpu iss`, one
     execution, --profile --print-outputs --inputs-in-place) on a random image;
  3. compare every output with the numpy reference executor (bit for bit; a float32
     program within 1e-5 of its largest output, as tests/runtime's sim_check);
  4. compare the outputs, dequantised, with torch's on the same image ("vs torch": the
     largest difference over the largest torch logit, the cosine similarity of the two
     logit vectors, whether the top-1 class is the same; --check needs the cosine at
     least CLASSIFIER_MIN_COSINE). --reference-only does 1, 3's reference run and 4
     without simulating.

Sequence models (SEQUENCE_MODELS: nn.TransformerEncoderLayer with d_model 64, 4 heads,
sequence 16; a two-layer nn.LSTM and an nn.GRU over 16 steps) take float32 inputs and
outputs, are compiled int8 with the NPU delegate or, with --precision float32, to float32
for the CPU, calibrate on 8 random samples, and are also compared with torch on the same
input ("vs torch": the largest difference over the largest torch output; --check needs it
within TORCH_TOLERANCE).

Printed per model: compiles, runs, exact, the NPU's time per inference (its cycles at the
preset's clock), the CPU's time per inference outside NPU calls, the whole inference, the
compile wall time and the simulation wall time (the `socsim run` process), and the share of
the inference the CPU spends outside NPU calls. Wall times depend on the machine's load; the
simulated times do not. Run after scripts/build.sh; e.g.

  bench/models.py --models mobilenet_v2,resnet18 --size 224
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import numpy as np  # noqa: E402

from socsim_aot import compiler, sim_check, zoo  # noqa: E402
from socsim_aot import program_format as pf  # noqa: E402

# The classification models of torchvision 0.14 the issue names (one per family and size).
MODELS = ("resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2", "mobilenet_v2",
          "mobilenet_v3_small", "mobilenet_v3_large", "mnasnet1_0", "shufflenet_v2_x1_0",
          "squeezenet1_1", "efficientnet_b0", "regnet_y_400mf", "densenet121", "googlenet",
          "inception_v3", "alexnet", "vgg11", "convnext_tiny")
# name -> (torch module builder, input shape); see export().
SEQUENCE_MODELS = {
    "transformer_encoder": ("_encoder", (1, 16, 64)),
    "lstm": ("_lstm", (1, 16, 32)),
    "gru": ("_gru", (1, 16, 32)),
}
# --check: largest |program - torch| / largest |torch| per precision (measured, docs/compiler.md)
TORCH_TOLERANCE = {"float32": 1e-4, "int8": 0.1}
# --check of a classifier: its int8 logits against torch's, as cosine similarity (random
# weights leave near-tied logits spread over a few hundred int8 steps, so the largest
# difference is up to 27 % of the largest logit while the vectors agree: cosine 0.995-1.000)
CLASSIFIER_MIN_COSINE = 0.99
EXECUTION = re.compile(r"^Execution 1: (\d+) cycles$", re.M)
DELEGATE = re.compile(r"^  delegate \d+ npu: \d+ elements, (\d+) cycles, (\d+) npu cycles$", re.M)
CPU_MHZ = re.compile(r"@ ([0-9.]+) MHz\)")


def npu_clock_mhz(preset: str) -> float:
    import yaml
    with open(preset) as f:
        return float(yaml.safe_load(f)["clock_mhz"])


def _encoder(torch):
    # Dropout 0 and training mode: torch's inference fast path has no ONNX export.
    return torch.nn.TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0.0,
                                            batch_first=True).train()


def _recurrent(torch, kind, layers):
    class Sequence(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(torch.nn, kind)(32, 64, num_layers=layers, batch_first=True)

        def forward(self, x):
            return self.rnn(x)[0]
    return Sequence().eval()


def _lstm(torch):
    return _recurrent(torch, "LSTM", 2)


def _gru(torch):
    return _recurrent(torch, "GRU", 1)


def sequence_module(name: str):
    import torch
    torch.manual_seed(0)
    return globals()[SEQUENCE_MODELS[name][0]](torch)


def classifier_module(name: str):
    import torch
    import torchvision
    torch.manual_seed(0)
    kwargs = {"aux_logits": False, "init_weights": True} if name in ("googlenet",
                                                                   "inception_v3") else {}
    return getattr(torchvision.models, name)(weights=None, **kwargs).eval()


def export(name: str, size: int, path: str):
    import torch
    if name in SEQUENCE_MODELS:
        module = sequence_module(name)
        with torch.no_grad():
            torch.onnx.export(module, torch.zeros(SEQUENCE_MODELS[name][1]), path,
                              opset_version=13, input_names=["input"], output_names=["output"],
                              training=torch.onnx.TrainingMode.PRESERVE)
        return
    module = classifier_module(name)
    with torch.no_grad():
        torch.onnx.export(module, torch.zeros(1, 3, size, size), path, opset_version=13,
                          input_names=["input"], output_names=["output"])


def torch_error(name: str, program, input_path: str, got: np.ndarray):
    """(the largest |got - torch| over the largest |torch|, their cosine similarity, whether
    the largest output is the same one) on the program's input: a uint8
    image input is normalised as the program's first layer does it (zoo.IMAGE_IO's mean and
    std), an int8 output dequantised with its scale and zero point."""
    import torch
    t_in = program.tensors[program.inputs[0]]
    x = np.fromfile(input_path, pf.DTYPES[t_in.dtype]).reshape(t_in.shape).astype(np.float32)
    if t_in.dtype != 1:  # an integer image: (x - mean) / std per channel, channels on axis 1
        c = (1, -1) + (1,) * (x.ndim - 2)
        x = (x - np.array(zoo.IMAGE_IO["mean"], np.float32).reshape(c)) / \
            np.array(zoo.IMAGE_IO["std"], np.float32).reshape(c)
    module = sequence_module(name) if name in SEQUENCE_MODELS else classifier_module(name)
    with torch.no_grad():
        want = module(torch.from_numpy(np.ascontiguousarray(x))).numpy().reshape(-1)
    t_out = program.tensors[program.outputs[0]]
    value = got.astype(np.float64)
    if t_out.dtype != 1:
        value = (value - t_out.zero_point) * t_out.scale
    cosine = float(value @ want / (np.linalg.norm(value) * np.linalg.norm(want)))
    return float(np.abs(value - want).max() / np.abs(want).max()), cosine, \
        int(np.argmax(value)) == int(np.argmax(want))


def bench_model(name: str, size, args, work: str) -> dict:
    sequence = name in SEQUENCE_MODELS
    if sequence:
        size = "x".join(str(d) for d in SEQUENCE_MODELS[name][1])
    row = {"model": name, "size": size, "compiles": "no", "runs": "-", "exact": "-"}
    onnx_path = os.path.join(work, name + ".onnx")
    prog_path = os.path.join(work, name + ".pte")
    try:
        export(name, size, onnx_path)
    except Exception as e:  # torch's exporter: any failure is a result of the table
        row["why"] = f"export: {type(e).__name__}: {str(e).splitlines()[0][:100]}"
        return row
    io = zoo.IMAGE_IO if args.io == "uint8" and not sequence else {}
    int8 = dict(quantize="int8", samples=8 if sequence else args.samples, delegate="npu",
                npu_config=args.npu_config)
    start = time.perf_counter()
    try:
        program = compiler.compile_file(
            onnx_path, prog_path, **(int8 if args.precision == "int8" or not sequence else {}),
            **io)
    except compiler.CompileError as e:
        row["why"] = str(e).splitlines()[0][:160]
        return row
    finally:
        row["compile_s"] = time.perf_counter() - start
    row["compiles"] = "yes"
    rng = np.random.default_rng(1)
    input_path = os.path.join(work, name + ".input.bin")
    with open(input_path, "wb") as f:
        for tid in program.inputs:
            t = program.tensors[tid]
            dtype = pf.DTYPES[t.dtype]
            sample = rng.integers(0, 256, t.shape) if dtype == np.uint8 else \
                rng.standard_normal(t.shape)
            f.write(sample.astype(dtype).tobytes())
    if args.reference_only:
        return compare_with_torch(row, name, program, input_path,
                                  sim_check.reference_outputs(program, input_path), args)
    cmd = [args.socsim, "run", "-q", "--cpu", args.cpu, "--firmware", args.runner, "--model",
           prog_path, "--input", input_path, "--max-cycles", str(args.max_cycles), "--",
           "--profile", "--print-outputs",
           "--copy-inputs" if args.copy_inputs else "--inputs-in-place"]
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        row["runs"] = "no"
        row["why"] = f"simulation longer than --timeout {args.timeout} s"
        return row
    finally:
        row["sim_s"] = time.perf_counter() - start
    execution = EXECUTION.search(done.stdout)
    if done.returncode != 0 or execution is None:
        row["runs"] = "no"
        row["why"] = (done.stdout + done.stderr).strip().splitlines()[-1][:160]
        return row
    row["runs"] = "yes"
    cpu_mhz = float(CPU_MHZ.search(done.stdout + done.stderr).group(1))
    cycles = int(execution.group(1))
    calls = [(int(c), int(n)) for c, n in DELEGATE.findall(done.stdout)]
    row["npu_ms"] = sum(n for _, n in calls) / args.npu_mhz / 1e3
    row["cpu_ms"] = (cycles - sum(c for c, _ in calls)) / cpu_mhz / 1e3
    row["total_ms"] = cycles / cpu_mhz / 1e3
    want = sim_check.reference_outputs(program, input_path)
    printed = [v for _, v in sim_check.RES_LINE.findall(done.stdout)]
    if len(printed) != want.size:
        row["exact"] = "NO"
        row["why"] = f"{len(printed)} outputs printed, {want.size} expected"
        return row
    _, bad = sim_check.differences(program, want, printed)
    if np.any(bad):
        row["exact"] = "NO"
        return row
    row["exact"] = "yes"
    return compare_with_torch(row, name, program, input_path, want, args)


def compare_with_torch(row: dict, name: str, program, input_path: str, want, args) -> dict:
    """Adds "vs torch" (the reference executor's outputs, which the simulation matched bit for
    bit, against torch on the same input) and marks the row when it is over the tolerance."""
    row["torch"], row["cosine"], row["top1"] = torch_error(name, program, input_path,
                                                           want.reshape(-1))
    if name in SEQUENCE_MODELS:
        limit = TORCH_TOLERANCE[args.precision]
        if row["torch"] > limit:
            row["exact"] += " (vs torch > %g)" % limit
    elif row["cosine"] < CLASSIFIER_MIN_COSINE:
        row["exact"] += " (cosine with torch < %g)" % CLASSIFIER_MIN_COSINE
    return row


def fmt(row: dict) -> str:
    def num(key, digits=1):
        return f"{row[key]:.{digits}f}" if key in row else "-"
    share = f"{100 * row['cpu_ms'] / row['total_ms']:.1f}" if "total_ms" in row else "-"
    versus = f"{row['torch']:.2g}" if "torch" in row else "-"
    if "torch" in row and row["model"] not in SEQUENCE_MODELS:
        versus += f" (cosine {row['cosine']:.4f}, top-1 {'same' if row['top1'] else 'differs'})"
    return (f"| {row['model']} | {row['size']} | {row['compiles']} | {row['runs']} | "
            f"{row['exact']} | {num('npu_ms', 2)} | {num('cpu_ms', 2)} | {share} | "
            f"{num('total_ms', 2)} | {num('compile_s')} | {num('sim_s')} | {versus} |")


def main(argv=None) -> int:
    build = os.path.join(ROOT, "build")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--models", default=",".join(MODELS),
                        help="comma-separated torchvision model names (default: the list "
                             "above)")
    parser.add_argument("--size", type=int, help="input height and width (default 224; 299 "
                                                 "for inception_v3)")
    parser.add_argument("--io", choices=["uint8", "float32"], default="uint8",
                        help="program inputs/outputs (default uint8 image, int8 outputs; "
                             "sequence models: float32)")
    parser.add_argument("--precision", choices=["int8", "float32"], default="int8",
                        help="sequence models: int8 on the NPU (default) or float32 on the "
                             "CPU; classifiers are always int8")
    parser.add_argument("--samples", type=int, default=2,
                        help="random calibration samples (default 2)")
    parser.add_argument("--cpu", default="iss", choices=["iss", "rtl"])
    parser.add_argument("--copy-inputs", action="store_true",
                        help="the runner copies the input into the program's input tensor "
                             "before the execution (counted in the CPU time) instead of "
                             "reading it where the simulator placed it (--inputs-in-place, "
                             "as a camera writes its frame)")
    parser.add_argument("--max-cycles", type=int, default=200_000_000_000)
    parser.add_argument("--timeout", type=float, default=900,
                        help="wall seconds a simulation may take (default 900)")
    parser.add_argument("--socsim", default=os.path.join(build, "bin", "socsim"))
    parser.add_argument("--runner", default=os.path.join(
        build, "firmware", "apps", "executor_runner", "executor_runner.elf"))
    parser.add_argument("--npu-config", default=compiler.DEFAULT_NPU_CONFIG)
    parser.add_argument("--keep", metavar="DIR", help="keep the models and programs in DIR")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 unless every model compiles, runs, is "
                             "bit-exact and close to torch (for a test)")
    parser.add_argument("--reference-only", action="store_true",
                        help="compile and compare the reference executor's outputs with "
                             "torch, without simulating (the compiled program's accuracy "
                             "alone); with --check every model must be within the tolerance")
    parser.add_argument("--export-only", metavar="DIR",
                        help="only write each model's ONNX file, DIR/<model>.onnx (for a sweep's "
                             "onnx: models, e.g. configs/sweeps/fpu_compare.yaml)")
    args = parser.parse_args(argv)
    known = MODELS + tuple(SEQUENCE_MODELS)
    unknown = [m for m in args.models.split(",") if m not in known]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)} (known: {', '.join(known)})")
    if args.export_only:
        os.makedirs(args.export_only, exist_ok=True)
        for name in args.models.split(","):
            path = os.path.join(args.export_only, f"{name}.onnx")
            export(name, args.size or 224, path)
            print(path)
        return 0
    for path in (args.socsim, args.runner):
        if not os.path.exists(path):
            parser.error(f"{path} does not exist: run scripts/build.sh first")
    args.npu_mhz = npu_clock_mhz(args.npu_config)
    print("| model | size | compiles | runs | exact | NPU ms | CPU ms | CPU % | inference ms | "
          "compile s | simulation s | vs torch |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    notes, failed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or tmp
        os.makedirs(work, exist_ok=True)
        for name in args.models.split(","):
            size = args.size or (299 if name == "inception_v3" else 224)
            row = bench_model(name, size, args, work)
            print(fmt(row), flush=True)
            if "why" in row:
                notes.append(f"{name}: {row['why']}")
            if row["exact"] != ("-" if args.reference_only else "yes") or \
                    row["compiles"] != "yes":
                failed.append(name)
    for note in notes:
        print(note)
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    sys.exit(main())
