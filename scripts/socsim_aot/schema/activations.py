"""Elementwise activations: ReLU and Clip.

Quantised, they keep the input's scale and zero point, so the int8 forms only compare
values: ReLU against the zero point, Clip against bounds quantised by the compiler.
"""

import numpy as np

from socsim_aot import ir
from socsim_aot.schema.core import Arg, Operand, Operator, register


def same_scale(q, node):
    """Operators that only move or select values: the output has the input's quantisation."""
    x = q.g.values[node.inputs[0]]
    y = q.g.values[node.outputs[0]]
    y.scale, y.zero_point = x.scale, x.zero_point


def _relu(ins, a, out):
    x = ins[0]
    if x.dtype == np.float32:
        return np.where(x > 0, x, np.float32(0)).astype(np.float32)
    return np.maximum(x, np.int8(0)).astype(np.int8)


def _lower_clip(n):
    lo, hi = n.attrs.get("min", -ir.INF), n.attrs.get("max", ir.INF)
    if len(n.inputs) > 1 and n.inputs[1]:
        lo = float(n.const(n.inputs[1], "min"))
    if len(n.inputs) > 2 and n.inputs[2]:
        hi = float(n.const(n.inputs[2], "max"))
    n.emit(CLAMP.name, n.inputs[:1], lo=lo, hi=hi)


def _clamp(ins, a, out):
    return np.minimum(np.maximum(ins[0], a.lo), a.hi).astype(np.float32)


def _quantized_clamp_args(g, node):
    lo, hi = ir.act_bounds_q(node.attrs["lo"], node.attrs["hi"], g.output_value(node))
    return dict(lo=lo, hi=hi)


_X = (Operand("x"),)

RELU, QUANTIZED_RELU, CLAMP, QUANTIZED_CLAMP = register(
    Operator("aten::relu.out", "relu", "max(x, 0)", inputs=_X, dtypes=("float32", "int8"),
             kernel="relu", onnx=("Relu",), quantized="quantized_decomposed::relu.out",
             quantize=same_scale, reference=_relu),
    Operator("quantized_decomposed::relu.out", "quantized_relu", "max(x, zero_point)",
             inputs=_X, args=(Arg("zero_point"),), dtypes=("int8",), kernel="relu",
             arg_values=lambda g, node: dict(zero_point=g.output_value(node).zero_point),
             reference=lambda ins, a, out: np.maximum(
                 ins[0].astype(np.int32), np.clip(a.zero_point, -128, 127)).astype(np.int8)),
    Operator("aten::clamp.out", "clamp", "min(max(x, lo), hi)", inputs=_X,
             args=(Arg("lo", "float32"), Arg("hi", "float32")), kernel="clip", onnx=("Clip",),
             quantized="quantized_decomposed::clamp.out", lower=_lower_clip,
             quantize=same_scale,
             arg_values=lambda g, node: dict(lo=node.attrs["lo"], hi=node.attrs["hi"]),
             reference=_clamp),
    Operator("quantized_decomposed::clamp.out", "quantized_clamp",
             "min(max(x, lo), hi), bounds quantised", inputs=_X,
             args=(Arg("lo"), Arg("hi")), dtypes=("int8",), kernel="clip",
             arg_values=_quantized_clamp_args,
             reference=lambda ins, a, out: np.clip(ins[0].astype(np.int32), a.lo, a.hi)
             .astype(np.int8)))
