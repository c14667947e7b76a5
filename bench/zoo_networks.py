#!/usr/bin/python3
"""Whole networks on the rk3588-like SoC against the RKNN model zoo's single-core figures.

For each network: its architecture in torch 1.13 with random weights (torch.manual_seed(0),
nothing downloaded), exported to ONNX (opset 13), compiled int8 for the NPU
(configs/npu/rk3588-like.yaml) with a uint8 image input and int8 outputs (the zoo's
setting), run once with `socsim run -c configs/soc/rk3588-like.yaml --report DIR`; the
socsim figure is the report's per-frame time (npu_layers.json: the layers' elapsed cycles at
the NPU clock, plus the CPU operators of the frame when there are any).

Silicon: airockchip/rknn_model_zoo README, "Model performance benchmark (FPS)", column
"RK3588 @single_core" (NPU at its maximum frequency; inference only, no pre- or
post-processing): mobilenetv2-12 450.7 FPS, resnet50-v2-7 110.1, yolov5s_relu 66.1,
yolov5s 48.4, yolov5n 82.5, yolov8n 73.5 (ms = 1000 / FPS). The zoo's ResNet-50 is
resnet50-v2-7 (rknn_model_zoo examples/resnet), ResNet v2: `resnet50_v2` here; `resnet50`
(torchvision's ResNet-50, v1.5, post-activation) is the network socsim was first compared
with and is kept beside it against the same figure.

The detectors are written here after the published architectures (ultralytics' YOLOv5 v6
and YOLOv8 model files: depth and width multiples, C3 / C2f blocks, SPPF, the PAN neck with
nearest upsampling and concatenation); the heads end where Rockchip's exports for RKNN end
(airockchip/yolov5, airockchip/ultralytics_yolov8: the raw per-scale convolutions, for
YOLOv8 a DFL box branch of 64 channels and a class branch of 80 with its sigmoid, without
the box decoding). They are reported, not fitted.

  bench/zoo_networks.py --networks mobilenet_v2,resnet50_v2 [--layers] [--set KEY=VALUE ...]

--check (runtime.zoo_detectors_npu at --size 96, runtime.zoo_resnet50_v2_npu at 64) fails
unless every layer runs on the NPU and the outputs equal the numpy reference executor's bit
for bit; --size changes the input (the silicon column then no longer applies).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import numpy as np  # noqa: E402

from socsim_aot import compiler, zoo  # noqa: E402
from socsim_aot import pte_format  # noqa: E402

# name -> (silicon ms on one RK3588 core, input size)
SILICON_FPS = {"mobilenet_v2": (450.7, 224), "resnet50_v2": (110.1, 224),
               "resnet50": (110.1, 224),
               "yolov5s_relu": (66.1, 640), "yolov5s": (48.4, 640), "yolov5n": (82.5, 640),
               "yolov8n": (73.5, 640)}


def _yolo_modules(torch):
    nn = torch.nn

    class Conv(nn.Module):
        def __init__(self, c1, c2, k=1, s=1, act="silu"):
            super().__init__()
            self.conv = nn.Conv2d(c1, c2, k, s, k // 2, bias=False)
            self.bn = nn.BatchNorm2d(c2)
            self.act = nn.ReLU() if act == "relu" else nn.SiLU()

        def forward(self, x):
            return self.act(self.bn(self.conv(x)))

    class Bottleneck(nn.Module):
        def __init__(self, c1, c2, shortcut, act, k=(1, 3), e=1.0):
            super().__init__()
            c_ = int(c2 * e)
            self.cv1 = Conv(c1, c_, k[0], 1, act)
            self.cv2 = Conv(c_, c2, k[1], 1, act)
            self.add = shortcut and c1 == c2

        def forward(self, x):
            y = self.cv2(self.cv1(x))
            return x + y if self.add else y

    class C3(nn.Module):
        def __init__(self, c1, c2, n, shortcut, act):
            super().__init__()
            c_ = c2 // 2
            self.cv1 = Conv(c1, c_, 1, 1, act)
            self.cv2 = Conv(c1, c_, 1, 1, act)
            self.cv3 = Conv(2 * c_, c2, 1, 1, act)
            self.m = nn.Sequential(*(Bottleneck(c_, c_, shortcut, act) for _ in range(n)))

        def forward(self, x):
            return self.cv3(torch.cat((self.m(self.cv1(x)), self.cv2(x)), 1))

    class C2f(nn.Module):
        def __init__(self, c1, c2, n, shortcut, act):
            super().__init__()
            self.c = c2 // 2
            self.cv1 = Conv(c1, 2 * self.c, 1, 1, act)
            self.cv2 = Conv((2 + n) * self.c, c2, 1, 1, act)
            self.m = nn.ModuleList(Bottleneck(self.c, self.c, shortcut, act, (3, 3))
                                   for _ in range(n))

        def forward(self, x):
            y = self.cv1(x)
            ys = [y[:, :self.c], y[:, self.c:]]
            for m in self.m:
                ys.append(m(ys[-1]))
            return self.cv2(torch.cat(ys, 1))

    class SPPF(nn.Module):
        def __init__(self, c1, c2, act):
            super().__init__()
            c_ = c1 // 2
            self.cv1 = Conv(c1, c_, 1, 1, act)
            self.cv2 = Conv(c_ * 4, c2, 1, 1, act)
            self.m = nn.MaxPool2d(5, 1, 2)

        def forward(self, x):
            x = self.cv1(x)
            y1 = self.m(x)
            y2 = self.m(y1)
            return self.cv2(torch.cat((x, y1, y2, self.m(y2)), 1))

    class YoloV5(nn.Module):
        """YOLOv5 v6 (yolov5s: depth 0.33, width 0.50; yolov5n: 0.33, 0.25), 80 classes."""

        def __init__(self, depth, width, act):
            super().__init__()
            def w(c):
                return max(8, int(round(c * width / 8)) * 8) if c > 8 else c
            def d(n):
                return max(1, round(n * depth))
            self.b0 = Conv(3, w(64), 6, 2, act)
            self.b0.conv.padding = (2, 2)
            self.b1 = Conv(w(64), w(128), 3, 2, act)
            self.b2 = C3(w(128), w(128), d(3), True, act)
            self.b3 = Conv(w(128), w(256), 3, 2, act)
            self.b4 = C3(w(256), w(256), d(6), True, act)
            self.b5 = Conv(w(256), w(512), 3, 2, act)
            self.b6 = C3(w(512), w(512), d(9), True, act)
            self.b7 = Conv(w(512), w(1024), 3, 2, act)
            self.b8 = C3(w(1024), w(1024), d(3), True, act)
            self.b9 = SPPF(w(1024), w(1024), act)
            self.h10 = Conv(w(1024), w(512), 1, 1, act)
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.h13 = C3(w(1024), w(512), d(3), False, act)
            self.h14 = Conv(w(512), w(256), 1, 1, act)
            self.h17 = C3(w(512), w(256), d(3), False, act)
            self.h18 = Conv(w(256), w(256), 3, 2, act)
            self.h20 = C3(w(512), w(512), d(3), False, act)
            self.h21 = Conv(w(512), w(512), 3, 2, act)
            self.h23 = C3(w(1024), w(1024), d(3), False, act)
            self.detect = nn.ModuleList(nn.Conv2d(c, 255, 1) for c in (w(256), w(512), w(1024)))

        def forward(self, x):
            x = self.b2(self.b1(self.b0(x)))
            p3 = self.b4(self.b3(x))
            p4 = self.b6(self.b5(p3))
            x = self.b9(self.b8(self.b7(p4)))
            h10 = self.h10(x)
            x = self.h13(torch.cat((self.up(h10), p4), 1))
            h14 = self.h14(x)
            o3 = self.h17(torch.cat((self.up(h14), p3), 1))
            o4 = self.h20(torch.cat((self.h18(o3), h14), 1))
            o5 = self.h23(torch.cat((self.h21(o4), h10), 1))
            return tuple(m(o) for m, o in zip(self.detect, (o3, o4, o5)))

    class YoloV8(nn.Module):
        """YOLOv8n (depth 0.33, width 0.25, max channels 1024), 80 classes; the head as
        Rockchip's export ends it: per scale the box branch (64 = 4 x 16 DFL bins) and the
        class branch with its sigmoid."""

        def __init__(self, depth=0.33, width=0.25):
            super().__init__()
            def w(c):
                return int(round(c * width / 8)) * 8
            def d(n):
                return max(1, round(n * depth))
            self.b0 = Conv(3, w(64), 3, 2)
            self.b1 = Conv(w(64), w(128), 3, 2)
            self.b2 = C2f(w(128), w(128), d(3), True, "silu")
            self.b3 = Conv(w(128), w(256), 3, 2)
            self.b4 = C2f(w(256), w(256), d(6), True, "silu")
            self.b5 = Conv(w(256), w(512), 3, 2)
            self.b6 = C2f(w(512), w(512), d(6), True, "silu")
            self.b7 = Conv(w(512), w(1024), 3, 2)
            self.b8 = C2f(w(1024), w(1024), d(3), True, "silu")
            self.b9 = SPPF(w(1024), w(1024), "silu")
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.h12 = C2f(w(1024) + w(512), w(512), d(3), False, "silu")
            self.h15 = C2f(w(512) + w(256), w(256), d(3), False, "silu")
            self.h16 = Conv(w(256), w(256), 3, 2)
            self.h18 = C2f(w(256) + w(512), w(512), d(3), False, "silu")
            self.h19 = Conv(w(512), w(512), 3, 2)
            self.h21 = C2f(w(512) + w(1024), w(1024), d(3), False, "silu")
            chs = (w(256), w(512), w(1024))
            c2, c3 = max(16, chs[0] // 4, 64), max(chs[0], 80)
            self.box = nn.ModuleList(nn.Sequential(Conv(c, c2, 3), Conv(c2, c2, 3),
                                                   nn.Conv2d(c2, 64, 1)) for c in chs)
            self.cls = nn.ModuleList(nn.Sequential(Conv(c, c3, 3), Conv(c3, c3, 3),
                                                   nn.Conv2d(c3, 80, 1)) for c in chs)

        def forward(self, x):
            x = self.b2(self.b1(self.b0(x)))
            p3 = self.b4(self.b3(x))
            p4 = self.b6(self.b5(p3))
            p5 = self.b9(self.b8(self.b7(p4)))
            h12 = self.h12(torch.cat((self.up(p5), p4), 1))
            o3 = self.h15(torch.cat((self.up(h12), p3), 1))
            o4 = self.h18(torch.cat((self.h16(o3), h12), 1))
            o5 = self.h21(torch.cat((self.h19(o4), p5), 1))
            out = []
            for i, o in enumerate((o3, o4, o5)):
                out += [self.box[i](o), torch.sigmoid(self.cls[i](o))]
            return tuple(out)

    return YoloV5, YoloV8


def _resnet_v2(torch, layers=(3, 4, 6, 3), channels=(64, 256, 512, 1024, 2048)):
    """ResNet v2 (He et al., "Identity mappings in deep residual networks", pre-activation):
    the architecture of the ONNX model zoo's resnet50-v2-7, the network of the RKNN zoo's
    ResNet-50 figure (onnx/models vision/classification/resnet: ResNet50-v2 from MXNet Gluon's
    model zoo, resnet50_v2). Gluon's ResNetV2 and BottleneckV2: a BatchNorm without scale and
    shift on the image, conv 7x7/2, BN, ReLU, max-pool 3x3/2; per block BN and ReLU on the
    block's input (the projection shortcut of a stage's first block takes that activation),
    1x1, BN, ReLU, 3x3 (the stage's stride), BN, ReLU, 1x1, then the sum with the shortcut,
    which keeps the raw input; after the last stage BN, ReLU, global average pooling and
    the classifier. The BN and ReLU on each block's input follow an addition, not a
    convolution, so they cannot fold into one; RKNN's graph of this model keeps such a BN as
    a layer of its own (rockchip-linux/rknn-toolkit2, examples/functions/accuracy_analysis:
    `[BatchNormalization] resnetv24_batchnorm0_fwd`). socsim's compiler makes each of them
    the per-channel 1x1 depthwise convolution it computes at inference, its ReLU fused, one
    NPU layer (docs/compiler.md, `fold_batch_norm`)."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, cin, cout, stride, downsample):
            super().__init__()
            mid = cout // 4
            self.bn1 = nn.BatchNorm2d(cin)
            self.conv1 = nn.Conv2d(cin, mid, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(mid)
            self.conv2 = nn.Conv2d(mid, mid, 3, stride, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(mid)
            self.conv3 = nn.Conv2d(mid, cout, 1, bias=False)
            self.downsample = nn.Conv2d(cin, cout, 1, stride, bias=False) if downsample \
                else None

        def forward(self, x):
            residual = x
            x = torch.relu(self.bn1(x))
            if self.downsample is not None:
                residual = self.downsample(x)
            x = torch.relu(self.bn2(self.conv1(x)))
            x = torch.relu(self.bn3(self.conv2(x)))
            return self.conv3(x) + residual

    class ResNetV2(nn.Module):
        def __init__(self):
            super().__init__()
            f = [nn.BatchNorm2d(3, affine=False), nn.Conv2d(3, channels[0], 7, 2, 3, bias=False),
                 nn.BatchNorm2d(channels[0]), nn.ReLU(), nn.MaxPool2d(3, 2, 1)]
            cin = channels[0]
            for i, n in enumerate(layers):
                for j in range(n):
                    f.append(Block(cin, channels[i + 1], 1 if (i == 0 or j > 0) else 2,
                                   j == 0))
                    cin = channels[i + 1]
            f += [nn.BatchNorm2d(cin), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()]
            self.features = nn.Sequential(*f)
            self.output = nn.Linear(cin, 1000)

        def forward(self, x):
            return self.output(self.features(x))

    return ResNetV2()


def module(name: str, size=None):
    import torch
    import torchvision
    torch.manual_seed(0)
    if name in ("mobilenet_v2", "resnet50"):
        return getattr(torchvision.models, name)(weights=None).eval()
    if name == "resnet50_v2":
        m = _resnet_v2(torch)
    else:
        YoloV5, YoloV8 = _yolo_modules(torch)
        m = {"yolov5s_relu": lambda: YoloV5(0.33, 0.50, "relu"),
             "yolov5s": lambda: YoloV5(0.33, 0.50, "silu"),
             "yolov5n": lambda: YoloV5(0.33, 0.25, "silu"),
             "yolov8n": lambda: YoloV8()}[name]()
    # BatchNorm statistics from a few random batches, so that activations do not vanish.
    m.train()
    with torch.no_grad():
        for _ in range(2):
            m(torch.rand(1, 3, size or SILICON_FPS[name][1], size or SILICON_FPS[name][1]))
    m.eval()
    return m


def build(name: str, work: str, npu_config: str, size=None, reuse=False) -> tuple:
    """(program path, input path) of the network, compiled int8 with a uint8 image input, at
    `size` x `size` (default: the zoo's)."""
    import torch
    size = size or SILICON_FPS[name][1]
    base = name if size == SILICON_FPS[name][1] else f"{name}_{size}"
    onnx_path = os.path.join(work, base + ".onnx")
    prog_path = os.path.join(work, base + ".pte")
    if not (reuse and os.path.exists(prog_path)):
        with torch.no_grad():
            torch.onnx.export(module(name, size), torch.zeros(1, 3, size, size), onnx_path,
                              opset_version=13, input_names=["input"])
        compiler.compile_file(onnx_path, prog_path, quantize="int8", samples=2,
                              delegate="npu", npu_config=npu_config, **zoo.IMAGE_IO)
    input_path = os.path.join(work, base + ".input.bin")
    if not (reuse and os.path.exists(input_path)):
        with open(prog_path, "rb") as f:
            program = pte_format.read(f.read())
        t = program.tensors[program.inputs[0]]
        np.random.default_rng(1).integers(0, 256, t.shape).astype(np.uint8).tofile(input_path)
    return prog_path, input_path


def run(args, prog: str, inp: str, out: str, sets) -> dict:
    cmd = [args.socsim, "run", "-q", "-c", args.soc, "--firmware", args.runner, "--model", prog,
           "--input", inp, "--report", out]
    for s in sets:
        cmd += ["--set", s]
    extra = ["--print-outputs"] if args.check else []
    done = subprocess.run(cmd + ["--", "--inputs-in-place"] + extra, capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise RuntimeError(f"socsim run of {prog}: status {done.returncode}: "
                           f"{(done.stdout + done.stderr).strip()[-300:]}")
    with open(os.path.join(out, "npu_layers.json")) as f:
        report = json.load(f)
    if args.check:
        check(prog, inp, done.stdout, report)
    return report


def check(prog: str, inp: str, stdout: str, report: dict):
    """--check: every layer on the NPU (no CPU operator) and the outputs bit-exact with the
    numpy reference executor."""
    from socsim_aot import sim_check
    if report["cpu_operators"]:
        raise RuntimeError(f"{prog}: CPU operators "
                           f"{[op['op_type'] for op in report['cpu_operators']]}")
    with open(prog, "rb") as f:
        program = pte_format.read(f.read())
    want = sim_check.reference_outputs(program, inp)
    printed = [v for _, v in sim_check.RES_LINE.findall(stdout)]
    if len(printed) != want.size:
        raise RuntimeError(f"{prog}: {len(printed)} outputs printed, {want.size} expected")
    _, bad = sim_check.differences(program, want, printed)
    if np.any(bad):
        raise RuntimeError(f"{prog}: {int(np.sum(bad))} outputs differ from the reference")


def frame_ms(report: dict) -> float:
    """The report's per-frame time: the last frame's layers at the NPU clock plus the CPU
    operators of that execution."""
    frame = report["layers"][-1]["frame"]
    npu_us = sum(l["elapsed_cycles"] for l in report["layers"] if l["frame"] == frame) / \
        report["clock_mhz"]
    return (npu_us + sum(op["time_us"] for op in report["cpu_operators"])) / 1e3


def main(argv=None) -> int:
    build_dir = os.path.join(ROOT, "build")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--networks", default=",".join(SILICON_FPS))
    p.add_argument("--socsim", default=os.path.join(build_dir, "bin", "socsim"))
    p.add_argument("--runner", default=os.path.join(
        build_dir, "firmware", "apps", "executor_runner", "executor_runner.elf"))
    p.add_argument("--soc", default=os.path.join(ROOT, "configs", "soc", "rk3588-like.yaml"))
    p.add_argument("--npu-config", default=os.path.join(ROOT, "configs", "npu",
                                                        "rk3588-like.yaml"))
    p.add_argument("--set", action="append", default=[], help="socsim --set KEY=VALUE")
    p.add_argument("--work", help="keep models, programs and reports here")
    p.add_argument("--reuse", action="store_true",
                   help="use the programs already in --work instead of compiling again")
    p.add_argument("--layers", action="store_true", help="print each network's layer rows")
    p.add_argument("--size", type=int, help="input height and width (default: the zoo's)")
    p.add_argument("--check", action="store_true",
                   help="fail unless every layer runs on the NPU and the outputs equal the "
                        "numpy reference executor's bit for bit")
    args = p.parse_args(argv)
    work = args.work or tempfile.mkdtemp(prefix="zoo_networks_")
    os.makedirs(work, exist_ok=True)
    rows = []
    for name in args.networks.split(","):
        prog, inp = build(name, work, args.npu_config, args.size, args.reuse)
        report = run(args, prog, inp, os.path.splitext(prog)[0] + ".report", args.set)
        silicon = 1000.0 / SILICON_FPS[name][0]
        ms = frame_ms(report)
        rows.append((name if not args.size else f"{name} at {args.size}", silicon, ms))
        if args.layers:
            frame = report["layers"][-1]["frame"]
            print(f"\n{name}: ID | OpType | OutputShape | DDR | NPU | elapsed | Time(us) | Bound")
            for i, l in enumerate(l for l in report["layers"] if l["frame"] == frame):
                print(f"{i + 1} | {l['op_type']} | {l['output_shape']} | {l['ddr_cycles']} | "
                      f"{l['npu_cycles']} | {l['elapsed_cycles']} | "
                      f"{l['elapsed_cycles'] / report['clock_mhz']:.1f} | {l['bound']}")
    print("\n| network | silicon ms | socsim ms (SoC run) | error |")
    print("|---|---:|---:|---:|")
    for name, silicon, ms in rows:
        if args.size:  # another input size: the zoo's figure does not apply
            print(f"| {name} | - | {ms:.2f} | - |")
        else:
            print(f"| {name} | {silicon:.2f} | {ms:.2f} | "
                  f"{100 * (ms - silicon) / silicon:+.1f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
