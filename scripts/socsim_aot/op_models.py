"""One-node and one-family ONNX models of the schema's operators, compiled for the end-to-end
tests.

Two kinds of model, each written into the output directory as NAME.onnx (built with
onnx.helper), NAME.input.bin (the inputs, random normal times 3, seed 0, raw in order),
NAME.calibration.npz and three programs: NAME_f32.prog, NAME_int8.prog and
NAME_int8_npu.prog (partitioned for the --npu-config preset):

- every ONNX operator that lowers one to one to an operator of one input and no arguments
  (schema.simple_onnx_operators(): Relu, Tanh, GlobalAveragePool, ...): x [1, 16, 8, 8] ->
  OP -> y. A new operator of this kind is tested on the simulator (tests/runtime/) without
  another line;
- one model per family of operators with attributes or constant inputs (FAMILIES: reduce,
  ...), a few nodes that use the family's operators the ways models do.

The tests run f32 and int8 against the numpy reference, and the NPU program against the CPU
one (identical outputs).

Example:
  python3 -m socsim_aot.op_models -o build/ops --npu-config configs/npu/rk3588-like.yaml
  python3 -m socsim_aot.op_models --list
"""

import argparse
import os
import sys

import numpy as np

from socsim_aot import compiler
from socsim_aot import npu_partition
from socsim_aot import schema

SHAPE = (1, 16, 8, 8)
SIMPLE_OPSET = 14   # HardSwish
FAMILY_OPSET = 17   # LayerNormalization


def _i64(name, values):
    from onnx import numpy_helper
    return numpy_helper.from_array(np.asarray(values, np.int64), name)


def _reduce(h):
    """ReduceMean over channels (kept), ReduceSum over H and W (axes as an input, dropped),
    ReduceMax over W, and ReduceMean over H and W (global average pooling, on the NPU)."""
    nodes = [h.make_node("ReduceMean", ["x"], ["mean_c"], axes=[1], keepdims=1),
             h.make_node("ReduceSum", ["x", "hw"], ["sum_hw"], keepdims=0),
             h.make_node("ReduceMax", ["x"], ["max_w"], axes=[3], keepdims=0),
             h.make_node("ReduceMean", ["x"], ["mean_hw"], axes=[2, 3], keepdims=0)]
    return nodes, [_i64("hw", [2, 3])], {"x": SHAPE}, ["mean_c", "sum_hw", "max_w", "mean_hw"]


# name -> builder(onnx.helper) -> (nodes, initializers, {input: shape}, output names)
FAMILIES = {"reduce": _reduce}


def names():
    """Every model this module builds: the simple operators, then the families."""
    return list(schema.simple_onnx_operators()) + list(FAMILIES)


def make_model(name: str, path: str):
    """The model `name` (a simple ONNX operator or a family), shapes from ONNX shape
    inference; returns its input shapes."""
    import onnx
    from onnx import TensorProto, helper
    if name in FAMILIES:
        nodes, inits, inputs, outputs = FAMILIES[name](helper)
        opset = FAMILY_OPSET
    else:
        nodes = [helper.make_node(name, ["x"], ["y"], name=name.lower())]
        inits, inputs, outputs, opset = [], {"x": SHAPE}, ["y"], SIMPLE_OPSET
    graph = helper.make_graph(
        nodes, name.lower(),
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, list(s)) for n, s in inputs.items()],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, None) for n in outputs], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    for i, out in enumerate(inferred.graph.output):
        model.graph.output[i].CopyFrom(out)
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return list(inputs.values())


def build(name: str, out_dir: str, npu_config: str):
    """Writes the model, its input and its three programs; returns the files written."""
    base = os.path.join(out_dir, name)
    shapes = make_model(name, base + ".onnx")
    rng = np.random.default_rng(0)
    with open(base + ".input.bin", "wb") as f:
        for shape in shapes:
            f.write((rng.standard_normal(shape) * 3).astype(np.float32).tobytes())
    np.savez(base + ".calibration.npz",
             **{f"x{i:02d}": (rng.standard_normal((8,) + tuple(s)) * 3).astype(np.float32)
                for i, s in enumerate(shapes)})
    compiler.compile_file(base + ".onnx", base + "_f32.prog")
    compiler.compile_file(base + ".onnx", base + "_int8.prog", quantize="int8",
                          calibration=base + ".calibration.npz")
    npu = compiler.compile_file(base + ".onnx", base + "_int8_npu.prog", quantize="int8",
                                calibration=base + ".calibration.npz", delegate="npu",
                                npu_config=npu_config)
    on_npu = any(d.backend == "npu" for d in npu.delegates)
    if name not in FAMILIES:
        target = schema.onnx_operators()[name]
        quantized = schema.get(target.quantized) if target.quantized else target
        listed = npu_partition.load_npu_operators(npu_config)
        if quantized.npu is not None and set(quantized.npu.classes) & listed and not on_npu:
            raise compiler.CompileError(f"{name}: the preset lists {quantized.name} but the "
                                        "compiler kept it on the CPU")
    return [base + suffix for suffix in (".onnx", ".input.bin", "_f32.prog", "_int8.prog",
                                         "_int8_npu.prog")], on_npu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Build one-node ONNX models of the operator schema's simple operators and "
                    "one model per operator family, and compile each to float32, int8 and "
                    "int8-on-the-NPU programs.")
    parser.add_argument("-o", "--out-dir", help="directory for the files")
    parser.add_argument("--npu-config",
                        help="NPU preset the *_int8_npu programs are partitioned for")
    parser.add_argument("--list", action="store_true",
                        help="print the model names (a CMake list) and exit")
    parser.add_argument("models", nargs="*", help="models to build (default: all, --list)")
    args = parser.parse_args(argv)
    if args.list:
        print(";".join(names()))
        return 0
    if not args.out_dir or not args.npu_config:
        parser.error("give -o/--out-dir and --npu-config (or --list)")
    os.makedirs(args.out_dir, exist_ok=True)
    try:
        for name in args.models or names():
            files, on_npu = build(name, args.out_dir, args.npu_config)
            print(f"op_models: {name}: {', '.join(os.path.basename(f) for f in files)}"
                  f"{' (NPU delegate)' if on_npu else ''}")
    except (compiler.CompileError, KeyError) as e:
        print(f"op_models: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
