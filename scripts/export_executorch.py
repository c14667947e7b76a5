#!/usr/bin/env python3
"""Exports a model to an ExecuTorch program (.pte) for socsim (docs/executorch-npu.md).

  build/executorch-npu-venv/bin/python scripts/export_executorch.py \\
      torchvision:mobilenet_v2 --quantize int8 --delegate npu -o mnv2.pte

Models: torchvision:NAME (any torchvision classifier builder, random weights, seed 0, input
1x3xSxS with --image-size), socsim:convnet (the zoo's small CNN, 1x3x16x16), socsim:add and
socsim:add8 (the seed's float32 and int8 x + y; --size elements). --quantize int8 runs PT2E
with socsim's quantizer, calibrated on --samples random normal inputs (seed --seed);
--delegate npu moves the quantised operators the NPU runs to socsim's NPU backend,
--delegate cpu-packed the int8 adds to the cpu-packed backend. --write-input FILE writes a
sample input (the first calibration sample, raw little-endian) for `socsim run --input`.

Exit status: 0; 1 when the model cannot be exported (one line naming the cause); 2 for bad
options.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def make_model(spec: str, image_size: int, size: int):
    """(module, example inputs as a tuple of tensors) of a model spec."""
    import numpy as np
    import torch
    kind, _, name = spec.partition(":")
    torch.manual_seed(0)
    if kind == "torchvision":
        import torchvision
        builder = getattr(torchvision.models, name, None)
        if builder is None or not callable(builder):
            raise ValueError(f"torchvision has no model '{name}'")
        return builder(weights=None), (torch.randn(1, 3, image_size, image_size),)
    if kind == "socsim" and name == "convnet":
        from socsim_aot.torch_models import make_convnet
        return make_convnet(), (torch.randn(1, 3, 16, 16),)
    if kind == "socsim" and name in ("add", "add8"):
        class Add(torch.nn.Module):
            def forward(self, x, y):
                return x + y
        dtype = np.int8 if name == "add8" else np.float32
        x = torch.from_numpy((np.arange(size) % 128).astype(dtype))
        return Add(), (x, x.clone())
    raise ValueError(f"unknown model '{spec}' (torchvision:NAME, socsim:convnet, socsim:add, "
                     "socsim:add8)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Export a model to an ExecuTorch program for socsim, optionally int8 "
                    "(PT2E, socsim's quantizer) and delegated to socsim's NPU or cpu-packed "
                    "backend. Runs in the environment of scripts/executorch-npu-venv.sh.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n")[1])
    parser.add_argument("model", help="torchvision:NAME, socsim:convnet, socsim:add, socsim:add8")
    parser.add_argument("-o", "--output", required=True, help=".pte file to write")
    parser.add_argument("--quantize", choices=["int8"], help="PT2E int8 quantisation")
    parser.add_argument("--delegate", choices=["npu", "cpu-packed"], help="delegate backend")
    parser.add_argument("--npu-config", help="NPU preset deciding what the NPU takes "
                        "(default configs/npu/rk3588-like.yaml)")
    parser.add_argument("--image-size", type=int, default=224, help="torchvision input size")
    parser.add_argument("--size", type=int, default=1024, help="elements of socsim:add/add8")
    parser.add_argument("--samples", type=int, default=8, help="calibration samples (random "
                        "normal, default 8)")
    parser.add_argument("--seed", type=int, default=0, help="calibration seed")
    parser.add_argument("--write-input", metavar="FILE", help="write a sample input here")
    args = parser.parse_args(argv)
    if args.delegate == "npu" and args.quantize != "int8":
        parser.error("--delegate npu runs int8 operators: add --quantize int8")
    if not 1 <= args.samples <= 10000:
        parser.error("--samples: give 1 to 10000")
    try:
        import torch
        from socsim_executorch.export import ExportError, export_program
        from socsim_executorch.backend import LoweringError
        from socsim_executorch.partition import PartitionError
        model, example = make_model(args.model, args.image_size, args.size)
        gen = torch.Generator().manual_seed(args.seed)
        calibration = [tuple(torch.randn(x.shape, generator=gen) if x.is_floating_point()
                             else x for x in example) for _ in range(args.samples)]
        data = export_program(model, example, args.quantize, args.delegate, calibration,
                              args.npu_config)
    except (ValueError, ExportError, LoweringError, PartitionError) as e:
        print(f"export_executorch: {args.model}: {e}", file=sys.stderr)
        return 1
    with open(args.output, "wb") as f:
        f.write(data)
    if args.write_input:
        with open(args.write_input, "wb") as f:
            for x in (calibration[0] if args.quantize else example):
                f.write(x.numpy().tobytes())
    print(f"export_executorch: wrote {args.output}: {len(data)} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
