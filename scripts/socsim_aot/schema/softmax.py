"""The compiler's hooks (quantisation, numpy reference) for the softmax family.

Its operators and their rules are declared in socsim_schema/softmax.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import tflite_arith
from socsim_aot.schema.hooks import hooks


def _lower(n):
    rank = len(n.g.value(n.inputs[0]).shape)
    if rank == 0:
        n.fail("softmax of a scalar")
    n.emit(SOFTMAX.name, n.inputs[:1], dim=int(n.attrs.get("axis", -1)) % rank)


def _quantize(q, node):
    x = q.g.values[node.inputs[0]]
    y = q.g.values[node.outputs[0]]
    y.scale, y.zero_point = 1.0 / 256.0, -128
    node.inputs = node.inputs[:1] + [
        q.g.add_const(node.outputs[0] + "::table", fx.softmax_table(x.scale))]


def _softmax(ins, a, out):
    x = ins[0]
    e = np.exp(x - x.max(axis=a.dim, keepdims=True))
    return (e / e.sum(axis=a.dim, keepdims=True)).astype(np.float32)


def _quantized_softmax(ins, a, out):
    x, table = ins
    if table.size == 257:  # TFLite's rule (firmware/int8/tflite_rounding.h)
        moved = np.moveaxis(x, a.dim, -1)
        rows = moved.reshape(-1, moved.shape[-1])
        t = [int(v) for v in table]
        y = np.array([tflite_arith.softmax_line(r, t) for r in rows], np.int8)
        return np.moveaxis(y.reshape(moved.shape), -1, a.dim)
    xi = x.astype(np.int64)
    e = table.astype(np.int64)[xi.max(axis=a.dim, keepdims=True) - xi]
    r = fx.div_round(e * 256, e.sum(axis=a.dim, keepdims=True)) - 128
    return fx.saturate(r).astype(np.int8)


def _dim(g, node):
    return dict(dim=node.attrs["dim"])


SOFTMAX, QUANTIZED_SOFTMAX = (
    hooks("aten::_softmax.out", lower=_lower, quantize=_quantize, arg_values=_dim,
          reference=_softmax),
    hooks("quantized_decomposed::softmax.out", arg_values=_dim, reference=_quantized_softmax))
