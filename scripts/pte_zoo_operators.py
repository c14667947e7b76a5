#!/usr/bin/env python3
"""Lists the operators ExecuTorch's exporter writes for the model zoo's networks.

Runs in the pinned environment of scripts/executorch-venv.sh, with torchvision beside it
for the classifiers (`pip install --no-deps --target DIR torchvision==0.29.2 pillow==12.0.0`
with the environment's pip, then PYTHONPATH=DIR; docs/executorch.md). Never part of the
default test suite.

Every model is exported as the fixtures are (scripts/gen_pte_fixtures.py): torch.export,
to_edge, to_executorch, no delegate, in up to three forms:

  f32       float32
  int8      PT2E int8 (XNNPACKQuantizer, symmetric, per-tensor weights): float operators
            between quantized_decomposed::quantize_per_tensor and dequantize_per_tensor
  int8_pc   the same with per-channel weights (dequantize_per_channel on the weights)

The models: the 18 torchvision classifiers of bench/models.py (random weights, 224x224,
Inception-v3 at 299x299) and its sequence models (nn.TransformerEncoderLayer d_model 64,
4 heads, feed-forward 128, sequence 16; a two-layer nn.LSTM and an nn.GRU, 32 inputs,
64 hidden, 16 steps). Prints one line per model and form (model | form | bytes |
operators) and, with --out, writes them to a file, followed by the union of the operators
with the models using each.

With --write DIR, every program also goes to DIR/MODEL_FORM.pte with its input
(DIR/MODEL_FORM.input.bin, the raw float32 bytes) and the outputs of ExecuTorch's portable
runtime for it (DIR/MODEL_FORM.expected.bin), for whole-model runs on socsim
(docs/executorch.md, "Whole models").

Usage:
  pte_zoo_operators.py [--models a,b] [--forms f32,int8,int8_pc] [--out FILE] [--write DIR]
"""

import argparse
import sys
import time

CLASSIFIERS = ("resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2", "mobilenet_v2",
               "mobilenet_v3_small", "mobilenet_v3_large", "mnasnet1_0",
               "shufflenet_v2_x1_0", "squeezenet1_1", "efficientnet_b0", "regnet_y_400mf",
               "densenet121", "googlenet", "inception_v3", "alexnet", "vgg11",
               "convnext_tiny")
SEQUENCE = ("transformer_encoder", "lstm", "gru")
FORMS = ("f32", "int8", "int8_pc")


def encoder_module(d_model=64, heads=4, feedforward=128):
    """nn.TransformerEncoderLayer (batch first, dropout 0), evaluation mode."""
    import torch
    return torch.nn.TransformerEncoderLayer(d_model, heads, dim_feedforward=feedforward,
                                            dropout=0.0, batch_first=True).eval()


def recurrent_module(kind, inputs=32, hidden=64, layers=1):
    """nn.LSTM or nn.GRU (batch first) returning the output sequence."""
    import torch

    class Sequence(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = getattr(torch.nn, kind)(inputs, hidden, num_layers=layers,
                                               batch_first=True)

        def forward(self, x):
            return self.rnn(x)[0]

    return Sequence().eval()


def mobile_block_module():
    """MobileNetV2's pieces at a small size (1x3x16x16 input): conv + batch norm + ReLU6, an
    inverted residual block (1x1 expand to 16, depthwise 3x3, 1x1 project back to 8, each with
    batch norm, the residual add), global mean, linear 8-10. The batch norms get random
    statistics (fresh ones are the identity)."""
    import torch
    nn = torch.nn

    def bn(c):
        b = nn.BatchNorm2d(c)
        with torch.no_grad():
            b.running_mean.uniform_(-0.5, 0.5)
            b.running_var.uniform_(0.5, 2.0)
            b.weight.uniform_(0.5, 1.5)
            b.bias.uniform_(-0.2, 0.2)
        return b

    class MobileBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1, bias=False), bn(8),
                                      nn.ReLU6())
            self.block = nn.Sequential(
                nn.Conv2d(8, 16, 1, bias=False), bn(16), nn.ReLU6(),
                nn.Conv2d(16, 16, 3, padding=1, groups=16, bias=False), bn(16), nn.ReLU6(),
                nn.Conv2d(16, 8, 1, bias=False), bn(8))
            self.fc = nn.Linear(8, 10)

        def forward(self, x):
            x = self.stem(x)
            x = x + self.block(x)
            return self.fc(x.mean([2, 3]))

    return MobileBlock().eval()


def mobile_v3_block_module():
    """MobileNetV3's pieces at a small size (1x3x16x16 input): conv + batch norm + hardswish,
    depthwise conv + hardswish, squeeze-and-excitation (mean, 1x1 convs, ReLU, hardsigmoid,
    the gate's product), global mean, linear 16-10."""
    import torch
    nn = torch.nn

    class SqueezeExcite(nn.Module):
        def __init__(self, c, squeeze):
            super().__init__()
            self.fc1 = nn.Conv2d(c, squeeze, 1)
            self.fc2 = nn.Conv2d(squeeze, c, 1)

        def forward(self, x):
            s = x.mean([2, 3], keepdim=True)
            return x * nn.functional.hardsigmoid(self.fc2(torch.relu(self.fc1(s))))

    class MobileV3Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.Hardswish())
            self.dw = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.Hardswish())
            self.se = SqueezeExcite(16, 8)
            self.fc = nn.Linear(16, 10)

        def forward(self, x):
            x = self.se(self.dw(self.stem(x)))
            return self.fc(x.mean([2, 3]))

    return MobileV3Block().eval()


def pool_gelu_module():
    """Average pooling and GELU as GoogLeNet/DenseNet and ConvNeXt use them (1x3x16x16):
    conv, avg_pool2d 3x3 stride 2 padding 1 (count_include_pad False), GELU, avg_pool2d 2x2,
    global mean, linear 8-10."""
    import torch
    nn = torch.nn

    class PoolGelu(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.pool1 = nn.AvgPool2d(3, stride=2, padding=1, count_include_pad=False)
            self.pool2 = nn.AvgPool2d(2)
            self.fc = nn.Linear(8, 10)

        def forward(self, x):
            x = self.pool2(nn.functional.gelu(self.pool1(self.conv(x))))
            return self.fc(x.mean([2, 3]))

    return PoolGelu().eval()


def adaptive_pool_module():
    """AlexNet's and VGG's end at a small size (1x3x14x14): conv + ReLU + max pool to 7x7,
    adaptive average pooling to 3x3 (windows of 3 that overlap, as AlexNet's 6x6 to 7x7),
    flatten, linear 72-10."""
    import torch
    nn = torch.nn

    class AdaptivePool(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(3, 8, 3, padding=1)
            self.pool = nn.AdaptiveAvgPool2d((3, 3))
            self.fc = nn.Linear(72, 10)

        def forward(self, x):
            x = nn.functional.max_pool2d(torch.relu(self.conv(x)), 2)
            return self.fc(torch.flatten(self.pool(x), 1))

    return AdaptivePool().eval()


def convnext_block_module():
    """ConvNeXt's pieces as torchvision writes them, at a small size (1x3x16x16): a 4x4
    stride-4 stem and a channels-last layer norm, one block (depthwise 7x7, permute, layer
    norm, linear 8-32, GELU, linear 32-8, permute back, layer scale, residual), global
    average pooling, layer norm, linear 8-10."""
    import torch
    nn = torch.nn

    class LayerNorm2d(nn.LayerNorm):
        def forward(self, x):
            x = x.permute(0, 2, 3, 1)
            x = nn.functional.layer_norm(x, self.normalized_shape, self.weight, self.bias,
                                         self.eps)
            return x.permute(0, 3, 1, 2)

    class Block(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
            self.norm = nn.LayerNorm(dim, eps=1e-6)
            self.fc1 = nn.Linear(dim, 4 * dim)
            self.fc2 = nn.Linear(4 * dim, dim)
            self.layer_scale = nn.Parameter(torch.rand(dim, 1, 1))

        def forward(self, x):
            y = self.dwconv(x).permute(0, 2, 3, 1)
            y = self.fc2(nn.functional.gelu(self.fc1(self.norm(y)))).permute(0, 3, 1, 2)
            return x + self.layer_scale * y

    class ConvNextBlock(nn.Module):
        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 4, stride=4)
            self.stem_norm = LayerNorm2d(8, eps=1e-6)
            self.block = Block(8)
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.norm = LayerNorm2d(8, eps=1e-6)
            self.fc = nn.Linear(8, 10)

        def forward(self, x):
            x = self.block(self.stem_norm(self.stem(x)))
            return self.fc(torch.flatten(self.norm(self.pool(x)), 1))

    return ConvNextBlock().eval()


def pool_stats_module():
    """The outputs the zoo's programs compute but never return (1x3x8x8): max pooling's int64
    indices (3x3, stride 2, padding 1) and their float32 conversion, and layer norm's output
    with its mean and 1/sqrt(var + eps) (over the last axis, no weight or bias), each
    returned."""
    import torch

    class PoolStats(torch.nn.Module):
        def forward(self, x):
            values, indices = torch.nn.functional.max_pool2d(x, 3, stride=2, padding=1,
                                                             return_indices=True)
            normed, mean, rstd = torch.native_layer_norm(x, [x.shape[-1]], None, None, 1e-5)
            return values, indices, indices.to(torch.float32), normed, mean, rstd

    return PoolStats().eval()


def model_of(name):
    """(module, input shape)."""
    import torch
    torch.manual_seed(0)
    if name == "transformer_encoder":
        return encoder_module(), (1, 16, 64)
    if name == "lstm":
        return recurrent_module("LSTM", layers=2), (1, 16, 32)
    if name == "gru":
        return recurrent_module("GRU"), (1, 16, 32)
    import torchvision
    kwargs = ({"aux_logits": False, "init_weights": True}
              if name in ("googlenet", "inception_v3") else {})
    size = 299 if name == "inception_v3" else 224
    module = getattr(torchvision.models, name)(weights=None, **kwargs)
    # Batch norm statistics from data (a few batches in training mode): with fresh ones, the
    # activations of random-weight networks such as MobileNetV2 vanish to noise.
    for m in module.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.momentum = None  # the plain average of the batches
    with torch.no_grad():
        for _ in range(2):
            module.train()(torch.randn(2, 3, size, size))
    return module.eval(), (1, 3, size, size)


def export_program(module, example, form, calibration=()):
    """The ExecuTorch program (to_executorch()) of `module` in `form`."""
    import torch
    from torch.export import export
    from executorch.exir import EdgeCompileConfig, to_edge
    if form == "f32":
        with torch.no_grad():
            ep = export(module, example)
        return to_edge(ep).to_executorch()
    import executorch.kernels.quantized  # noqa: F401  (registers the quantized .out ops)
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    quantizer = XNNPACKQuantizer().set_global(
        get_symmetric_quantization_config(is_per_channel=form == "int8_pc"))
    with torch.no_grad():
        graph = export(module, example).module(check_guards=False)
        graph = prepare_pt2e(graph, quantizer)
        for c in calibration or (example,):
            graph(*c)
        graph = convert_pt2e(graph)
        ep = export(graph, example)
    edge = to_edge(ep, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    return edge.to_executorch()


def operators_of(program):
    """Operator names of the program's execution plans (name.overload), then delegates."""
    names = []
    for plan in program.executorch_program.execution_plan:
        for op in plan.operators:
            names.append(op.name + ("." + op.overload if op.overload else ""))
        for delegate in plan.delegates:
            names.append("delegate:" + delegate.id)
    return names


def write_program(folder, stem, program, example):
    """DIR/STEM.pte, .input.bin and the portable runtime's .expected.bin."""
    import os
    from executorch.extension.pybindings.portable_lib import _load_for_executorch
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, stem + ".pte")
    with open(path, "wb") as f:
        f.write(program.buffer)
    with open(os.path.join(folder, stem + ".input.bin"), "wb") as f:
        for t in example:
            f.write(t.contiguous().numpy().tobytes())
    outputs = _load_for_executorch(path).forward(list(example))
    with open(os.path.join(folder, stem + ".expected.bin"), "wb") as f:
        for o in outputs:
            f.write(o.contiguous().numpy().tobytes())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--models", default=",".join(SEQUENCE + CLASSIFIERS))
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--out", help="also write the table to this file")
    parser.add_argument("--write", metavar="DIR",
                        help="also write the programs, inputs and portable-runtime outputs")
    args = parser.parse_args()
    import torch
    from importlib.metadata import version
    models = [m for m in args.models.split(",") if m]
    forms = [f for f in args.forms.split(",") if f]
    for m in models:
        if m not in CLASSIFIERS + SEQUENCE:
            print(f"pte_zoo_operators: unknown model {m}", file=sys.stderr)
            return 2
    for f in forms:
        if f not in FORMS:
            print(f"pte_zoo_operators: unknown form {f}", file=sys.stderr)
            return 2
    lines = ["# operators of ExecuTorch exports (scripts/pte_zoo_operators.py), exporter "
             + " ".join(f"{p}=={version(p)}" for p in ("torch", "executorch", "torchao")),
             "# model | form | bytes | operators"]
    users = {}
    for name in models:
        module, shape = model_of(name)
        example = (torch.randn(shape, generator=torch.Generator().manual_seed(1)),)
        for form in forms:
            start = time.time()
            try:
                program = export_program(module, example, form)
            except Exception as e:  # an export torch refuses is a row, not the end
                line = f"{name} | {form} | - | export failed: {type(e).__name__}: " + \
                    str(e).splitlines()[0][:200]
            else:
                ops = operators_of(program)
                for op in ops:
                    users.setdefault(op, []).append(f"{name}/{form}")
                line = f"{name} | {form} | {len(program.buffer)} | {','.join(ops)}"
                if args.write:
                    write_program(args.write, f"{name}_{form}", program, example)
            print(line + f"   ({time.time() - start:.0f} s)", flush=True)
            lines.append(line)
            if args.out:  # as it goes: a long run stopped early keeps its rows
                with open(args.out, "w") as f:
                    f.write("\n".join(lines) + "\n")
    lines.append("# operator | programs using it")
    for op in sorted(users):
        lines.append(f"{op} | {len(users[op])} | {' '.join(users[op])}")
    if args.out:
        with open(args.out, "w") as f:
            f.write("\n".join(lines) + "\n")
    print("\n".join(lines[len(models) * len(forms) + 2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
