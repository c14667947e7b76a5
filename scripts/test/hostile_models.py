"""Hostile ONNX files for the model compiler: each is one class of bad input that once gave a
traceback, a native crash, a silent acceptance or a runaway allocation, with the options it
is compiled with and what the compiler must answer (test_hostile_models.py runs them; the
fuzz target tests/fuzz/fuzz_compile_model.py starts from them).

`CASES` lists `Case`s: `build()` returns the file's bytes; `expect` is a regular expression
the one-line error must match; `status` the exit status (1: a model that cannot be compiled,
2: a usage error).
"""

import dataclasses
from typing import Callable, List, Tuple

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name)


def model(nodes, inputs, outputs, inits=(), opset=13) -> bytes:
    graph = helper.make_graph(nodes, "hostile", inputs, outputs, list(inits))
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return m.SerializeToString()


def conv_model(x_shape=(1, 3, 8, 8), w_shape=(4, 3, 3, 3), w=None, **attrs) -> bytes:
    """x -> Conv(w, b) -> y (y's shape left to inference)."""
    rng = np.random.default_rng(0)
    w = rng.standard_normal(w_shape).astype(np.float32) if w is None else w
    b = np.zeros(w.shape[0], np.float32)
    node = helper.make_node("Conv", ["x", "w", "b"], ["y"], name="conv", **attrs)
    return model([node], [vi("x", list(x_shape))], [vi("y", None)],
                 [init("w", w), init("b", b)])


def maxpool_model(**attrs) -> bytes:
    node = helper.make_node("MaxPool", ["x"], ["y"], name="pool", **attrs)
    return model([node], [vi("x", [1, 2, 8, 8])], [vi("y", None)])


def _maxpool_with_indices():
    node = helper.make_node("MaxPool", ["x"], ["y", "indices"], name="pool", kernel_shape=[2, 2])
    return model([node], [vi("x", [1, 2, 8, 8])],
                 [vi("y", None), vi("indices", None, TensorProto.INT64)])


def relu_chain(n: int) -> bytes:
    """x -> Relu -> Relu -> ... (n nodes) -> y, a [1, 16] float input."""
    names = ["x"] + [f"t{i}" for i in range(n - 1)] + ["y"]
    nodes = [helper.make_node("Relu", [names[i]], [names[i + 1]], name=f"relu{i}")
             for i in range(n)]
    return model(nodes, [vi("x", [1, 16])], [vi("y", [1, 16])])


def identity_chain(n: int) -> bytes:
    """x -> Relu -> Identity -> ... (n Identity nodes) -> y, a [1, 16] float input: every
    Identity is a no-op the front end removes."""
    names = ["x", "r"] + [f"t{i}" for i in range(n - 1)] + ["y"]
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu")]
    nodes += [helper.make_node("Identity", [names[i + 1]], [names[i + 2]], name=f"id{i}")
              for i in range(n)]
    return model(nodes, [vi("x", [1, 16])], [vi("y", [1, 16])])


def resize_model(scales=None, sizes=None) -> bytes:
    """A nearest Resize of a [1, 2, 4, 4] input by constant scales or sizes."""
    inits = [init("roi", np.zeros(0, np.float32))]
    inputs = ["x", "roi"]
    if sizes is None:
        inits.append(init("scales", np.array(scales, np.float32)))
        inputs.append("scales")
    else:
        inits.append(init("sizes", np.array(sizes, np.int64)))
        inputs += ["", "sizes"]
    nodes = [helper.make_node("Resize", inputs, ["y"], name="resize", mode="nearest")]
    return model(nodes, [vi("x", [1, 2, 4, 4])], [vi("y", None)], inits)


# ---- the cases ----------------------------------------------------------------------------------

def _cycle():
    nodes = [helper.make_node("Add", ["x", "b"], ["a"], name="add"),
             helper.make_node("Relu", ["a"], ["b"], name="relu")]
    return model(nodes, [vi("x", [1, 4])], [vi("b", [1, 4])])


def _missing_initializer():
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv")
    return model([node], [vi("x", [1, 3, 8, 8])], [vi("y", None)])


def _output_nothing_produces():
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return model([node], [vi("x", [1, 4])], [vi("y", [1, 4]), vi("z", [1, 4])])


def _empty_value_name():
    nodes = [helper.make_node("Relu", ["x"], [""], name="relu"),
             helper.make_node("Relu", [""], ["y"], name="relu2")]
    return model(nodes, [vi("x", [1, 4])], [vi("y", [1, 4])])


def _empty_input_name():
    node = helper.make_node("Relu", [""], ["y"], name="relu")
    return model([node], [vi("", [1, 4])], [vi("y", [1, 4])])


def _unsorted_nodes():
    # Nodes out of order: a reader before its producer. ONNX requires topological order.
    nodes = [helper.make_node("Relu", ["t"], ["y"], name="second"),
             helper.make_node("Relu", ["x"], ["t"], name="first")]
    return model(nodes, [vi("x", [1, 4])], [vi("y", [1, 4])])


def _negative_dim():
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return model([node], [vi("x", [1, -3, 4, 4])], [vi("y", None)])


def _huge_dim():
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return model([node], [vi("x", [1, 1 << 40, 4, 4])], [vi("y", None)])


def _initializer_data_mismatch():
    t = TensorProto(name="w", data_type=F, dims=[4, 3, 3, 3], float_data=[0.0] * 5)
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv")
    return model([node], [vi("x", [1, 3, 8, 8])], [vi("y", None)], [t])


def _unknown_input_type():
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return model([node], [vi("x", [1, 4], 999)], [vi("y", None)])


def _unknown_initializer_type():
    t = TensorProto(name="c", data_type=999, dims=[4], raw_data=b"\0" * 16)
    node = helper.make_node("Add", ["x", "c"], ["y"], name="add")
    return model([node], [vi("x", [1, 4])], [vi("y", None)], [t])


def _gather_out_of_range_constant():
    nodes = [helper.make_node("Gather", ["data", "idx"], ["g"], name="gather", axis=0),
             helper.make_node("Add", ["x", "g"], ["y"], name="add")]
    return model(nodes, [vi("x", [4])], [vi("y", None)],
                 [init("data", np.arange(4, dtype=np.float32)),
                  init("idx", np.array([0, 1, 2, 10], np.int64))])


def _gather_out_of_range_activation():
    node = helper.make_node("Gather", ["x", "idx"], ["y"], name="gather", axis=1)
    return model([node], [vi("x", [1, 4])], [vi("y", None)],
                 [init("idx", np.array([-5], np.int64))])


def _conv_negative_pads():
    return conv_model(pads=[-1, 0, 0, 0])


def _conv_huge_pads():
    return conv_model(pads=[1 << 40, 0, 0, 0])


def _expand_huge():
    node = helper.make_node("Expand", ["c", "shape"], ["e"], name="expand")
    add = helper.make_node("Add", ["x", "e"], ["y"], name="add")
    return model([node, add], [vi("x", [1, 1])], [vi("y", None)],
                 [init("c", np.ones([1, 1], np.float32)),
                  init("shape", np.array([50000, 50000], np.int64))])


def _garbage():
    return bytes(range(256)) * 4


def _add_mixed_types():
    nodes = [helper.make_node("Cast", ["a"], ["c"], name="cast", to=TensorProto.BFLOAT16),
             helper.make_node("Add", ["a", "b"], ["y"], name="add"),
             helper.make_node("Sum", ["a", "b", "c"], ["z"], name="sum")]
    return model(nodes, [vi("a", [1, 4]), vi("b", [1, 4], TensorProto.INT32)],
                 [vi("y", None), vi("z", None)])


def _bfloat16_input():
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return model([node], [vi("x", [1, 4], TensorProto.BFLOAT16)], [vi("y", None)])


def _reshape_wrong_count():
    node = helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape")
    return model([node], [vi("x", [1, 12])], [vi("y", None)],
                 [init("shape", np.array([5, 5], np.int64))])


def _two_producers():
    nodes = [helper.make_node("Relu", ["x"], ["y"], name="a"),
             helper.make_node("Sigmoid", ["x"], ["y"], name="b")]
    return model(nodes, [vi("x", [1, 4])], [vi("y", [1, 4])])


def _nan_weights():
    w = np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32)
    w[1, 0, 0, 0] = np.nan
    return conv_model(w=w)


def _huge_calibration_input():
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    return model([node], [vi("x", [1, 1 << 28, 1, 1])], [vi("y", None)])


def _clip_calibration_temporaries():
    # 81 x 16 x 1 x 65536 floats through a Clip with --quantize int8 (found by the fuzz target:
    # 1.93 GiB at its peak when the cap counted 1.02 GB, the samples and every value once).
    node = helper.make_node("Clip", ["x", "lo", "hi"], ["y"], name="clip")
    return model([node], [vi("x", [81, 16, 1, 65536])], [vi("y", None)],
                 [init("lo", np.float32(-1)), init("hi", np.float32(1))])


def _scales_out_of_proportion():
    # Relu -> Conv -> Relu: channel 1's huge negative weights only ever give 0 after the Relu,
    # so the output's calibrated scale is channel 0's, 10^15 times smaller than channel 1's
    # weight scale: no int32 multiplier holds the ratio (found by the fuzz target).
    w = np.array([1e-3, -1e12], np.float32).reshape(2, 1, 1, 1)
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu_in"),
             helper.make_node("Conv", ["r", "w", "b"], ["c"], name="conv"),
             helper.make_node("Relu", ["c"], ["y"], name="relu_out")]
    return model(nodes, [vi("x", [1, 1, 4, 4])], [vi("y", None)],
                 [init("w", w), init("b", np.zeros(2, np.float32))])


def _conv_weight_rank():
    # Weights of rank 5 for a 2-d input and no kernel_shape: ONNX 1.12's shape inference
    # read past the input's axes (SIGSEGV).
    w = np.ones((2, 3, 3, 3, 1), np.float32)
    node = helper.make_node("Conv", ["x", "w"], ["y"], name="conv")
    return model([node], [vi("x", [1, 3, 8, 8])], [vi("y", None)], [init("w", w)])


def _constant_data_mismatch():
    value = TensorProto(name="v", data_type=F, dims=[3], float_data=[1.0])
    nodes = [helper.make_node("Constant", [], ["c"], name="k", value=value),
             helper.make_node("Add", ["x", "c"], ["y"], name="add")]
    return model(nodes, [vi("x", [3])], [vi("y", None)])


def _gemm_mismatch():
    node = helper.make_node("Gemm", ["x", "w"], ["y"], name="fc")
    return model([node], [vi("x", [1, 8])], [vi("y", None)],
                 [init("w", np.ones((4, 5), np.float32))])


def _batch_norm_channels():
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn")
    c2 = np.ones(2, np.float32)
    return model([node], [vi("x", [1, 2, 2, 2])], [vi("y", None)],
                 [init("s", np.ones(3, np.float32)), init("b", c2), init("m", c2),
                  init("v", c2)])


def _attribute_name_not_utf8():
    # protobuf hands a string field that is not UTF-8 to Python as bytes (found by the fuzz
    # target: "keywords must be strings" deep in the passes).
    node = helper.make_node("Relu", ["x"], ["y"], name="relu", zqzq=1)
    data = model([node], [vi("x", [1, 4])], [vi("y", [1, 4])])
    return data.replace(b"zqzq", b"\x9e\x8b\x9e\x8b")


def _attribute_value_not_utf8():
    # the same of a string attribute's value (found by the fuzz target: the Resize lowering
    # decoded its mode, UnicodeDecodeError)
    node = helper.make_node("Resize", ["x", "", "s"], ["y"], name="resize", mode="zqzq")
    data = model([node], [vi("x", [1, 1, 2, 2])], [vi("y", None)],
                 [init("s", np.array([1, 1, 2, 2], np.float32))])
    return data.replace(b"zqzq", b"\x9e\x8b\x9e\x8b")


def _gemm_bias_shape():
    # C that does not broadcast to the output (found by structured mutation: numpy's
    # broadcasting error while calibrating)
    node = helper.make_node("Gemm", ["x", "w", "w"], ["y"], name="fc", transB=1)
    return model([node], [vi("x", [1, 8])], [vi("y", None)],
                 [init("w", np.ones((4, 8), np.float32))])


def _global_pool_rank2():
    node = helper.make_node("GlobalAveragePool", ["x"], ["y"], name="gap")
    return model([node], [vi("x", [1, 16])], [vi("y", None)])


def _attribute_without_type():
    # An attribute whose type field is UNDEFINED (found by the fuzz target: onnx's
    # get_attribute_value raised ValueError while the graph was read).
    node = helper.make_node("Relu", ["x"], ["y"], name="relu")
    a = node.attribute.add()
    a.name = "value"
    a.f = 1.0
    return model([node], [vi("x", [1, 4])], [vi("y", [1, 4])])


def _transpose_without_perm():
    # ONNX's default perm reverses the axes (found by the fuzz target: the lowering read a
    # missing attribute, KeyError). Compiles; the program reverses the axes.
    node = helper.make_node("Transpose", ["x"], ["y"], name="t")
    return model([node], [vi("x", [1, 2, 3])], [vi("y", None)])


def _transpose_without_perm_after_inference():
    # The same of a tensor whose rank only shape inference gives (found by the fuzz target:
    # the reader writes the default out when the rank is known at load; the lowering read the
    # still missing attribute, KeyError)
    # (ONNX's inference stops at the Pad: its pads are float; socsim's reads them as zeros)
    pad = helper.make_node("Pad", ["x", "p"], ["r"], name="pad")
    node = helper.make_node("Transpose", ["r"], ["y"], name="t")
    return model([pad, node], [vi("x", [1, 2, 3])], [vi("y", None)],
                 [init("p", np.zeros([6], np.float32))])


def _expand_to_padded_shape():
    # (found by the fuzz target, 4 GB in ONNX's inference: a Pad of a one-element constant
    # made a shape of 16,287,393 elements for an Expand, an output of that many axes)
    pad = helper.make_node("Pad", ["c", "p"], ["e"], name="pad")
    expand = helper.make_node("Expand", ["x", "e"], ["y"], name="expand")
    return model([pad, expand], [vi("x", [1, 1])], [vi("y", None)],
                 [init("c", np.ones([1], np.int64)), init("p", np.array([50000, 16237392]))])


def _reshape_to_expanded_shape():
    # the same a step later: the Expand's output is 1-D of 100 elements, a Reshape's shape
    expand = helper.make_node("Expand", ["c", "n"], ["s"], name="expand")
    reshape = helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")
    return model([expand, reshape], [vi("x", [1, 1])], [vi("y", None)],
                 [init("c", np.ones([1], np.int64)), init("n", np.array([100]))])


@dataclasses.dataclass
class Case:
    name: str
    build: Callable[[], bytes]
    expect: str            # regular expression the error line must match
    args: Tuple[str, ...] = ()
    status: int = 1


CASES: List[Case] = [
    Case("cycle", _cycle, r"cycle.*node '(add|relu)'"),
    Case("missing_initializer", _missing_initializer,
         r"node 'conv' \(op Conv\): input 'w' is .*not produced"),
    Case("output_nothing_produces", _output_nothing_produces,
         r"graph output 'z' is .*not produced"),
    Case("empty_value_name", _empty_value_name, r"node 'relu' \(op Relu\): output 1 .*empty"),
    Case("empty_input_name", _empty_input_name, r"graph input 1 has an empty name"),
    Case("negative_dim", _negative_dim, r"graph input 'x'.*dimension -3"),
    Case("huge_dim", _huge_dim, r"graph input 'x'.*1099511627776"),
    Case("input_over_the_program_format", lambda: model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [1, 10 ** 9, 1, 1])],
        [vi("y", None)]), r"graph input 'x'.*4000000000 bytes.*2147483647"),
    Case("initializer_data_mismatch", _initializer_data_mismatch,
         r"initializer 'w'.*5 values.*108"),
    Case("unknown_input_type", _unknown_input_type, r"graph input 'x'.*element type 999"),
    Case("unknown_initializer_type", _unknown_initializer_type,
         r"initializer 'c'.*element type 999"),
    Case("gather_out_of_range_constant", _gather_out_of_range_constant,
         r"node 'gather' \(op Gather\): .*ind(ex|ices).*10.*4"),
    Case("gather_out_of_range_activation", _gather_out_of_range_activation,
         r"node 'gather' \(op Gather\): .*ind(ex|ices).*-5.*4"),
    Case("conv_group_0_int8", lambda: conv_model(group=0), r"node 'conv' \(op Conv\): .*group.*0",
         ("--quantize", "int8")),
    Case("conv_group_0", lambda: conv_model(group=0), r"node 'conv' \(op Conv\): .*group.*0"),
    Case("conv_group_7", lambda: conv_model(group=7), r"node 'conv' \(op Conv\): .*group.*7"),
    Case("conv_stride_0", lambda: conv_model(strides=[0, 1]),
         r"node 'conv' \(op Conv\): attribute strides.*\[0, 1\]"),
    Case("maxpool_stride_0", lambda: maxpool_model(kernel_shape=[2, 2], strides=[1, 0]),
         r"node 'pool' \(op MaxPool\): attribute strides.*\[1, 0\]"),
    Case("maxpool_indices", _maxpool_with_indices,
         r"node 'pool' \(op MaxPool\).*second output \(Indices\) is not supported"),
    Case("maxpool_kernel_0", lambda: maxpool_model(kernel_shape=[0, 2]),
         r"node 'pool' \(op MaxPool\): attribute kernel_shape.*\[0, 2\]"),
    Case("conv_dilation_0", lambda: conv_model(dilations=[0, 1]),
         r"node 'conv' \(op Conv\): attribute dilations.*\[0, 1\]"),
    Case("conv_negative_pads", _conv_negative_pads,
         r"node 'conv' \(op Conv\): attribute pads.*-1"),
    Case("conv_huge_pads", _conv_huge_pads,
         r"node 'conv' \(op Conv\): attribute pads.*1099511627776"),
    Case("conv_input_channels", lambda: conv_model(w_shape=(4, 5, 3, 3)),
         r"node 'conv' \(op Conv\): .*3 channels.*5"),
    Case("conv_kernel_shape", lambda: conv_model(kernel_shape=[4, 4]),
         r"node 'conv' \(op Conv\): attribute kernel_shape.*\[4, 4\].*\[3, 3\]"),
    Case("conv_weight_rank", _conv_weight_rank,
         r"node 'conv' \(op Conv\): weights 'w' have rank 5, input 'x' rank 4"),
    Case("constant_data_mismatch", _constant_data_mismatch,
         r"node 'k' \(op Constant\): attribute value holds 1 values; its dims \[3\] need 3"),
    Case("gemm_mismatch", _gemm_mismatch, r"node 'fc' \(op Gemm\): .*8 columns against 4 rows",
         ("--quantize", "int8")),
    Case("gemm_bias_shape", _gemm_bias_shape,
         r"node 'fc' \(op Gemm\): C 'w' has shape \[4, 8\], which does not broadcast to the "
         r"output \[1, 4\]", ("--quantize", "int8")),
    Case("global_pool_rank2", _global_pool_rank2,
         r"node 'gap' \(op GlobalAveragePool\): input \[1, 16\] has no spatial axes",
         ("--quantize", "int8")),
    Case("clip_bounds_not_scalar", lambda: model(
        [helper.make_node("Clip", ["x", "lo"], ["y"], name="clip")], [vi("x", [1, 4])],
        [vi("y", None)], [init("lo", np.zeros(4, np.float32))]),
         r"node 'clip' \(op Clip\): min 'lo' has shape \[4\]; it must be a scalar"),
    Case("conv_after_squeeze", lambda: model(
        [helper.make_node("Squeeze", ["x"], ["r"], name="squeeze"),
         helper.make_node("Conv", ["r", "w"], ["y"], name="conv")], [vi("x", [1, 1, 4, 4])],
        [vi("y", None)], [init("w", np.ones((2, 1, 1, 1), np.float32))], opset=12),
         r"node 'conv' \(op Conv\): input 'r' has rank 2; a Conv's data input is N x C x "
         r"spatial axes"),
    Case("reshape_float_shape", lambda: model(
        [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")], [vi("x", [1, 4])],
        [vi("y", None)], [init("s", np.array([np.nan, 2], np.float32))]),
         r"node 'reshape' \(op Reshape\): shape 's' is float32, not int64"),
    Case("constant_int64_output", lambda: model(
        [helper.make_node("Tile", ["shape", "r"], ["y"], name="tile")], [vi("x", [1])],
        [vi("y", None, TensorProto.INT64)], [init("shape", np.array([2, 3], np.int64)),
                          init("r", np.array([2], np.int64))]),
         r"graph output 'y' is a constant"),
    Case("batch_norm_channels", _batch_norm_channels,
         r"node 'bn' \(op BatchNormalization\): scale 's' has shape \[3\]"),
    Case("attribute_name_not_utf8", _attribute_name_not_utf8,
         r"node 1: its attribute 1 b'\\x9e\\x8b\\x9e\\x8b' is not UTF-8 text"),
    # (found by the fuzz target: ONNX's inference counted a ceil-mode window that starts in
    # the end padding, the kernels did not: numpy could not reshape calibration's result)
    Case("maxpool_ceil_window_in_end_padding", lambda: maxpool_model(
        kernel_shape=[2, 2], strides=[2, 2], pads=[0, 0, 5, 0], ceil_mode=1),
         r"node 'pool' \(op MaxPool\): with ceil_mode the last window of an axis starts in "
         r"the end padding \(pads \[0, 0, 5, 0\]\): ONNX's shape inference gives \[7, 4\], "
         r"the kernels, which drop such a window as onnxruntime does, \[6, 4\]",
         ("--quantize", "int8", "--samples", "1")),
    Case("attribute_value_not_utf8", _attribute_value_not_utf8,
         r"node 'resize' \(op Resize\): attribute 'mode' = b'\\x9e\\x8b\\x9e\\x8b' is not "
         r"UTF-8 text"),
    Case("attribute_without_type", _attribute_without_type,
         r"node 'relu' \(op Relu\): attribute 'value' has no type"),
    Case("unknown_operator", lambda: model(
        [helper.make_node("Conv2d", ["x"], ["y"], name="c")], [vi("x", [1, 4])], [vi("y", None)]),
         r"node 'c' \(op Conv2d\): Conv2d is not an ONNX operator \(opset 13\)"),
    Case("unknown_attribute", lambda: conv_model(stride=[2, 2]),
         r"node 'conv' \(op Conv\): attribute 'stride' is not an attribute of ONNX Conv"),
    Case("empty_file", lambda: b"", r"(empty|no nodes|no graph|no output)"),
    Case("two_bytes", lambda: b"\x08\x07", r"(no graph|no output|no nodes|cannot read)"),
    Case("garbage", _garbage, r"cannot read ONNX model"),
    Case("reshape_wrong_count", _reshape_wrong_count,
         r"node 'reshape' \(op Reshape\): .*12 elements.*\[5, 5\]"),
    Case("two_producers", _two_producers, r"value 'y' .*node 'a'.*node 'b'"),
    Case("add_mixed_types", _add_mixed_types,
         r"node 'add' \(op Add\): .*float32.*int32(.|\n)*node 'sum' \(op Sum\): .*bfloat16"),
    Case("bfloat16_input", _bfloat16_input, r"graph input 'x' has element type BFLOAT16"),
    Case("nan_weights_int8", _nan_weights, r"constant 'w' .*node 'conv'.*1 NaN",
         ("--quantize", "int8")),
    Case("scales_out_of_proportion", _scales_out_of_proportion,
         r"node 'conv' \(op Conv\): cannot be quantised: multiplier", ("--quantize", "int8")),
    Case("expand_huge", _expand_huge, r"node 'expand' \(op Expand\): .*2500000000"),
    Case("huge_calibration_input", _huge_calibration_input,
         r"calibration needs .*'x' \[1, 268435456, 1, 1\].*cap of 1073741824 bytes",
         ("--quantize", "int8")),
    Case("clip_calibration_temporaries", _clip_calibration_temporaries,
         r"calibration needs 3057647616 bytes \(1 sample\(s\) of the inputs: 339738624; the "
         r"float program's values: 679477248; its largest instruction's inputs, output and "
         r"temporaries: 2038431744; .*cap of 1073741824 bytes",
         ("--quantize", "int8", "--samples", "1")),
    Case("npu_without_quantize", lambda: relu_chain(1), r"--delegate npu.*--quantize int8",
         ("--delegate", "npu"), 2),
    Case("resize_scale_zero", lambda: resize_model(scales=[1, 1, 0, 0]),
         r"node 'resize' \(op Resize\): scales 'scales' .*axis 2 has scale 0\.0"),
    Case("resize_scale_nan", lambda: resize_model(scales=[1, 1, float("nan"), 2]),
         r"node 'resize' \(op Resize\): scales 'scales' .*axis 2 has scale nan"),
    Case("resize_scale_negative", lambda: resize_model(scales=[1, 1, 2, -2]),
         r"node 'resize' \(op Resize\): scales 'scales' .*axis 3 has scale -2\.0"),
    Case("resize_scale_huge", lambda: resize_model(scales=[1, 1, 1e30, 1]),
         r"node 'resize' \(op Resize\): scales 'scales' .*axis 2 of size 4 .*beyond 2\^31"),
    Case("resize_scales_count", lambda: resize_model(scales=[2, 2]),
         r"node 'resize' \(op Resize\): scales 'scales' has 2 values for the rank-4 input"),
    Case("gemm_trans_flag_not_0_or_1", lambda: model(
        [helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1 << 31)],
        [vi("x", [1, 8])], [vi("y", [1, 4])],
        [init("w", np.ones((4, 8), np.float32)), init("b", np.zeros(4, np.float32))]),
        r"node 'fc' \(op Gemm\): attribute transB = 2147483648 \(must be 0 or 1\)",
        ("--quantize", "int8", "--samples", "1", "--delegate", "npu")),
    Case("expand_to_padded_shape", _expand_to_padded_shape,
         r"node 'expand' \(op Expand\): input 'e' has 16,287,393 elements, a shape of that "
         r"many axes \(at most 64\)"),
    Case("reshape_to_expanded_shape", _reshape_to_expanded_shape,
         r"node 'reshape' \(op Reshape\): input 's' has 100 elements"),
    Case("reshape_to_long_constant_shape", lambda: model(
        [helper.make_node("Reshape", ["x", "s"], ["y"], name="reshape")],
        [vi("x", [1, 1])], [vi("y", None)], [init("s", np.ones([65], np.int64))]),
        r"node 'reshape' \(op Reshape\): input 's' has 65 elements"),
    Case("resize_size_zero", lambda: resize_model(sizes=[1, 2, 0, 8]),
         r"node 'resize' \(op Resize\): sizes 'sizes' .*axis 2 has size 0"),
]


def valid_models():
    """Small models that compile: the fuzz target's seeds besides the hostile cases."""
    gemm = model([helper.make_node("Gemm", ["x", "w", "b"], ["y"], name="fc", transB=1)],
                  [vi("x", [1, 8])], [vi("y", [1, 4])],
                  [init("w", np.ones((4, 8), np.float32)), init("b", np.zeros(4, np.float32))])
    return {"relu_chain": relu_chain(3), "conv": conv_model(pads=[1, 1, 1, 1]),
            "maxpool": maxpool_model(kernel_shape=[2, 2], strides=[2, 2]), "gemm": gemm}


def write_seeds(folder: str):
    """Writes every case and valid model as folder/NAME.onnx (tests/fuzz/corpus/compile_model
    is made so: python3 -c 'import hostile_models; hostile_models.write_seeds(...)')."""
    import os
    os.makedirs(folder, exist_ok=True)
    files = {case.name: case.build() for case in CASES}
    files.update(valid_models())
    for name, data in files.items():
        with open(os.path.join(folder, name + ".onnx"), "wb") as f:
            f.write(data)
