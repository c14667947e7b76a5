"""One-node ONNX models of the schema's simple operators, compiled for the end-to-end tests.

For every ONNX operator that lowers one to one to an operator of one input and no arguments
(schema.simple_onnx_operators(): Relu, GlobalAveragePool, ...), writes into the output
directory OP.onnx (x [1, 16, 8, 8] -> OP -> y, built with onnx.helper), OP.input.bin (the
input, random normal times 3, seed 0), and three programs: OP_f32.prog, OP_int8.prog and
OP_int8_npu.prog (partitioned for the --npu-config preset). A new operator of this kind is
tested on the simulator (tests/runtime/) without another line: f32 and int8 against the
numpy reference, and the NPU program against the CPU one.

Example:
  python3 -m socsim_aot.op_models -o build/ops --npu-config configs/npu/rk3588-like.yaml
"""

import argparse
import os
import sys

import numpy as np

from socsim_aot import compiler
from socsim_aot import npu_partition
from socsim_aot import schema

SHAPE = (1, 16, 8, 8)


def make_model(op_type: str, path: str):
    """x -> op_type -> y, output shape from ONNX shape inference."""
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(SHAPE))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph([helper.make_node(op_type, ["x"], ["y"], name=op_type.lower())],
                              op_type.lower(), [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    inferred = onnx.shape_inference.infer_shapes(model)
    model.graph.output[0].CopyFrom(inferred.graph.output[0])
    onnx.checker.check_model(model)
    onnx.save(model, path)


def build(op_type: str, out_dir: str, npu_config: str):
    """Writes the model, its input and its three programs; returns the files written."""
    base = os.path.join(out_dir, op_type)
    make_model(op_type, base + ".onnx")
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(SHAPE) * 3).astype(np.float32)
    x.tofile(base + ".input.bin")
    np.savez(base + ".calibration.npz",
             x=(rng.standard_normal((8,) + SHAPE) * 3).astype(np.float32))
    compiler.compile_file(base + ".onnx", base + "_f32.prog")
    compiler.compile_file(base + ".onnx", base + "_int8.prog", quantize="int8",
                          calibration=base + ".calibration.npz")
    npu = compiler.compile_file(base + ".onnx", base + "_int8_npu.prog", quantize="int8",
                                calibration=base + ".calibration.npz", delegate="npu",
                                npu_config=npu_config)
    target = schema.onnx_operators()[op_type]
    quantized = schema.get(target.quantized) if target.quantized else target
    on_npu = any(d.backend == "npu" for d in npu.delegates)
    listed = npu_partition.load_npu_operators(npu_config)
    if quantized.npu is not None and set(quantized.npu.classes) & listed and not on_npu:
        raise compiler.CompileError(f"{op_type}: the preset lists {quantized.name} but the "
                                    "compiler kept it on the CPU")
    return [base + suffix for suffix in (".onnx", ".input.bin", "_f32.prog", "_int8.prog",
                                         "_int8_npu.prog")], on_npu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Build one-node ONNX models of the operator schema's simple operators and "
                    "compile each to float32, int8 and int8-on-the-NPU programs.")
    parser.add_argument("-o", "--out-dir", required=True, help="directory for the files")
    parser.add_argument("--npu-config", required=True,
                        help="NPU preset the *_int8_npu programs are partitioned for")
    parser.add_argument("operators", nargs="*",
                        help="ONNX operators (default: schema.simple_onnx_operators())")
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    ops = args.operators or schema.simple_onnx_operators()
    try:
        for op_type in ops:
            files, on_npu = build(op_type, args.out_dir, args.npu_config)
            print(f"op_models: {op_type}: {', '.join(os.path.basename(f) for f in files)}"
                  f"{' (NPU delegate)' if on_npu else ''}")
    except (compiler.CompileError, KeyError) as e:
        print(f"op_models: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
