"""Elementwise activations: ReLU, Clip and Sigmoid.

Quantised, ReLU and Clip keep the input's scale and zero point, so their int8 forms only
compare values: ReLU against the zero point, Clip against bounds quantised by the compiler.
Sigmoid's int8 form looks every value up in a 256-entry table the compiler computes from the
input's quantisation (as TFLite computes int8 logistic), so no floating point runs on the
core or the NPU; its output has TFLite's fixed quantisation, scale 1/256 and zero point -128.
"""

import numpy as np

from socsim_aot import ir
from socsim_aot.schema.core import Arg, NpuLayer, Operand, Operator, register


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


# ---- table lookups --------------------------------------------------------------------------

LUT_SCALE, LUT_ZERO_POINT = 1.0 / 256.0, -128  # the output of a sigmoid-like table


def lookup_table(fn, x: ir.Value, y: ir.Value) -> np.ndarray:
    """table[q + 128] = quantised fn(dequantised q) for every int8 q: the output of an
    elementwise function of x, rounded half up and saturated to int8."""
    q = np.arange(-128, 128, dtype=np.float64)
    real = fn(x.scale * (q - x.zero_point))
    return np.clip(np.floor(real / y.scale + 0.5) + y.zero_point, -128, 127).astype(np.int8)


def _lookup(ins, a, out):
    x, table = ins
    return table[x.astype(np.int64) + 128].astype(np.int8)


def _npu_elementwise(g, node):
    return "sigmoid" if len(g.input_value(node).shape) <= 4 else None


def _sigmoid_f64(v):
    with np.errstate(over="ignore"):  # exp overflows to inf for large negative v: 1 / inf = 0
        return 1.0 / (1.0 + np.exp(-v))


def _sigmoid(ins, a, out):
    x = ins[0].astype(np.float32)
    with np.errstate(over="ignore"):
        return (np.float32(1) / (np.float32(1) + np.exp(-x))).astype(np.float32)


def _quantize_sigmoid(q, node):
    x = q.g.values[node.inputs[0]]
    y = q.g.values[node.outputs[0]]
    y.scale, y.zero_point = LUT_SCALE, LUT_ZERO_POINT
    node.inputs = node.inputs[:1] + [
        q.g.add_const(node.outputs[0] + "::table", lookup_table(_sigmoid_f64, x, y))]


SIGMOID, QUANTIZED_SIGMOID = register(
    Operator("aten::sigmoid.out", "sigmoid", "1 / (1 + exp(-x))", inputs=_X, kernel="sigmoid",
             onnx=("Sigmoid",), quantized="quantized_decomposed::sigmoid.out",
             quantize=_quantize_sigmoid, reference=_sigmoid),
    Operator("quantized_decomposed::sigmoid.out", "quantized_sigmoid",
             "table[x + 128], output scale 1/256, zero point -128",
             inputs=(Operand("x", npu_slot="input"),
                     Operand("table", "int8", "[256]: sigmoid of every int8 input, quantised",
                             npu_slot="weights")),
             outputs=(Operand("out", npu_slot="output"),), dtypes=("int8",), kernel="sigmoid",
             npu=NpuLayer(8, "Sigmoid", ("sigmoid",), "sigmoid"), reference=_lookup,
             npu_accepts=_npu_elementwise))
