#!/usr/bin/python3
"""Writes tests/runtime/pte_compiled/: programs that compile_model.py wrote as `.pte`, for the
runtime's `.pte` tests (runtime_pte_test: outputs, truncations, bit flips, huge words).

For each program NAME: NAME.pte (compile_model's `.pte`), NAME.input.bin (its input) and
NAME.expected.bin (the outputs of the `.prog` of the same compilation on the host build of
the runtime, `socsim_host_runner`), so the test checks that the two formats run alike.
The model is built here (onnx.helper, fixed seed), so the files depend on the compiler only;
scripts/test/test_pte_format.py checks that compiling again gives the same `.pte` bytes.

Usage: gen_pte_compiled_fixtures.py --host-runner build/bin/socsim_host_runner [DIR]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from socsim_aot import compiler  # noqa: E402

FIXTURES = {  # name: compile options
    "small_f32": {},
    "small_int8": dict(quantize="int8"),
    # int8 output: the output tensor's quantisation comes from the socsim.quantization record
    "small_int8_out": dict(quantize="int8", output_type="int8"),
}


def small_model(path):
    """Conv 3x3 + Relu, max pool, a second conv + Relu, global average pool, flatten, Gemm
    (1x3x8x8 to 1x5)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32) * 0.3, n)
             for n, s in (("w1", (4, 3, 3, 3)), ("b1", (4,)), ("w2", (6, 4, 3, 3)),
                          ("b2", (6,)), ("wf", (5, 6)), ("bf", (5,)))]
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("Conv", ["p1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"]),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"]),
        helper.make_node("Flatten", ["g"], ["f"]),
        helper.make_node("Gemm", ["f", "wf", "bf"], ["y"], transB=1),
    ]
    graph = helper.make_graph(nodes, "small", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, [1, 3, 8, 8])], [helper.make_tensor_value_info(
            "y", TensorProto.FLOAT, [1, 5])], inits)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


def model_input() -> np.ndarray:
    return np.random.default_rng(1).standard_normal((1, 3, 8, 8)).astype(np.float32)


def compile_fixture(model: str, name: str, out_dir: str, fmt: str) -> str:
    path = os.path.join(out_dir, f"{name}.{fmt}")
    compiler.compile_file(model, path, None, **FIXTURES[name])
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host-runner", required=True)
    parser.add_argument("out_dir", nargs="?", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "runtime",
        "pte_compiled"))
    args = parser.parse_args(argv)
    os.makedirs(args.out_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        model = small_model(os.path.join(tmp, "small.onnx"))
        for name in FIXTURES:
            compile_fixture(model, name, args.out_dir, "pte")
            prog = compile_fixture(model, name, tmp, "prog")
            inp = os.path.join(args.out_dir, f"{name}.input.bin")
            model_input().tofile(inp)
            subprocess.run([args.host_runner, prog, inp,
                            os.path.join(args.out_dir, f"{name}.expected.bin")], check=True)
            print(f"gen_pte_compiled_fixtures: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
