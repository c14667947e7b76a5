"""The compiler's hooks for the masked softmax (socsim_schema/masking.py). Its nodes come
from the front-end pass passes/mask_softmax.py, which gives the axis and the mask."""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.hooks import hooks


def _quantize(q, node):
    x = q.g.values[node.inputs[0]]
    y = q.g.values[node.outputs[0]]
    y.scale, y.zero_point = 1.0 / 256.0, -128
    node.inputs = node.inputs[:2] + [
        q.g.add_const(node.outputs[0] + "::table", fx.softmax_table(x.scale))]


def _masked_softmax(ins, a, out):
    x, mask = ins[0].astype(np.float64), ins[1] != 0
    kept = np.where(mask, -np.inf, x)
    top = kept.max(axis=a.dim, keepdims=True)
    e = np.where(mask, 0.0, np.exp(kept - np.where(np.isfinite(top), top, 0.0)))
    total = e.sum(axis=a.dim, keepdims=True)
    return np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0).astype(np.float32)


def _quantized_masked_softmax(ins, a, out):
    x, mask, table = ins
    mask = mask != 0
    xi = x.astype(np.int64)
    top = np.where(mask, -128, xi).max(axis=a.dim, keepdims=True)
    e = np.where(mask, 0, table.astype(np.int64)[np.clip(top - xi, 0, 255)])
    total = e.sum(axis=a.dim, keepdims=True)
    r = fx.div_round(e * 256, np.maximum(total, 1)) - 128
    return fx.saturate(np.where(total > 0, r, -128)).astype(np.int8)


def _dim(g, node):
    return dict(dim=node.attrs["dim"])


MASKED_SOFTMAX, QUANTIZED_MASKED_SOFTMAX = (
    hooks("aten::_masked_softmax.out", quantize=_quantize, arg_values=_dim,
          reference=_masked_softmax),
    hooks("quantized_decomposed::masked_softmax.out", arg_values=_dim,
          reference=_quantized_masked_softmax))
