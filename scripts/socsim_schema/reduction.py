"""Reductions over a set of axes: mean, sum and max (ONNX ReduceMean, ReduceSum, ReduceMax).

The argument `reduce` has one entry per input axis, 1 where the axis is reduced; the output
keeps reduced axes as 1s or drops them (ONNX keepdims), which its shape says. A mean over the
two spatial axes of an NCHW tensor is global average pooling and lowers to it (the NPU runs
it). Quantised, max keeps the input's quantisation; mean and sum rescale the sum of
(x - zp_in): mean with average pooling's rule div_round(sum m, count 2^n), sum with
requantize(sum, m, n) (docs/runtime.md).
"""

from socsim_schema.core import Arg, Operand, Operator, register

_REDUCE = Arg("reduce", "int32[]", "one entry per input axis: 1 = reduced")

_REQUANT = (Arg("zp_in"), Arg("zp_out"), Arg("m"), Arg("n"))

_X = (Operand("x"),)

MEAN, SUM, AMAX, QUANTIZED_MEAN, QUANTIZED_SUM = register(
    Operator("aten::mean.out", "mean", "mean over the reduced axes", inputs=_X, args=(_REDUCE,),
             kernel="reduce", onnx=("ReduceMean",), quantized="quantized_decomposed::mean.out"),
    Operator("aten::sum.IntList_out", "sum", "sum over the reduced axes", inputs=_X,
             args=(_REDUCE,), kernel="reduce", onnx=("ReduceSum",),
             quantized="quantized_decomposed::sum.out"),
    Operator("aten::amax.out", "amax", "maximum over the reduced axes", inputs=_X, args=(_REDUCE,),
             dtypes=("float32", "int8"), kernel="reduce", onnx=("ReduceMax",)),
    Operator("quantized_decomposed::mean.out", "quantized_mean",
             "div_round(sum (x - zp_in) m, count 2^n) + zp_out, saturated", inputs=_X,
             args=_REQUANT + (_REDUCE,), dtypes=("int8",), kernel="reduce"),
    Operator("quantized_decomposed::sum.out", "quantized_sum",
             "requantize(sum (x - zp_in), m, n) + zp_out, saturated", inputs=_X,
             args=_REQUANT + (_REDUCE,), dtypes=("int8",), kernel="reduce"))
