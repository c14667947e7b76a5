"""Selection and comparison on run-time tensors: TopK (the k best candidates of a detector or
a sampler), the comparisons Equal, Less, Greater, LessOrEqual and GreaterOrEqual, and Where
(a masked choice computed at run time, e.g. a padding mask from token ids).

ONNX's bool tensors are uint8 at run time, 0 or 1 (docs/compiler.md, "Types at the program
boundary"): comparisons write such a mask and Where reads one (any nonzero byte selects x).
Comparisons and Where broadcast their operands as ONNX (numpy) does.

TopK is two operators computed by one kernel file: the values (the input's type; int8
quantised values keep the input's scale) and the indices (int32: int64 in ONNX), both
sorted best first, ties by the lower index (ONNX's rule for equal values); largest=0 takes
the smallest. On an int8 quantised input the int8 values order as the real values do.

And, Or, Xor and Not combine masks (uint8: nonzero is true; the result 0 or 1).
"""

from socsim_schema.core import Arg, Operand, Operator, register

_TOPK_ARGS = (Arg("k", doc="elements kept, in [1, size of dim]"),
              Arg("dim", doc="the axis, in [0, rank)"),
              Arg("largest", "bool", doc="1: the largest first; 0: the smallest first"))
_PAIR = (Operand("a"), Operand("b"))
_MASK = (Operand("out", "uint8", "1 where true, 0 where false"),)
_TYPES = ("float32", "int8", "int32")
_COMPARED = _TYPES + ("uint8",)


def _compare(name, what):
    return Operator(f"aten::{name}.Tensor_out", name, f"1 where {what}, else 0 (uint8), "
                    "broadcasting", inputs=_PAIR, outputs=_MASK, dtypes=_COMPARED,
                    kernel="compare")


(TOPK_VALUES, TOPK_INDICES, EQ, LT, GT, LE, GE, WHERE) = register(
    Operator("aten::topk.values", "topk",
             "the k largest (largest=1) or smallest elements along dim, best first, ties by "
             "the lower index", inputs=(Operand("x"),), outputs=(Operand("values"),),
             args=_TOPK_ARGS, dtypes=("float32", "int8"), kernel="topk", onnx=("TopK",)),
    Operator("aten::topk_indices.out", "topk_indices",
             "the int32 indices along dim of aten::topk.values's elements",
             inputs=(Operand("x"),), outputs=(Operand("indices", "int32"),), args=_TOPK_ARGS,
             dtypes=("float32", "int8"), kernel="topk"),
    Operator("aten::eq.Tensor_out", "eq", "1 where a == b, else 0 (uint8), broadcasting",
             inputs=_PAIR, outputs=_MASK, dtypes=_COMPARED, kernel="compare",
             onnx=("Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual")),
    _compare("lt", "a < b"),
    _compare("gt", "a > b"),
    _compare("le", "a <= b"),
    _compare("ge", "a >= b"),
    Operator("aten::where.self_out", "where",
             "x where the condition is nonzero, else y, broadcasting (x first: the kernel key "
             "is x's type)",
             inputs=(Operand("x"), Operand("condition", "uint8", "nonzero selects x"),
                     Operand("y")),
             dtypes=_TYPES, kernel="where", onnx=("Where",)))


_MASKS = (Operand("a", "T", "a mask: nonzero is true"), Operand("b", "T", "a mask"))
LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR, LOGICAL_NOT = register(
    Operator("aten::logical_and.out", "logical_and", "1 where a and b are nonzero, else 0, "
             "broadcasting", inputs=_MASKS, outputs=_MASK, dtypes=("uint8",),
             kernel="logical", onnx=("And", "Or", "Xor", "Not")),
    Operator("aten::logical_or.out", "logical_or", "1 where a or b is nonzero, else 0, "
             "broadcasting", inputs=_MASKS, outputs=_MASK, dtypes=("uint8",),
             kernel="logical"),
    Operator("aten::logical_xor.out", "logical_xor", "1 where exactly one of a and b is "
             "nonzero, else 0, broadcasting", inputs=_MASKS, outputs=_MASK,
             dtypes=("uint8",), kernel="logical"),
    Operator("aten::logical_not.out", "logical_not", "1 where x is 0, else 0",
             inputs=(Operand("x", "T", "a mask"),), outputs=_MASK, dtypes=("uint8",),
             kernel="logical"))
