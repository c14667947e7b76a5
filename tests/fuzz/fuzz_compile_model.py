"""Fuzz target `compile_model` (atheris, libFuzzer's engine for Python): an ONNX file
compiled by `compile_model.py` (socsim_aot.compiler.main) as a user runs it.

Exit status 0 (a program, which compile_file has read back with the verifying reader) and 1
(the compiler's answer to a model it cannot compile, one line per problem) are accepted
outcomes; anything else (70: an internal error the last-resort guard caught, any exception
escaping main, a signal, an input that takes longer than libFuzzer's -timeout or more
memory than -rss_limit_mb) is a failure. Only the socsim_aot package is instrumented.

Each input is compiled with one of three option sets, chosen by its CRC-32 so that a given
input always takes the same: float32; --quantize int8; --quantize int8 --delegate npu (one
random calibration sample). Files are written under /dev/shm (or $TMPDIR). ONNX shape
inference runs in this process (onnx_graph.ISOLATE_INFERENCE off): its crash is a failure
either way, and a fork per inference cost most of an input's time.

Mutations: an input that parses as an ONNX model is, two times in three, changed as a model
(`mutate_model`: a dimension, an attribute value, an input name, an operator type, an
element type, the opset, a node copied over another), otherwise as bytes by libFuzzer.
Byte mutations mostly break the protobuf encoding and stop at reading; field mutations
keep the file an ONNX model and reach the compiler's later stages.

Run through scripts/fuzz.sh (target compile_model), which passes libFuzzer's arguments.
"""

import os
import random
import sys
import warnings
import zlib

import atheris
import onnx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import compiler_fuzz  # noqa: E402 (beside this file)

with atheris.instrument_imports(include=["socsim_aot"]):
    from socsim_aot import compiler, onnx_graph

# ONNX shape inference in this process, not in a child per inference (most of an input's
# time went to the forks): a crash in it is then libFuzzer's "deadly signal", the input
# saved, where the compiler's isolated inference answers exit status 70: a failure either way.
onnx_graph.ISOLATE_INFERENCE = False

OPTION_SETS = ([], ["--quantize", "int8", "--samples", "1"],
               ["--quantize", "int8", "--samples", "1", "--delegate", "npu"])
MODEL, PROGRAM = compiler_fuzz.scratch_paths("socsim-fuzz-compile-", "input.onnx")


# Values a mutated integer field takes: bounds, signs, the sizes that once failed.
INTS = (0, -1, 1, 2, 3, 7, 16, 255, 1 << 16, 1 << 31, -(1 << 31), 1 << 40, 999)
FLOATS = (0.0, -1.0, float("nan"), float("inf"), 1e30, 1e-30)
OPS = ("Conv", "MaxPool", "AveragePool", "Gemm", "MatMul", "Relu", "Add", "Reshape", "Gather",
       "Concat", "Transpose", "Flatten", "Softmax", "GlobalAveragePool", "Mul", "Sigmoid", "Pad",
       "Slice", "Split", "Squeeze", "Unsqueeze", "Resize", "ReduceMean", "Clip", "Expand",
       "BatchNormalization", "Sub", "Div", "Tile", "Cast")
ELEM_TYPES = (1, 2, 3, 6, 7, 9, 10, 11, 16, 999)


def mutate_model(model, rng):
    """One to three changes to the fields of an onnx.ModelProto, in place."""
    from onnx import AttributeProto
    g = model.graph
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        if kind == 0 and g.node:
            node = rng.choice(g.node)
            if node.attribute:
                a = rng.choice(node.attribute)
                if a.type == AttributeProto.INTS and a.ints:
                    a.ints[rng.randrange(len(a.ints))] = rng.choice(INTS)
                elif a.type == AttributeProto.INT:
                    a.i = rng.choice(INTS)
                elif a.type == AttributeProto.FLOAT:
                    a.f = rng.choice(FLOATS)
        elif kind == 1 and g.initializer:
            t = rng.choice(g.initializer)
            if t.dims:
                t.dims[rng.randrange(len(t.dims))] = rng.choice(INTS)
        elif kind == 2 and (g.input or g.output):
            shape = rng.choice(list(g.input) + list(g.output)).type.tensor_type.shape
            if shape.dim:
                rng.choice(shape.dim).dim_value = rng.choice(INTS)
        elif kind == 3 and g.node:
            node = rng.choice(g.node)
            if node.input:
                names = [o for n in g.node for o in n.output] + [v.name for v in g.input] + \
                    [t.name for t in g.initializer] + [""]
                node.input[rng.randrange(len(node.input))] = rng.choice(names)
        elif kind == 4 and g.node:
            rng.choice(g.node).op_type = rng.choice(OPS)
        elif kind == 5 and g.initializer:
            rng.choice(g.initializer).data_type = rng.choice(ELEM_TYPES)
        elif kind == 6 and model.opset_import:
            model.opset_import[0].version = rng.randint(10, 18)
        elif kind == 7 and len(g.node) > 1:
            copy = onnx.NodeProto()
            copy.CopyFrom(g.node[rng.randrange(len(g.node))])
            g.node[rng.randrange(len(g.node))].CopyFrom(copy)  # a value written twice, a cycle
    return model


def custom_mutator(data, max_size, seed):
    rng = random.Random(seed)
    if rng.randrange(3):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = onnx.ModelProto()
                model.ParseFromString(data)
            if model.HasField("graph"):
                out = mutate_model(model, rng).SerializeToString()
                if len(out) <= max_size:
                    return out
        except Exception:  # noqa: BLE001 - not a model: mutate the bytes
            pass
    return atheris.Mutate(data, max_size)


def test_one_input(data):
    compiler_fuzz.compile_checked(compiler, MODEL, PROGRAM, data,
                                  OPTION_SETS[zlib.crc32(data) % len(OPTION_SETS)])


def main():
    atheris.Setup(sys.argv, test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
