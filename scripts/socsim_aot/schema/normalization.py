"""The compiler's hooks (quantisation, numpy reference) for the normalization family.

Its operators and their rules are declared in socsim_schema/normalization.py.
"""

import math

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir
from socsim_aot.schema.hooks import hooks

MAX_ROW = 4096
WEIGHT_SHIFT = 16


def _lower(n):
    x = n.g.value(n.inputs[0])
    rank = len(x.shape)
    axis = int(n.attrs.get("axis", -1)) % rank
    if any(o for o in n.outputs[1:]):
        n.fail("LayerNormalization's Mean and InvStdDev outputs are not supported")
    row = int(np.prod(x.shape[axis:], dtype=np.int64))
    weight = np.asarray(n.const(n.inputs[1], "the scale"), np.float32)
    if len(n.inputs) > 2 and n.inputs[2]:
        bias = np.asarray(n.const(n.inputs[2], "the bias"), np.float32)
    else:
        bias = np.zeros(1, np.float32)
    weight, bias = (np.ascontiguousarray(np.broadcast_to(v, x.shape[axis:]), np.float32)
                    .reshape(row) for v in (weight, bias))
    wname = n.g.add_const(n.outputs[0] + "::weight", weight)
    bname = n.g.add_const(n.outputs[0] + "::bias", bias)
    n.emit(LAYER_NORM.name, [n.inputs[0], wname, bname], axis=axis,
           eps=float(n.attrs.get("epsilon", 1e-5)))


def _row(shape, axis):
    return int(np.prod(shape[axis:], dtype=np.int64))


def _quantize(q, node):
    g = q.g
    x, y = g.values[node.inputs[0]], g.values[node.outputs[0]]
    row = _row(x.shape, node.attrs["axis"])
    if row > MAX_ROW:
        raise ir.CompileError(f"{node.where}: int8 layer normalisation over {row} > "
                              f"{MAX_ROW} elements")
    gamma = g.values[node.inputs[1]].const.astype(np.float64)
    beta = g.values[node.inputs[2]].const.astype(np.float64)
    w = np.floor(gamma * 2.0 ** WEIGHT_SHIFT / y.scale + 0.5)
    b = np.floor(beta / y.scale + 0.5)
    if np.any(np.abs(w) >= 2 ** 31) or np.any(np.abs(b) >= 2 ** 24):
        raise ir.CompileError(f"{node.where}: layer normalisation weight or bias too large "
                              "for the output's scale")
    node.inputs = [node.inputs[0],
                   g.add_const(node.outputs[0] + "::wq", w.astype(np.int32)),
                   g.add_const(node.outputs[0] + "::bq", b.astype(np.int32))]


def epsilon_units(eps, row, scale_in):
    """eps in units of s_in^2 / N^2, rounded, at most 2^31 - 1."""
    return int(min(math.floor(float(eps) * row * row / float(scale_in) ** 2 + 0.5), 2 ** 31 - 1))


def _float_args(g, node):
    return dict(axis=node.attrs["axis"], eps=node.attrs["eps"])


def _quantized_args(g, node):
    x, y = g.input_value(node), g.output_value(node)
    row = _row(x.shape, node.attrs["axis"])
    return dict(axis=node.attrs["axis"], zp_in=x.zero_point, zp_out=y.zero_point,
                eps_q=epsilon_units(node.attrs["eps"], row, x.scale))


def _layer_norm(ins, a, out):
    x, w, b = ins
    rows = x.reshape(-1, _row(x.shape, a.axis)).astype(np.float64)
    mean = rows.mean(axis=1, keepdims=True)
    var = ((rows - mean) ** 2).mean(axis=1, keepdims=True)
    y = (rows - mean) / np.sqrt(var + float(a.eps)) * w + b
    return y.astype(np.float32).reshape(x.shape)


def _isqrt(v):
    return np.array([math.isqrt(int(e)) for e in v.reshape(-1)], np.int64).reshape(v.shape)


def _quantized_layer_norm(ins, a, out):
    x, w, b = ins
    row = _row(x.shape, a.axis)
    d = x.reshape(-1, row).astype(np.int64) - a.zp_in
    s = d.sum(axis=1, keepdims=True)
    v = row * (d * d).sum(axis=1, keepdims=True) - s * s + a.eps_q
    den = _isqrt(v << 16) << 8
    num = (row * d - s) * w.astype(np.int64)
    q = np.where(den > 0, fx.div_round(num, np.maximum(den, 1)), 0)
    y = fx.saturate(q + b.astype(np.int64) + a.zp_out)
    return y.astype(np.int8).reshape(x.shape)


LAYER_NORM, QUANTIZED_LAYER_NORM = (
    hooks("aten::native_layer_norm.out", lower=_lower, quantize=_quantize, arg_values=_float_args,
          reference=_layer_norm),
    hooks("quantized_decomposed::layer_norm.out", arg_values=_quantized_args,
          reference=_quantized_layer_norm))
