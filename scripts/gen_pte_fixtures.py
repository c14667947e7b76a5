#!/usr/bin/env python3
"""Exports the ExecuTorch (.pte) test programs and their reference outputs.

Runs in the pinned environment of scripts/executorch-venv.sh (torch 2, executorch, torchao),
never in the default test suite, which uses the checked-in files (tests/runtime/pte/).

For every program NAME the output folder gets NAME.pte (written by ExecuTorch's exporter),
NAME.input.bin (every input's raw little-endian bytes, in order) and NAME.expected.bin (the
outputs of ExecuTorch's portable runtime for that input, raw bytes, in order), plus
manifest.txt: one line per program with its inputs' and outputs' dtypes and shapes and the
operators it calls, and a header with the exporter's versions.

  add           float32 x + y, two vectors of 5 elements (the seed's add model)
  add8          int8 x + y, two vectors of 1024 elements (the seed's add8 model)
  convnet_f32   conv+relu+max pool, conv+relu, global average pool, linear (1x3x16x16)
  convnet_int8  the same network quantised with PT2E (XNNPACKQuantizer, per-tensor
                symmetric int8): float operators between quantize_per_tensor and
                dequantize_per_tensor, int8 weights dequantized at run time
  add_xnnpack   the add model delegated to ExecuTorch's XNNPACK backend (a DelegateCall and
                its processed data in a segment; socsim has no such backend)
  encoder_f32   a small nn.TransformerEncoderLayer (d_model 16, 2 heads, feed-forward 32,
                batch first, sequence 4; the zoo's encoder at a smaller size)
  encoder_int8  the same quantised with PT2E (XNNPACKQuantizer, symmetric, per-channel
                weights: dequantize_per_channel beside the per-tensor operators)
  lstm_f32      a two-layer nn.LSTM (4 inputs, 8 hidden, 3 steps)
  gru_f32       an nn.GRU (4 inputs, 8 hidden, 3 steps)
  mbblock_f32   MobileNetV2's pieces (1x3x16x16): conv + batch norm + ReLU6, an inverted
                residual block (1x1 expand, depthwise 3x3, 1x1 project, each with batch norm,
                and the residual add), global mean, linear; batch norm statistics random
  mbblock_int8  the same quantised with PT2E (per-channel weights; batch norm folded)
  mbv3block_f32 MobileNetV3's pieces (1x3x16x16): conv + hardswish, depthwise conv +
                hardswish, squeeze-and-excitation with a hardsigmoid gate, mean, linear
  poolgelu_f32  conv, average pooling (3x3 stride 2 padding 1 without the padding in the
                count; 2x2), GELU, mean, linear (1x3x16x16)
  adaptivepool_f32, adaptivepool_int8
                AlexNet's and VGG's end (1x3x14x14): conv + ReLU + max pool, adaptive average
                pooling 7x7 to 3x3 (overlapping windows), linear; the int8 one PT2E
                quantised (per-tensor)
  cnblock_f32, cnblock_int8
                ConvNeXt's pieces (1x3x16x16): 4x4 stem, channels-last layer norm, a block
                (depthwise 7x7, layer norm, linear, GELU, linear, layer scale, residual),
                global average pooling, layer norm, linear; the int8 one PT2E quantised
                (per-channel)
  poolstats_f32 max pooling's int64 indices and their float32 conversion, layer norm's mean
                and 1/sqrt(var + eps), returned as outputs (1x3x8x8, an input of small
                integers: windows with ties)

Usage:
  gen_pte_fixtures.py OUT_DIR            write the programs
  gen_pte_fixtures.py --check DIR        regenerate into a temporary folder and compare every
                                         file byte for byte with DIR (exit 1 on a difference)
Exports are deterministic: the same versions write the same bytes.
"""

import argparse
import filecmp
import os
import sys
import tempfile

import numpy as np

PINNED = {"torch": "2.15.0", "executorch": "1.5.1", "torchao": "0.18.0"}
PROGRAMS = ("add", "add8", "convnet_f32", "convnet_int8", "add_xnnpack", "encoder_f32",
            "encoder_int8", "lstm_f32", "gru_f32", "mbblock_f32", "mbblock_int8",
            "mbv3block_f32", "poolgelu_f32", "adaptivepool_f32", "adaptivepool_int8",
            "cnblock_f32", "cnblock_int8", "poolstats_f32")
# The sequence programs: name -> (module builder of scripts/pte_zoo_operators.py, input
# shape, quantisation form of pte_zoo_operators.export_program).
SEQUENCE_PROGRAMS = {
    "encoder_f32": (lambda z: z.encoder_module(16, 2, 32), (1, 4, 16), "f32"),
    "encoder_int8": (lambda z: z.encoder_module(16, 2, 32), (1, 4, 16), "int8_pc"),
    "lstm_f32": (lambda z: z.recurrent_module("LSTM", 4, 8, 2), (1, 3, 4), "f32"),
    "gru_f32": (lambda z: z.recurrent_module("GRU", 4, 8, 1), (1, 3, 4), "f32"),
    "mbblock_f32": (lambda z: z.mobile_block_module(), (1, 3, 16, 16), "f32"),
    "mbblock_int8": (lambda z: z.mobile_block_module(), (1, 3, 16, 16), "int8_pc"),
    "mbv3block_f32": (lambda z: z.mobile_v3_block_module(), (1, 3, 16, 16), "f32"),
    "poolgelu_f32": (lambda z: z.pool_gelu_module(), (1, 3, 16, 16), "f32"),
    "adaptivepool_f32": (lambda z: z.adaptive_pool_module(), (1, 3, 14, 14), "f32"),
    "adaptivepool_int8": (lambda z: z.adaptive_pool_module(), (1, 3, 14, 14), "int8"),
    "cnblock_f32": (lambda z: z.convnext_block_module(), (1, 3, 16, 16), "f32"),
    "cnblock_int8": (lambda z: z.convnext_block_module(), (1, 3, 16, 16), "int8_pc"),
}


def versions():
    from importlib.metadata import version
    return {name: version(name) for name in PINNED}


def make_convnet():
    # The zoo's convnet; socsim_aot.torch_models imports only torch (this environment has
    # its own numpy, which socsim_aot's compiler modules are not built against).
    import torch
    from socsim_aot.torch_models import make_convnet as zoo_convnet
    torch.manual_seed(0)
    return zoo_convnet().eval()


def make_add():
    import torch

    class Add(torch.nn.Module):
        def forward(self, x, y):
            return x + y

    return Add().eval()


def program_of(name):
    """(exported ExecuTorch program, inputs as numpy arrays)."""
    import torch
    from torch.export import export
    from executorch.exir import EdgeCompileConfig, to_edge

    if name in ("add", "add8", "add_xnnpack"):
        size, dtype = (1024, np.int8) if name == "add8" else (5, np.float32)
        x = (np.arange(size) % 128).astype(dtype)
        inputs = [x, x.copy()]
        module = make_add()
        ep = export(module, tuple(torch.from_numpy(a) for a in inputs))
        if name == "add_xnnpack":
            from executorch.backends.xnnpack.partition.xnnpack_partitioner import (
                XnnpackPartitioner)
            from executorch.exir import to_edge_transform_and_lower
            lowered = to_edge_transform_and_lower(ep, partitioner=[XnnpackPartitioner()])
            return lowered.to_executorch(), inputs
        return to_edge(ep).to_executorch(), inputs

    if name in SEQUENCE_PROGRAMS:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import pte_zoo_operators as zoo_ops
        build, shape, form = SEQUENCE_PROGRAMS[name]
        torch.manual_seed(0)
        module = build(zoo_ops)
        rng = np.random.default_rng(2)
        calib = [(torch.from_numpy(rng.standard_normal(shape).astype(np.float32)),)
                 for _ in range(8)]
        sample = rng.standard_normal(shape).astype(np.float32)
        program = zoo_ops.export_program(module, (torch.from_numpy(sample),), form, calib)
        return program, [sample]

    if name == "poolstats_f32":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import pte_zoo_operators as zoo_ops
        rng = np.random.default_rng(3)
        sample = rng.integers(-3, 4, (1, 3, 8, 8)).astype(np.float32)  # ties in the windows
        with torch.no_grad():
            ep = export(zoo_ops.pool_stats_module(), (torch.from_numpy(sample),))
        return to_edge(ep).to_executorch(), [sample]

    rng = np.random.default_rng(1)
    shape = (1, 3, 16, 16)
    calib = [rng.standard_normal(shape).astype(np.float32) for _ in range(8)]
    sample = rng.standard_normal(shape).astype(np.float32)
    module = make_convnet()
    example = (torch.from_numpy(sample),)
    if name == "convnet_f32":
        with torch.no_grad():
            ep = export(module, example)
        return to_edge(ep).to_executorch(), [sample]

    import executorch.kernels.quantized  # noqa: F401  (registers the quantized .out ops)
    from executorch.backends.xnnpack.quantizer.xnnpack_quantizer import (
        XNNPACKQuantizer, get_symmetric_quantization_config)
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    quantizer = XNNPACKQuantizer().set_global(
        get_symmetric_quantization_config(is_per_channel=False))
    with torch.no_grad():
        graph = export(module, example).module(check_guards=False)
        graph = prepare_pt2e(graph, quantizer)
        for c in calib:
            graph(torch.from_numpy(c))
        graph = convert_pt2e(graph)
        ep = export(graph, example)
    edge = to_edge(ep, compile_config=EdgeCompileConfig(_check_ir_validity=False))
    return edge.to_executorch(), [sample]


def operators_of(program):
    """Operator names of the program's execution plan, in the order of its table, then its
    delegates' backend ids as delegate:ID."""
    names = []
    for plan in program.executorch_program.execution_plan:
        for op in plan.operators:
            names.append(op.name + ("." + op.overload if op.overload else ""))
        for delegate in plan.delegates:
            names.append("delegate:" + delegate.id)
    return names


def run_portable(path, inputs):
    import torch
    from executorch.extension.pybindings.portable_lib import _load_for_executorch
    module = _load_for_executorch(path)
    outs = module.forward([torch.from_numpy(a) for a in inputs])
    return [o.numpy() for o in outs]


def describe(arrays):
    return ";".join(f"{a.dtype}:{'x'.join(str(d) for d in a.shape) or 'scalar'}"
                    for a in arrays)


def generate(out_dir):
    import torch
    os.makedirs(out_dir, exist_ok=True)
    have = versions()
    lines = ["# ExecuTorch programs for the runtime's .pte tests (scripts/gen_pte_fixtures.py)",
             "# exporter: " + " ".join(f"{k}=={v}" for k, v in have.items()),
             "# name | bytes | inputs | outputs | operators"]
    torch.manual_seed(0)
    for name in PROGRAMS:
        program, inputs = program_of(name)
        pte = os.path.join(out_dir, name + ".pte")
        with open(pte, "wb") as f:
            f.write(program.buffer)
        with open(os.path.join(out_dir, name + ".input.bin"), "wb") as f:
            for a in inputs:
                f.write(np.ascontiguousarray(a).tobytes())
        outputs = run_portable(pte, inputs)
        with open(os.path.join(out_dir, name + ".expected.bin"), "wb") as f:
            for a in outputs:
                f.write(np.ascontiguousarray(a).tobytes())
        ops = ",".join(operators_of(program))
        lines.append(f"{name} | {len(program.buffer)} | {describe(inputs)} | "
                     f"{describe(outputs)} | {ops}")
        print(f"{name}: {len(program.buffer)} bytes, operators {ops}")
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("dir", help="output folder, or the folder to compare with --check")
    parser.add_argument("--check", action="store_true",
                        help="regenerate and compare byte for byte with DIR")
    args = parser.parse_args()
    have = versions()
    if have != PINNED:
        print(f"gen_pte_fixtures: pinned {PINNED}, found {have} "
              "(make the environment with scripts/executorch-venv.sh)", file=sys.stderr)
        return 2
    if not args.check:
        generate(args.dir)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        generate(tmp)
        names = sorted(os.listdir(tmp))
        differ = [n for n in names if not os.path.exists(os.path.join(args.dir, n))
                  or not filecmp.cmp(os.path.join(tmp, n), os.path.join(args.dir, n),
                                     shallow=False)]
        for n in differ:
            print(f"gen_pte_fixtures: {n} differs from {os.path.join(args.dir, n)}",
                  file=sys.stderr)
        print(f"gen_pte_fixtures: {len(names) - len(differ)} of {len(names)} files identical")
        return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
