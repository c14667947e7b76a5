"""Operators that only move bytes: reshape, transpose (permute), concatenation, slicing (ONNX
Slice and Split), gathering along an axis with constant indices (Gather) and padding (Pad:
constant, reflect, edge).

Quantised, they keep the input's quantisation (a constant pad value is quantised with it);
concatenation requantises every input to the output's scale first (the compiler inserts
requantize operators).
"""

from socsim_schema.core import Arg, Operand, Operator, register

VIEW_COPY, PERMUTE_COPY, CAT = register(
    Operator("aten::view_copy.out", "view_copy", "the same bytes under a new shape",
             inputs=(Operand("x"),), dtypes=("float32", "int8", "int32", "uint8"),
             kernel="reshape",
             onnx=("Reshape", "Flatten", "Squeeze", "Unsqueeze")),
    Operator("aten::permute_copy.out", "permute_copy", "out.shape[i] = x.shape[perm[i]]",
             inputs=(Operand("x"),), args=(Arg("perm", "int32[]", "one entry per axis"),),
             dtypes=("float32", "int8"), kernel="transpose", onnx=("Transpose",)),
    Operator("aten::cat.out", "cat", "concatenation along one axis",
             inputs=(Operand("x", variadic=True),), args=(Arg("axis"),), dtypes=("float32", "int8"),
             kernel="concat", onnx=("Concat", "Expand", "Tile")))

PAD2D_ARGS = (Arg("pad_left"), Arg("pad_right"), Arg("pad_top"), Arg("pad_bottom"))

_MOVING = ("float32", "int8", "int32")

SLICE_COPY, INDEX_SELECT, CONSTANT_PAD_ND, REFLECTION_PAD2D, REPLICATION_PAD2D = register(
    Operator("aten::slice_copy.Tensor_out", "slice_copy",
             "out[i...] = x[first + i step...] on every axis (ONNX Slice; Split is one per "
             "output)", inputs=(Operand("x"),),
             args=(Arg("slices", "int32[]", "first index and step of every axis (two words "
                   "per axis)", per_axis=2),), dtypes=_MOVING + ("uint8",), kernel="slice",
             onnx=("Slice", "Split")),
    Operator("aten::index_select.out", "index_select",
             "x gathered along dim at constant indices of any shape (ONNX Gather)",
             inputs=(Operand("x"), Operand("index", "int32", "constant, in [0, size of dim); "
                                           "one element and an output without dim: a scalar")),
             args=(Arg("dim"),), dtypes=_MOVING, kernel="gather", onnx=("Gather",)),
    Operator("aten::constant_pad_nd.out", "constant_pad_nd",
             "x surrounded by a constant (ONNX Pad, mode constant)",
             inputs=(Operand("x"), Operand("value", "T", "one element: the pad value")),
             args=(Arg("pads", "int32[]", "elements before and after, per axis (two words per "
                   "axis)", per_axis=2),), dtypes=("float32", "int8"), kernel="pad", onnx=("Pad",)),
    Operator("aten::reflection_pad2d.out", "reflection_pad2d",
             "the last two axes padded with their mirror image, the edge not repeated",
             inputs=(Operand("x"),), args=PAD2D_ARGS, dtypes=("float32", "int8"), kernel="pad"),
    Operator("aten::replication_pad2d.out", "replication_pad2d",
             "the last two axes padded with copies of their edge", inputs=(Operand("x"),),
             args=PAD2D_ARGS, dtypes=("float32", "int8"), kernel="pad"))

_BYTES = ("float32", "int8", "int32", "uint8")

# ExecuTorch's copies of strided and broadcast views (docs/executorch.md).
AS_STRIDED_COPY, EXPAND_COPY = register(
    Operator("aten::as_strided_copy.out", "as_strided_copy",
             "out[i...] = x's element storage_offset + sum i[d] strides[d] in row-major order "
             "(x of the output's rank, read as its flat storage)", inputs=(Operand("x"),),
             args=(Arg("storage_offset", doc="elements, at least 0"),
                   Arg("strides", "int32[]", "elements, at least 0, one per axis")),
             dtypes=_BYTES, kernel="as_strided"),
    Operator("aten::expand_copy.out", "expand_copy",
             "x broadcast to the output's shape (numpy's rules: axes aligned at the end, an "
             "axis of 1 repeated)", inputs=(Operand("x"),), dtypes=_BYTES, kernel="expand"))
