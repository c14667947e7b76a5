"""Softmax over any one axis (ONNX Softmax of opset 13; the argument `dim` names the axis).

int8 uses a table the compiler makes from the input scale, table[d] = round(2^16 exp(-s d))
for d = max - x in [0, 255], and an output fixed at scale 1/256, zero point -128, so no
floating point runs on the core.
"""

from socsim_schema.core import Arg, Operand, Operator, register

_DIM = (Arg("dim", doc="the axis, in [0, rank)"),)

SOFTMAX, QUANTIZED_SOFTMAX = register(
    Operator("aten::_softmax.out", "softmax", "softmax over the axis dim", inputs=(Operand("x"),),
             args=_DIM, kernel="softmax", onnx=("Softmax",),
             quantized="quantized_decomposed::softmax.out"),
    Operator("quantized_decomposed::softmax.out", "quantized_softmax",
             "table[max - x] / sum over dim, output scale 1/256, zero point -128",
             inputs=(Operand("x"), Operand("table", "int32", "[256] = round(2^16 exp(-s d))")),
             args=_DIM, dtypes=("int8",), kernel="softmax"))
