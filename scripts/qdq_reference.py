"""Pre-quantised models against onnxruntime (docs/compiler.md, "Pre-quantised models").

Models quantised by onnxruntime's `quantize_static` (QDQ and QOperator formats, uint8 or
int8 activations, per-tensor or per-channel weights) are compiled without `--quantize`
and their int8 outputs compared with onnxruntime's, in quantisation steps. Three steps, each
a sub-command, because the float models are exported with Debian's torch 1.13 and
quantised in the onnx venv (scripts/onnx-venv.sh, which has onnxruntime but no torch):

  export DIR [--set S]     (python3 with torch) float models to DIR/NAME.onnx and a sample
                           input DIR/NAME.input.npy
  quantize DIR [--set S]   (the onnx venv) each float model quantised in every variant:
                           DIR/NAME.VARIANT.onnx and onnxruntime's outputs as int8 integers
                           (uint8 ones minus 128), DIR/NAME.VARIANT.ort.npy
  compare DIR [--set S]    (python3) compiles each quantised model as it is, runs the numpy
                           reference executor (bit-exact with the firmware's kernels and
                           the NPU model) and prints the table of differences
  programs DIR --out O     (python3) the program files of DIR's quantised models for the
                           simulator's tests: O/NAME.VARIANT.pte (CPU),
                           O/NAME.VARIANT_npu.pte (NPU delegate), O/NAME.input.bin

`--set fixtures` is the small models checked in under scripts/test/data/qdq/ (the default
test suite compares them without onnxruntime: scripts/test/test_qdq_import.py);
`--set large` is MobileNetV2 and ResNet-18 at 224x224 and a transformer encoder
(scripts/qdq-reference.sh runs all three steps; ctest label `onnx-reference`).

Weights are random (fixed seeds); BatchNorm statistics are taken from random inputs in
train mode first, so that activations do not vanish (REFERENCE.md's note on MobileNetV2);
calibration uses 8 random inputs.
"""

import argparse
import os
import sys

import numpy as np

VARIANTS = {  # name: (format, activation type, per-channel weights)
    "qdq_u8": ("QDQ", "QUInt8", False),
    "qdq_i8_pc": ("QDQ", "QInt8", True),
    "qop_u8_pc": ("QOperator", "QUInt8", True),
    "qop_i8": ("QOperator", "QInt8", False),
}
SETS = {
    "fixtures": {"convnet": (1, 3, 8, 8), "encoder": (1, 8, 16)},
    "large": {"mobilenet_v2": (1, 3, 224, 224), "resnet18": (1, 3, 224, 224),
              "encoder_large": (1, 32, 64)},
}
CALIBRATION_SAMPLES = 8


# ---- export (torch 1.13) ------------------------------------------------------------------

def _torch_model(name):
    import torch
    import torch.nn as nn
    torch.manual_seed(0)

    class ConvNet(nn.Module):
        """Convolutions (plain, depthwise, 1x1), ReLU, ReLU6, a residual add, max pooling,
        a sigmoid gate (Sigmoid, Mul of two activations), a concatenation, average and
        global average pooling, a fully connected layer."""

        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2d(3, 8, 3, padding=1)
            self.c2 = nn.Conv2d(8, 8, 3, padding=1, groups=8)
            self.c3 = nn.Conv2d(8, 8, 1)
            self.fc = nn.Linear(16, 5)

        def forward(self, x):
            a = torch.relu(self.c1(x))
            b = torch.clamp(self.c2(a), 0, 6)
            c = nn.functional.max_pool2d(self.c3(b) + a, 2)
            gate = torch.sigmoid(c) * nn.functional.max_pool2d(a, 2)
            d = nn.functional.avg_pool2d(torch.cat([c, gate], 1), 2)
            return self.fc(nn.functional.adaptive_avg_pool2d(d, 1).flatten(1))

    class Encoder(nn.Module):
        """A pre-norm transformer encoder block written out (attention by MatMul of two
        activations, Softmax, LayerNorm, a ReLU feed-forward)."""

        def __init__(self, d, heads):
            super().__init__()
            self.d, self.heads = d, heads
            self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
            self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))
            self.ff1, self.ff2 = nn.Linear(d, 2 * d), nn.Linear(2 * d, d)

        def forward(self, x):
            b, t, d = x.shape
            hd = d // self.heads
            h = self.norm1(x)
            q = self.q(h).reshape(b, t, self.heads, hd).transpose(1, 2)
            k = self.k(h).reshape(b, t, self.heads, hd).permute(0, 2, 3, 1)
            v = self.v(h).reshape(b, t, self.heads, hd).transpose(1, 2)
            att = torch.softmax(torch.matmul(q, k) * (hd ** -0.5), dim=-1)
            y = torch.matmul(att, v).transpose(1, 2).reshape(b, t, d)
            x = x + self.o(y)
            return x + self.ff2(torch.relu(self.ff1(self.norm2(x))))

    if name == "convnet":
        return ConvNet()
    if name == "encoder":
        return Encoder(16, 2)
    if name == "encoder_large":
        return Encoder(64, 4)
    import torchvision
    return getattr(torchvision.models, name)(weights=None)


def _warm_batch_norm(model, shape):
    """BatchNorm statistics from random inputs (train mode), then eval mode."""
    import torch
    if any(isinstance(m, torch.nn.BatchNorm2d) for m in model.modules()):
        model.train()
        with torch.no_grad():
            for i in range(4):
                torch.manual_seed(100 + i)
                model(torch.randn((8,) + tuple(shape[1:])))
    return model.eval()


def export(directory, names):
    import torch
    for name in names:
        shape = _all_models()[name]
        model = _warm_batch_norm(_torch_model(name), shape)
        x = torch.from_numpy(_sample(shape, 1))
        torch.onnx.export(model, x, os.path.join(directory, f"{name}.onnx"), opset_version=13,
                          input_names=["x"], output_names=["y"])
        np.save(os.path.join(directory, f"{name}.input.npy"), x.numpy())
        print(f"exported {name}")


def _sample(shape, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def _all_models():
    return {k: v for s in SETS.values() for k, v in s.items()}


# ---- quantize (the onnx venv) -------------------------------------------------------------

def quantize(directory, names):
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import (CalibrationDataReader, QuantFormat, QuantType,
                                          quantize_static)

    class Samples(CalibrationDataReader):
        def __init__(self, shape):
            self.it = iter([{"x": _sample(shape, 1000 + i)}
                            for i in range(CALIBRATION_SAMPLES)])

        def get_next(self):
            return next(self.it, None)

    for name in names:
        shape = _all_models()[name]
        src = os.path.join(directory, f"{name}.onnx")
        x = np.load(os.path.join(directory, f"{name}.input.npy"))
        for variant, (fmt, act, per_channel) in VARIANTS.items():
            out = os.path.join(directory, f"{name}.{variant}.onnx")
            quantize_static(src, out, Samples(shape), quant_format=getattr(QuantFormat, fmt),
                            activation_type=getattr(QuantType, act),
                            weight_type=QuantType.QInt8, per_channel=per_channel)
            session = ort.InferenceSession(out, providers=["CPUExecutionProvider"])
            y = session.run(None, {"x": x})[0]
            scale, zp = _output_quantization(onnx.load(out))
            q = np.round(y.astype(np.float64) / scale).astype(np.int64) + int(zp)
            if zp.dtype == np.uint8:
                q -= 128
            np.save(os.path.join(directory, f"{name}.{variant}.ort.npy"), q.astype(np.int8))
            print(f"quantised {name} {variant}")


def _output_quantization(model):
    """(scale, zero point) of the DequantizeLinear writing the model's output."""
    from onnx import numpy_helper
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    out = model.graph.output[0].name
    dq = [n for n in model.graph.node if n.op_type == "DequantizeLinear" and n.output[0] == out]
    if not dq:
        raise SystemExit(f"no DequantizeLinear writes the output '{out}'")
    return float(inits[dq[0].input[1]]), inits[dq[0].input[2]]


# ---- compare (python3: the compiler) ------------------------------------------------------

def compile_quantized(path, delegate=None):
    from socsim_aot import compiler
    options = compiler.CompileOptions(output_type="int8", delegate=delegate,
                                      quantize="int8" if delegate else None)
    return compiler.compile_model(path, options)


def steps(program, x, want):
    """(largest difference in quantisation steps, elements that differ, elements)."""
    from socsim_aot import reference
    got = reference.run(program, [x])[0].astype(np.int64).reshape(want.shape)
    diff = np.abs(got - want.astype(np.int64))
    return int(diff.max()), int(np.count_nonzero(diff)), int(diff.size)


def compare(directory, names, delegate=None):
    rows = []
    for name in names:
        x = np.load(os.path.join(directory, f"{name}.input.npy"))
        for variant in VARIANTS:
            path = os.path.join(directory, f"{name}.{variant}.onnx")
            want = np.load(os.path.join(directory, f"{name}.{variant}.ort.npy"))
            worst, differ, total = steps(compile_quantized(path, delegate), x, want)
            rows.append((name, variant, worst, differ, total))
            print(f"{name:14} {variant:10} max {worst} step(s), {differ} of {total} differ",
                  flush=True)
    return rows


def programs(directory, names, out):
    """Writes the CPU and NPU program files of every quantised model and the raw inputs."""
    from socsim_aot import compiler
    for name in names:
        np.load(os.path.join(directory, f"{name}.input.npy")).tofile(
            os.path.join(out, f"{name}.input.bin"))
        for variant in VARIANTS:
            path = os.path.join(directory, f"{name}.{variant}.onnx")
            for suffix, delegate in (("", None), ("_npu", "npu")):
                data = compiler.serialise(compile_quantized(path, delegate), "pte")
                with open(os.path.join(out, f"{name}.{variant}{suffix}.pte"), "wb") as f:
                    f.write(data)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("export", "quantize", "compare", "programs"))
    parser.add_argument("directory", help="where the models and outputs go")
    parser.add_argument("--set", choices=sorted(SETS), default="fixtures")
    parser.add_argument("--models", help="comma-separated names of the set (default: all)")
    parser.add_argument("--delegate", choices=("npu",), help="compare: with the NPU delegate")
    parser.add_argument("--out", help="programs: where the program files go")
    parser.add_argument("--max-steps", type=int,
                        help="compare: exit with status 1 if any output differs from "
                        "onnxruntime's by more steps")
    args = parser.parse_args(argv)
    names = list(SETS[args.set])
    if args.models:
        names = [n for n in args.models.split(",") if n]
        unknown = [n for n in names if n not in SETS[args.set]]
        if unknown:
            parser.error(f"--models: {', '.join(unknown)} not in set {args.set}")
    os.makedirs(args.directory, exist_ok=True)
    if args.step == "export":
        export(args.directory, names)
    elif args.step == "quantize":
        quantize(args.directory, names)
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        if args.step == "compare":
            rows = compare(args.directory, names, args.delegate)
            worst = max(r[2] for r in rows)
            if args.max_steps is not None and worst > args.max_steps:
                print(f"qdq_reference: {worst} steps from onnxruntime, more than "
                      f"--max-steps {args.max_steps}", file=sys.stderr)
                return 1
        elif not args.out:
            parser.error("programs needs --out")
        else:
            os.makedirs(args.out, exist_ok=True)
            programs(args.directory, names, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
