"""Index results and element type conversion: ArgMax / ArgMin (the class of a classifier, the
next token of a greedy decoder) and Cast between the runtime's tensor types.

ArgMax/ArgMin give int32 indices (int64 in ONNX: int32 at the program's boundary,
docs/compiler.md); ties go to the first index (select_last_index 0). On an int8 quantised
input they compare the int8 values, which orders as the real values do (positive scale).

Cast converts float32, int32, int8 and uint8 into one another: float to integer truncates
towards zero and saturates to the target's range (NaN gives 0), integer to integer
saturates, integer to float is exact for int8/uint8 and rounds to nearest for large int32.
"""

from socsim_schema.core import Arg, Operand, Operator, register

ARGMAX, ARGMIN, TO_COPY = register(
    Operator("aten::argmax.out", "argmax",
             "index of the largest element along dim (the first of equals), int32",
             inputs=(Operand("x"),), outputs=(Operand("out", "int32"),),
             args=(Arg("dim", doc="the axis, in [0, rank)"),), dtypes=("float32", "int8"),
             kernel="arg_reduce", onnx=("ArgMax", "ArgMin")),
    Operator("aten::argmin.out", "argmin",
             "index of the smallest element along dim (the first of equals), int32",
             inputs=(Operand("x"),), outputs=(Operand("out", "int32"),),
             args=(Arg("dim", doc="the axis, in [0, rank)"),), dtypes=("float32", "int8"),
             kernel="arg_reduce"),
    Operator("aten::_to_copy.out", "to_copy",
             "x converted to the output's element type (truncation towards zero, saturation)",
             inputs=(Operand("x"),), outputs=(Operand("out", "any", "float32, int32, int8 or "
                                                      "uint8"),),
             dtypes=("float32", "int32", "int8", "uint8"), kernel="cast", onnx=("Cast",)))

# int64 to float32 (ExecuTorch's _to_dim_order_copy of an int64 tensor): the runtime has no
# int64 element type, so the input is the int64 values' little-endian bytes, uint8 with a
# trailing axis of 8; each becomes the nearest float32.
(INT64_TO_FLOAT,) = register(
    Operator("aten::_to_copy.int64_out", "int64_to_float",
             "int64 (little-endian bytes, a trailing axis of 8) to the nearest float32",
             inputs=(Operand("x", doc="[..., 8]: int64 little-endian"),),
             outputs=(Operand("out", "float32", "[...]"),), dtypes=("uint8",), kernel="cast"))
