"""The model zoo: exports small models with torch and compiles them into program files.

Models (all with fixed seeds, random weights, nothing downloaded):
  add           float32 x + y on two vectors of N elements
  add8          int8 x + y on two vectors of N elements, wrapping modulo 256; the exported
                graph is rewritten into one int8 Add (torch 1.13 exports Cast-to-int64, Add,
                Cast back, which has the same result modulo 256)
  convnet       conv+relu+maxpool, conv+relu, global average pool, linear (1x3x16x16 input)
  mobilenet_v2  torchvision MobileNetV2 (random weights) at a small input size
  resnet18      torchvision ResNet-18 (random weights) at a small input size
  resnet50      torchvision ResNet-50 (random weights), for the speed benchmark at 224x224

For every model NAME the output directory gets NAME.onnx, the program files (NAME.pte for
plain models; NAME_f32.pte, NAME_int8.pte and NAME_int8_npu.pte, int8 with the NPU
delegate for the --npu-config preset, for the float models, and NAME_uint8.pte and
NAME_uint8_npu.pte reading a uint8 image with ImageNet normalisation, int8 outputs;
NAME_cpu_packed.pte for add8 with the delegate), NAME.input.bin (a sample input, raw
little-endian, inputs concatenated; NAME.input_u8.bin a uint8 image) and NAME.torch.bin
(torch's float output for it).
"""

import argparse
import os
import sys

import numpy as np

from socsim_aot import compiler
from socsim_aot.torch_models import make_convnet

FLOAT_MODELS = ("convnet", "mobilenet_v2", "resnet18", "resnet50")
ALL_MODELS = ("add", "add8") + FLOAT_MODELS
DEFAULT_MODELS = tuple(m for m in ALL_MODELS if m != "resnet50")  # resnet50: on request
DEFAULT_NPU_CONFIG = compiler.DEFAULT_NPU_CONFIG
# The NAME_uint8*.pte programs read uint8 images normalised with torchvision's ImageNet
# mean and standard deviation (x 255) and leave their outputs int8.
IMAGE_IO = dict(input_type="uint8", mean=(123.675, 116.28, 103.53), std=(58.395, 57.12, 57.375),
                output_type="int8")


def _torch():
    import torch  # imported lazily: --help must work without it
    return torch


def make_float_model(name, image_size):
    torch = _torch()
    torch.manual_seed(0)
    if name == "convnet":
        return make_convnet(), (1, 3, 16, 16)
    import torchvision
    if name == "mobilenet_v2":
        return torchvision.models.mobilenet_v2(weights=None), (1, 3, image_size, image_size)
    if name == "resnet18":
        return torchvision.models.resnet18(weights=None), (1, 3, image_size, image_size)
    if name == "resnet50":
        return torchvision.models.resnet50(weights=None), (1, 3, image_size, image_size)
    raise ValueError(name)


def _export(module, example_inputs, path, input_names):
    torch = _torch()
    module.eval()
    with torch.no_grad():
        torch.onnx.export(module, example_inputs, path, opset_version=13,
                          input_names=input_names, output_names=["output"],
                          do_constant_folding=True)


def fold_int8_casts(path):
    """Rewrites Cast(int8->int64) -> Add/Sub/Mul -> Cast(->int8) into one int8 operator.

    Wider integer arithmetic truncated back to int8 equals int8 arithmetic modulo 256, so
    the rewritten graph computes the same values.
    """
    import onnx
    model = onnx.load(path)
    g = model.graph
    int8 = onnx.TensorProto.INT8
    casts = {n.output[0]: n for n in g.node if n.op_type == "Cast"}
    dtypes = {vi.name: vi.type.tensor_type.elem_type for vi in g.input}
    keep, rename = [], {}
    for n in g.node:
        if n.op_type in ("Add", "Sub", "Mul") and all(
                i in casts and dtypes.get(casts[i].input[0]) == int8 for i in n.input):
            users = [u for u in g.node if n.output[0] in u.input]
            if len(users) == 1 and users[0].op_type == "Cast" and \
                    users[0].attribute[0].i == int8:
                new = onnx.helper.make_node(n.op_type, [casts[i].input[0] for i in n.input],
                                            [users[0].output[0]], name=n.name)
                keep.append(new)
                rename[users[0].name] = True
                continue
        keep.append(n)
    keep = [n for n in keep if not (n.op_type == "Cast" and (n.name in rename or all(
        n.output[0] not in k.input for k in keep)))]
    del g.node[:]
    g.node.extend(keep)
    del g.value_info[:]
    onnx.checker.check_model(model)
    onnx.save(model, path)


def build_model(name, out_dir, size=1024, image_size=32, samples=8,
                npu_config=DEFAULT_NPU_CONFIG):
    """Exports and compiles one model; returns the list of files written."""
    torch = _torch()
    written = []
    base = os.path.join(out_dir, name if name in FLOAT_MODELS else f"{name}_{size}")
    onnx_path = base + ".onnx"
    if name in ("add", "add8"):
        dtype = torch.float32 if name == "add" else torch.int8

        class Add(torch.nn.Module):
            def forward(self, x, y):
                return x + y

        x = torch.zeros(size, dtype=dtype)
        _export(Add(), (x, x), onnx_path, ["x", "y"])
        if name == "add8":
            fold_int8_casts(onnx_path)
        written.append(onnx_path)
        np_dtype = np.float32 if name == "add" else np.int8
        sample = (np.arange(size) % 128).astype(np_dtype)
        with open(base + ".input.bin", "wb") as f:
            f.write(sample.tobytes() * 2)
        with torch.no_grad():
            t = torch.from_numpy(sample)
            out = (t + t).numpy()
        out.tofile(base + ".torch.bin")
        written += [base + ".input.bin", base + ".torch.bin"]
        compiler.compile_file(onnx_path, base + ".pte")
        written.append(base + ".pte")
        if name == "add8":
            compiler.compile_file(onnx_path, base + "_cpu_packed.pte", delegate="cpu-packed")
            written.append(base + "_cpu_packed.pte")
        return written

    module, shape = make_float_model(name, image_size)
    module.eval()
    _export(module, torch.zeros(shape), onnx_path, ["input"])
    written.append(onnx_path)
    rng = np.random.default_rng(1)
    calib = rng.standard_normal((samples,) + shape).astype(np.float32)
    np.savez(base + ".calibration.npz", input=calib)
    sample = rng.standard_normal(shape).astype(np.float32)
    sample.tofile(base + ".input.bin")
    with torch.no_grad():
        module(torch.from_numpy(sample)).numpy().astype(np.float32).tofile(base + ".torch.bin")
    written += [base + ".calibration.npz", base + ".input.bin", base + ".torch.bin"]
    compiler.compile_file(onnx_path, base + "_f32.pte")
    compiler.compile_file(onnx_path, base + "_int8.pte", quantize="int8",
                          calibration=base + ".calibration.npz")
    compiler.compile_file(onnx_path, base + "_int8_npu.pte", quantize="int8",
                          calibration=base + ".calibration.npz", delegate="npu",
                          npu_config=npu_config)
    written += [base + "_f32.pte", base + "_int8.pte", base + "_int8_npu.pte"]
    # Integer I/O as deployed: a uint8 image normalised by the first layer, int8 outputs.
    (rng.integers(0, 256, shape)).astype(np.uint8).tofile(base + ".input_u8.bin")
    for suffix, delegate in (("_uint8", None), ("_uint8_npu", "npu")):
        compiler.compile_file(onnx_path, base + suffix + ".pte", quantize="int8",
                              calibration=base + ".calibration.npz", delegate=delegate,
                              npu_config=npu_config, **IMAGE_IO)
        written.append(base + suffix + ".pte")
    written.append(base + ".input_u8.bin")
    return written


def parse_sizes(text):
    """'1-40,1024' -> [1, ..., 40, 1024]."""
    sizes = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            sizes += list(range(int(lo), int(hi) + 1))
        else:
            sizes.append(int(part))
    return sizes


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Export the socsim model zoo with torch (random weights, fixed seeds, no "
                    "downloads) and compile every model into program files.",
        epilog="Models: add, add8 (vectors of N elements, one file per size), convnet, "
               "mobilenet_v2, resnet18, resnet50. Example for the add/add8 experiments:\n"
               "  zoo.py --models add,add8 --sizes 1-40,1024 -o build/zoo",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-o", "--out-dir", required=True, help="directory for the files")
    parser.add_argument("--models", default=",".join(DEFAULT_MODELS),
                        help="comma-separated models (default: all but resnet50)")
    parser.add_argument("--sizes", default="1024",
                        help="vector sizes for add/add8, e.g. '1-40,1024' (default 1024)")
    parser.add_argument("--image-size", type=int, default=32,
                        help="input height and width for mobilenet_v2 and the resnets "
                             "(default 32)")
    parser.add_argument("--npu-config", default=DEFAULT_NPU_CONFIG,
                        help="NPU preset the *_int8_npu programs are partitioned for "
                             "(default configs/npu/rk3588-like.yaml)")
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    models = [m for m in args.models.split(",") if m]
    unknown = [m for m in models if m not in ALL_MODELS]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(ALL_MODELS)}")
    try:
        for name in models:
            sizes = parse_sizes(args.sizes) if name in ("add", "add8") else [0]
            for size in sizes:
                files = build_model(name, args.out_dir, size=size, image_size=args.image_size,
                                    npu_config=args.npu_config)
                print(f"zoo: {name}{'' if not size else f' ({size})'}: "
                      f"{', '.join(os.path.basename(f) for f in files)}")
    except compiler.CompileError as e:
        print(f"zoo: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
