"""Ten ONNX models of the kinds users bring, compiled int8 with the NPU delegate, run on the
simulator and compared with onnxruntime's float outputs (docs/compiler.md, "Ten models").

The models (random weights, fixed seeds, BatchNorm statistics warmed on random batches so
that activations stay healthy; torch 1.13's exporter, opset 13 unless said):

  unet          U-Net, three levels, ConvTranspose upsampling, skip Concats (1x3x128x128)
  kws_1d        keyword spotting on 40 MFCCs x 98 frames: 1-D convolutions (strided,
                dilated, depthwise), BatchNorm, MaxPool1d, AvgPool1d, a classifier
  vit           ViT: 8x8 patches of 64x64, class token, position embedding, four pre-norm
                blocks (nn.MultiheadAttention, GELU), opset 17
  decoder       causal decoder over int64 token ids (Embedding, learnt positions, four
                pre-norm blocks, -inf upper-triangle masks, one by masked_fill/Where), a
                language-model head, 32 tokens, vocabulary 256
  groupnorm     a residual net with GroupNorm and dilated convolutions (1x3x64x64)
  yolo          a YOLO-style detector at 640x640: Conv-BN-SiLU backbone with CSP blocks,
                SPPF (three chained 5x5 max pools), an FPN (nearest upsampling, Concat),
                three 1x1 heads at strides 8, 16 and 32, flattened and concatenated
  tcn           temporal convolution network: causal dilated 1-D convolutions (left Pad),
                residual blocks (1x16x256)
  dcgan         DCGAN-style generator: a latent 1x64x1x1 through ConvTranspose layers to
                1x3x32x32, BatchNorm, ReLU, Tanh
  mobilenet_v3  torchvision MobileNetV3-Small (Hardswish, squeeze-excitation with
                Hardsigmoid) at 160x160
  ds_cnn        MLPerf Tiny's DS-CNN keyword spotter shape (2-D depthwise-separable
                convolutions on 49x10 MFCCs)

Three steps, each a sub-command, because torch is Debian's (torch 1.13) and onnxruntime is in
the onnx venv (scripts/onnx-venv.sh); scripts/onnx-models.sh runs all three:

  export DIR      (python3 with torch) DIR/NAME.onnx, DIR/NAME.input.npy (a sample input),
                  DIR/NAME.calibration.npz (16 random inputs)
  reference DIR   (the onnx venv) onnxruntime's float32 outputs, DIR/NAME.ort.npy
  run DIR         (python3) compiles each model int8 with the NPU delegate (and without, to
                  count the operators the CPU keeps), runs it with executor_runner on the
                  simulator (`socsim run --print-outputs`) and prints the table: model,
                  ONNX operators, compile OK, NPU share (operators of the program the NPU
                  runs, and its share of the run's cycles), correlation of the simulator's
                  outputs with onnxruntime's; exit status 1 if a model does not compile,
                  fails to run, or correlates below --min-correlation (default 0.98)
"""

import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

MODELS = ("unet", "kws_1d", "vit", "decoder", "groupnorm", "yolo", "tcn", "dcgan",
          "mobilenet_v3", "ds_cnn")
CALIBRATION_SAMPLES = 16
MIN_CORRELATION = 0.98


# ---- the models (torch 1.13) --------------------------------------------------------------

def _warm(module, shape, steps=20):
    """BatchNorm running statistics from random batches (train mode), then eval mode."""
    import torch
    module.train()
    with torch.no_grad():
        for _ in range(steps):
            module(torch.randn((4,) + tuple(shape[1:])))
    return module.eval()


def _conv_bn(cin, cout, k=3, stride=1, act="relu", groups=1, dilation=1, dims=2):
    import torch.nn as nn
    conv = (nn.Conv1d if dims == 1 else nn.Conv2d)(cin, cout, k, stride,
                                                   dilation * (k // 2), dilation, groups,
                                                   bias=False)
    bn = (nn.BatchNorm1d if dims == 1 else nn.BatchNorm2d)(cout)
    layers = [conv, bn]
    if act == "relu":
        layers.append(nn.ReLU())
    elif act == "silu":
        layers.append(nn.SiLU())
    return nn.Sequential(*layers)


def unet():
    import torch
    nn = torch.nn

    def double(cin, cout):
        return nn.Sequential(_conv_bn(cin, cout), _conv_bn(cout, cout))

    class UNet(nn.Module):
        def __init__(self, c=16):
            super().__init__()
            self.e1, self.e2, self.e3 = double(3, c), double(c, 2 * c), double(2 * c, 4 * c)
            self.mid = double(4 * c, 8 * c)
            self.u3 = nn.ConvTranspose2d(8 * c, 4 * c, 2, stride=2)
            self.d3 = double(8 * c, 4 * c)
            self.u2 = nn.ConvTranspose2d(4 * c, 2 * c, 2, stride=2)
            self.d2 = double(4 * c, 2 * c)
            self.u1 = nn.ConvTranspose2d(2 * c, c, 3, stride=2, padding=1, output_padding=1)
            self.d1 = double(2 * c, c)
            self.head = nn.Conv2d(c, 2, 1)
            self.pool = nn.MaxPool2d(2)

        def forward(self, x):
            a = self.e1(x)
            b = self.e2(self.pool(a))
            c = self.e3(self.pool(b))
            m = self.mid(self.pool(c))
            c = self.d3(torch.cat([c, self.u3(m)], 1))
            b = self.d2(torch.cat([b, self.u2(c)], 1))
            return self.head(self.d1(torch.cat([a, self.u1(b)], 1)))
    shape = (1, 3, 128, 128)
    return _warm(UNet(), shape), shape, 13


def kws_1d():
    import torch
    nn = torch.nn

    class Kws(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(
                _conv_bn(40, 64, 5, 2, dims=1),
                _conv_bn(64, 64, 3, groups=64, dilation=2, dims=1), _conv_bn(64, 96, 1, dims=1),
                nn.MaxPool1d(3, stride=2, padding=1),
                _conv_bn(96, 96, 3, groups=96, dilation=4, dims=1), _conv_bn(96, 128, 1, dims=1),
                nn.AvgPool1d(2), _conv_bn(128, 128, 3, dims=1), nn.AdaptiveAvgPool1d(1))
            self.classify = nn.Linear(128, 12)

        def forward(self, x):
            return self.classify(self.body(x).flatten(1))
    shape = (1, 40, 98)
    return _warm(Kws(), shape), shape, 13


def vit(image=64, patch=8, dim=64, depth=4, heads=4, classes=10, zero_tokens=False):
    """zero_tokens: the class token and position embedding all zeros, as at initialisation
    (scripts/test/test_vit.py: a constant without a range of its own)."""
    import torch
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1 = nn.LayerNorm(dim)
            self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
            self.norm2 = nn.LayerNorm(dim)
            self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

        def forward(self, x):
            y = self.norm1(x)
            x = x + self.attn(y, y, y, need_weights=False)[0]
            return x + self.mlp(self.norm2(x))

    class ViT(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Conv2d(3, dim, patch, patch)
            tokens = (image // patch) ** 2 + 1
            if zero_tokens:
                self.cls = nn.Parameter(torch.zeros(1, 1, dim))
                self.pos = nn.Parameter(torch.zeros(1, tokens, dim))
            else:
                self.cls = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
                self.pos = nn.Parameter(torch.randn(1, tokens, dim) * 0.02)
            self.blocks = nn.Sequential(*[Block() for _ in range(depth)])
            self.norm = nn.LayerNorm(dim)
            self.head = nn.Linear(dim, classes)

        def forward(self, x):
            x = self.embed(x).flatten(2).transpose(1, 2)
            x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], 1) + self.pos
            return self.head(self.norm(self.blocks(x))[:, 0])
    return ViT().eval(), (1, 3, image, image), 17


def decoder(vocab=256, width=64, heads=4, length=32, depth=4):
    import torch
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, where):
            super().__init__()
            self.where = where
            self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
            self.qkv, self.proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
            self.ff = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                    nn.Linear(4 * width, width))
            causal = torch.triu(torch.ones(length, length, dtype=torch.bool), 1)
            self.register_buffer("causal", causal)
            self.register_buffer("additive", torch.zeros(length, length)
                                 .masked_fill(causal, float("-inf")))

        def forward(self, x):
            q, k, v = self.qkv(self.norm1(x)).split(width, dim=-1)
            q, k, v = (t.reshape(1, length, heads, width // heads).transpose(1, 2)
                       for t in (q, k, v))
            scores = q @ k.transpose(-2, -1) / float(np.sqrt(width // heads))
            if self.where:
                scores = scores.masked_fill(self.causal, float("-inf"))
            else:
                scores = scores + self.additive
            att = (torch.softmax(scores, -1) @ v).transpose(1, 2).reshape(1, length, width)
            x = x + self.proj(att)
            return x + self.ff(self.norm2(x))

    class Decoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(vocab, width)
            self.position = nn.Parameter(torch.randn(1, length, width) * 0.1)
            self.blocks = nn.Sequential(*[Block(i % 2 == 1) for i in range(depth)])
            self.norm, self.head = nn.LayerNorm(width), nn.Linear(width, vocab)

        def forward(self, ids):
            return self.head(self.norm(self.blocks(self.embed(ids) + self.position)))
    return Decoder().eval(), (1, length), 13


def groupnorm():
    import torch
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, c, dilation):
            super().__init__()
            self.conv1 = nn.Conv2d(c, c, 3, padding=dilation, dilation=dilation)
            self.gn1 = nn.GroupNorm(8, c)
            self.conv2 = nn.Conv2d(c, c, 3, padding=1)
            self.gn2 = nn.GroupNorm(8, c)

        def forward(self, x):
            y = torch.relu(self.gn1(self.conv1(x)))
            return torch.relu(x + self.gn2(self.conv2(y)))

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.GroupNorm(8, 32), nn.ReLU())
            self.b1, self.b2 = Block(32, 1), Block(32, 2)
            self.down = nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.GroupNorm(16, 64),
                                      nn.ReLU())
            self.b3, self.b4 = Block(64, 2), Block(64, 4)
            self.fc = nn.Linear(64, 10)
            for m in self.modules():
                if isinstance(m, nn.GroupNorm):
                    nn.init.uniform_(m.weight, 0.5, 1.5)
                    nn.init.uniform_(m.bias, -0.3, 0.3)

        def forward(self, x):
            x = self.b2(self.b1(self.stem(x)))
            x = self.b4(self.b3(self.down(x)))
            return self.fc(x.mean((2, 3)))
    return Net().eval(), (1, 3, 64, 64), 13


def yolo(size=640, c=16, classes=8):
    import torch
    nn = torch.nn

    def cbs(cin, cout, k=3, s=1):
        return _conv_bn(cin, cout, k, s, act="silu")

    class Bottleneck(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.a, self.b = cbs(ch, ch, 1), cbs(ch, ch, 3)

        def forward(self, x):
            return x + self.b(self.a(x))

    class Csp(nn.Module):
        def __init__(self, cin, cout, n=1):
            super().__init__()
            self.split = cbs(cin, cout, 1)
            self.blocks = nn.Sequential(*[Bottleneck(cout // 2) for _ in range(n)])
            self.join = cbs(cout + cout // 2, cout, 1)

        def forward(self, x):
            a, b = self.split(x).chunk(2, 1)
            return self.join(torch.cat([a, b, self.blocks(b)], 1))

    class Sppf(nn.Module):
        def __init__(self, ch):
            super().__init__()
            self.a, self.b = cbs(ch, ch // 2, 1), cbs(2 * ch, ch, 1)
            self.pool = nn.MaxPool2d(5, 1, 2)

        def forward(self, x):
            x = self.a(x)
            p1 = self.pool(x)
            p2 = self.pool(p1)
            return self.b(torch.cat([x, p1, p2, self.pool(p2)], 1))

    class Yolo(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(cbs(3, c, 3, 2), cbs(c, 2 * c, 3, 2), Csp(2 * c, 2 * c))
            self.p3 = nn.Sequential(cbs(2 * c, 4 * c, 3, 2), Csp(4 * c, 4 * c))
            self.p4 = nn.Sequential(cbs(4 * c, 8 * c, 3, 2), Csp(8 * c, 8 * c))
            self.p5 = nn.Sequential(cbs(8 * c, 8 * c, 3, 2), Csp(8 * c, 8 * c), Sppf(8 * c))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.n4 = Csp(16 * c, 8 * c)
            self.n3 = Csp(12 * c, 4 * c)
            self.heads = nn.ModuleList(nn.Conv2d(ch, 5 + classes, 1)
                                       for ch in (4 * c, 8 * c, 8 * c))

        def forward(self, x):
            p3 = self.p3(self.stem(x))
            p4 = self.p4(p3)
            p5 = self.p5(p4)
            n4 = self.n4(torch.cat([self.up(p5), p4], 1))
            n3 = self.n3(torch.cat([self.up(n4), p3], 1))
            outs = [h(f).flatten(2) for h, f in zip(self.heads, (n3, n4, p5))]
            return torch.cat(outs, 2).transpose(1, 2)
    shape = (1, 3, size, size)
    return _warm(Yolo(), shape, steps=3), shape, 13


def tcn():
    import torch
    nn = torch.nn

    class Causal(nn.Module):
        def __init__(self, cin, cout, dilation, k=3):
            super().__init__()
            self.pad = (k - 1) * dilation
            self.conv = nn.Conv1d(cin, cout, k, dilation=dilation)
            self.bn = nn.BatchNorm1d(cout)

        def forward(self, x):
            return torch.relu(self.bn(self.conv(nn.functional.pad(x, (self.pad, 0)))))

    class Block(nn.Module):
        def __init__(self, cin, cout, dilation):
            super().__init__()
            self.a, self.b = Causal(cin, cout, dilation), Causal(cout, cout, dilation)
            self.skip = nn.Conv1d(cin, cout, 1) if cin != cout else nn.Identity()

        def forward(self, x):
            return torch.relu(self.b(self.a(x)) + self.skip(x))

    class Tcn(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = nn.Sequential(Block(16, 32, 1), Block(32, 32, 2), Block(32, 32, 4),
                                        Block(32, 48, 8))
            self.out = nn.Conv1d(48, 6, 1)

        def forward(self, x):
            return self.out(self.blocks(x))
    shape = (1, 16, 256)
    return _warm(Tcn(), shape), shape, 13


def dcgan():
    import torch
    nn = torch.nn

    def up(cin, cout, k=4, s=2, p=1):
        return nn.Sequential(nn.ConvTranspose2d(cin, cout, k, s, p, bias=False),
                             nn.BatchNorm2d(cout), nn.ReLU())

    class Generator(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(up(64, 128, 4, 1, 0), up(128, 64), up(64, 32),
                                      nn.ConvTranspose2d(32, 3, 4, 2, 1), nn.Tanh())

        def forward(self, z):
            return self.body(z)
    shape = (1, 64, 1, 1)
    return _warm(Generator(), shape), shape, 13


def mobilenet_v3():
    import torchvision
    shape = (1, 3, 160, 160)
    return _warm(torchvision.models.mobilenet_v3_small(weights=None), shape), shape, 13


def ds_cnn():
    import torch
    nn = torch.nn

    class DsCnn(nn.Module):
        def __init__(self, c=64):
            super().__init__()
            layers = [nn.Conv2d(1, c, (10, 4), (2, 2), (5, 1), bias=False), nn.BatchNorm2d(c),
                      nn.ReLU()]
            for _ in range(4):
                layers += [_conv_bn(c, c, 3, groups=c), _conv_bn(c, c, 1)]
            self.body = nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1))
            self.fc = nn.Linear(c, 12)

        def forward(self, x):
            return self.fc(self.body(x).flatten(1))
    shape = (1, 1, 49, 10)
    return _warm(DsCnn(), shape), shape, 13


VOCAB = {"decoder": 256}


def _build(name):
    import torch
    torch.manual_seed(MODELS.index(name))
    return globals()[name]()


def _samples(name, shape, count, seed):
    rng = np.random.default_rng(seed)
    if name in VOCAB:
        return rng.integers(0, VOCAB[name], (count,) + tuple(shape))
    return rng.standard_normal((count,) + tuple(shape)).astype(np.float32)


def export(directory, names):
    import torch
    for name in names:
        module, shape, opset = _build(name)
        x = _samples(name, shape, 1, 1)[0]
        path = os.path.join(directory, f"{name}.onnx")
        # Not under no_grad: torch's fast path of attention there has no ONNX export.
        torch.onnx.export(module, torch.from_numpy(x), path, opset_version=opset,
                          input_names=["x"], output_names=["y"])
        np.save(os.path.join(directory, f"{name}.input.npy"), x)
        np.savez(os.path.join(directory, f"{name}.calibration.npz"),
                 x=_samples(name, shape, CALIBRATION_SAMPLES, 2))
        print(f"onnx_models: exported {name} {tuple(shape)}", flush=True)


# ---- reference (the onnx venv: onnxruntime) -----------------------------------------------

def reference(directory, names):
    import onnxruntime as ort
    for name in names:
        session = ort.InferenceSession(os.path.join(directory, f"{name}.onnx"),
                                       providers=["CPUExecutionProvider"])
        x = np.load(os.path.join(directory, f"{name}.input.npy"))
        outputs = session.run(None, {"x": x})
        np.save(os.path.join(directory, f"{name}.ort.npy"),
                np.concatenate([o.reshape(-1).astype(np.float32) for o in outputs]))
        print(f"onnx_models: onnxruntime ran {name}", flush=True)


# ---- run (python3: the compiler and the simulator) ----------------------------------------

RES_LINE = re.compile(r"^res\[(\d+)\] = (\S+)$", re.M)
CYCLES = re.compile(r"^Execution 1: (\d+) cycles", re.M)
HEADER = ("| model | input | ONNX ops | compile int8 + NPU | NPU share (ops) | cycles | "
          "correlation with onnxruntime |\n|---|---|---:|---|---:|---:|---:|")


def _onnx_ops(path):
    import onnx
    return len(onnx.load(path).graph.node)


def _kernel_calls(program):
    return sum(1 for i in program.instructions if i.name)


def run_one(directory, name, socsim, runner, npu_config, max_cycles, settings=(),
            reuse=False):
    """One row of the table: a dict of the measured fields (error: the reason it stopped).
    `settings`: socsim run --set KEY=VALUE; `reuse`: an existing NPU program file of the
    model is run as it is (not compiled again)."""
    from socsim_aot import compiler
    path = os.path.join(directory, f"{name}.onnx")
    x = np.load(os.path.join(directory, f"{name}.input.npy"))
    want = np.load(os.path.join(directory, f"{name}.ort.npy")).astype(np.float64)
    row = dict(name=name, shape="x".join(str(d) for d in x.shape), ops=_onnx_ops(path))
    calibration = os.path.join(directory, f"{name}.calibration.npz")
    prog = os.path.join(directory, f"{name}_int8_npu.pte")
    try:
        if reuse and os.path.exists(prog):
            from socsim_aot import pte_format
            with open(prog, "rb") as f:
                program = pte_format.read_any(f.read())
        else:
            program = compiler.compile_file(path, prog, quantize="int8",
                                            calibration=calibration, delegate="npu",
                                            npu_config=npu_config)
        cpu_only = compiler.compile_model(path, compiler.CompileOptions(
            quantize="int8", calibration=calibration))
    except compiler.CompileError as e:
        row["error"] = f"not compiled: {e}"
        return row
    row["compiled"] = True
    row["npu_ops"] = 1 - _kernel_calls(program) / max(_kernel_calls(cpu_only), 1)
    inp = os.path.join(directory, f"{name}.input.bin")
    (x.astype(np.int32) if x.dtype == np.int64 else x).tofile(inp)
    started = time.time()
    cmd = [socsim, "run", "-q", "--firmware", runner, "--model", prog, "--max-cycles",
           str(max_cycles), "--input", inp]
    for setting in settings:
        cmd += ["--set", setting]
    run = subprocess.run(cmd + ["--", "--print-outputs"], capture_output=True, text=True)
    row["seconds"] = time.time() - started
    if run.returncode != 0:
        row["error"] = f"socsim exited {run.returncode}: {run.stderr.strip()[-300:]}"
        return row
    printed = RES_LINE.findall(run.stdout)
    if [int(i) for i, _ in printed] != list(range(want.size)):
        row["error"] = f"{len(printed)} output values printed, onnxruntime has {want.size}"
        return row
    got = np.array([float(v) for _, v in printed], np.float64)
    m = CYCLES.search(run.stdout)
    row["cycles"] = int(m.group(1)) if m else None
    row["correlation"] = float(np.corrcoef(got, want)[0, 1])
    return row


def format_row(r):
    if "compiled" not in r:
        return f"| {r['name']} | {r['shape']} | {r['ops']} | no: {r['error']} | | | |"
    if "correlation" not in r:
        return (f"| {r['name']} | {r['shape']} | {r['ops']} | yes | {100 * r['npu_ops']:.0f} % "
                f"| run failed: {r['error']} | |")
    cycles = f"{r['cycles']:,}" if r["cycles"] is not None else "?"
    return (f"| {r['name']} | {r['shape']} | {r['ops']} | yes | {100 * r['npu_ops']:.0f} % | "
            f"{cycles} | {r['correlation']:.4f} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("export", "reference", "run"))
    parser.add_argument("directory", help="where the models, inputs and outputs go")
    parser.add_argument("--models", help=f"comma-separated (default all: {','.join(MODELS)})")
    parser.add_argument("--socsim", help="run: the socsim binary")
    parser.add_argument("--runner", help="run: executor_runner.elf")
    parser.add_argument("--npu-config", help="run: NPU preset (default: the compiler's)")
    parser.add_argument("--max-cycles", type=int, default=20_000_000_000,
                        help="run: socsim run --max-cycles (default 2e10)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="run: socsim run --set (repeatable); cpu.model=iss runs the "
                             "same cycles faster than the default RTL core")
    parser.add_argument("--reuse-programs", action="store_true",
                        help="run: run NAME_int8_npu.pte files already in DIRECTORY as they "
                             "are")
    parser.add_argument("--min-correlation", type=float, default=MIN_CORRELATION,
                        help=f"run: the least correlation that passes (default "
                             f"{MIN_CORRELATION})")
    args = parser.parse_args(argv)
    names = list(MODELS)
    if args.models:
        names = [n for n in args.models.split(",") if n]
        unknown = [n for n in names if n not in MODELS]
        if unknown:
            parser.error(f"--models: unknown {', '.join(unknown)} (known: {', '.join(MODELS)})")
    os.makedirs(args.directory, exist_ok=True)
    if args.step == "export":
        export(args.directory, names)
        return 0
    if args.step == "reference":
        reference(args.directory, names)
        return 0
    if not args.socsim or not args.runner:
        parser.error("run needs --socsim and --runner")
    for path in (args.socsim, args.runner):
        if not os.path.exists(path):
            print(f"onnx_models: {path} is missing (build first)", file=sys.stderr)
            return 1
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from socsim_aot import compiler
    npu_config = args.npu_config or compiler.DEFAULT_NPU_CONFIG
    rows = []
    print(HEADER, flush=True)
    for name in names:
        r = run_one(args.directory, name, args.socsim, args.runner, npu_config,
                    args.max_cycles, args.set, args.reuse_programs)
        rows.append(r)
        print(format_row(r), flush=True)
    bad = [r["name"] for r in rows
           if r.get("correlation") is None or r["correlation"] < args.min_correlation]
    if bad:
        print(f"onnx_models: below {args.min_correlation} or failed: {', '.join(bad)}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
