"""Softmax over the last axis.

int8 uses a table the compiler makes from the input scale, table[d] = round(2^16 exp(-s d))
for d = max - x in [0, 255], and an output fixed at scale 1/256, zero point -128, so no
floating point runs on the core.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.core import Operand, Operator, register


def _lower(n):
    rank = len(n.g.value(n.inputs[0]).shape)
    if n.attrs.get("axis", -1) % rank != rank - 1:
        n.fail("softmax is supported over the last axis only")
    n.emit(SOFTMAX.name, n.inputs[:1])


def _quantize(q, node):
    x = q.g.values[node.inputs[0]]
    y = q.g.values[node.outputs[0]]
    y.scale, y.zero_point = 1.0 / 256.0, -128
    node.inputs = node.inputs[:1] + [
        q.g.add_const(node.outputs[0] + "::table", fx.softmax_table(x.scale))]


def _softmax(ins, a, out):
    x = ins[0]
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)


def _quantized_softmax(ins, a, out):
    x, table = ins
    xi = x.astype(np.int64)
    e = table.astype(np.int64)[xi.max(axis=-1, keepdims=True) - xi]
    r = fx.div_round(e * 256, e.sum(axis=-1, keepdims=True)) - 128
    return fx.saturate(r).astype(np.int8)


SOFTMAX, QUANTIZED_SOFTMAX = register(
    Operator("aten::_softmax.out", "softmax", "softmax over the last axis",
             inputs=(Operand("x"),), kernel="softmax", onnx=("Softmax",), lower=_lower,
             quantized="quantized_decomposed::softmax.out", quantize=_quantize,
             reference=_softmax),
    Operator("quantized_decomposed::softmax.out", "quantized_softmax",
             "table[max - x] / sum, output scale 1/256, zero point -128",
             inputs=(Operand("x"), Operand("table", "int32", "[256] = round(2^16 exp(-s d))")),
             dtypes=("int8",), kernel="softmax", reference=_quantized_softmax))
