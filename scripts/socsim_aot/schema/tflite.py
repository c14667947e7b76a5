"""The compiler's hooks (numpy reference) for the operators with TFLite's integer rules.

Its operators and their rules are declared in socsim_schema/tflite.py; the TFLite front end
(tflite_frontend.py) sets their arguments.
"""

import numpy as np

from socsim_aot import tflite_eval
from socsim_aot.schema.hooks import hooks


def _add_args(g, node):
    return dict(node.attrs["args"])


def _add(ins, a, out):
    x, y = ins
    sa = tflite_eval.mbqm_double((x.astype(np.int64) - a.zp_a) << 20, a.m_a, a.e_a)
    sb = tflite_eval.mbqm_double((y.astype(np.int64) - a.zp_b) << 20, a.m_b, a.e_b)
    r = tflite_eval.mbqm_double(sa + sb, a.m_out, a.e_out) + a.zp_out
    return np.clip(np.broadcast_to(r, out.shape), a.act_min, a.act_max).astype(np.int8)


TFLITE_ADD, = (
    hooks("tflite::add.out", arg_values=_add_args, reference=_add),)


def _sub(ins, a, out):
    x, y = ins
    sa = tflite_eval.mbqm_double((x.astype(np.int64) - a.zp_a) << 20, a.m_a, a.e_a)
    sb = tflite_eval.mbqm_double((y.astype(np.int64) - a.zp_b) << 20, a.m_b, a.e_b)
    r = tflite_eval.mbqm_double(sa - sb, a.m_out, a.e_out) + a.zp_out
    return np.clip(np.broadcast_to(r, out.shape), a.act_min, a.act_max).astype(np.int8)


def _mul(ins, a, out):
    x, y = ins
    prod = (x.astype(np.int64) - a.zp_a) * (y.astype(np.int64) - a.zp_b)
    r = tflite_eval.mbqm_double(prod, a.m, a.e) + a.zp_out
    return np.clip(np.broadcast_to(r, out.shape), a.act_min, a.act_max).astype(np.int8)


def _lookup(ins, a, out):
    x, table = ins
    return table[x.astype(np.int64) + 128].astype(np.int8)


TFLITE_SUB, TFLITE_MUL, TFLITE_LOOKUP = (
    hooks("tflite::sub.out", arg_values=_add_args, reference=_sub),
    hooks("tflite::mul.out", arg_values=_add_args, reference=_mul),
    hooks("tflite::lookup.out", reference=_lookup))


def _mean_args(g, node):
    return dict(node.attrs["args"])


def _mean(ins, a, out):
    axes = tuple(i for i, r in enumerate(a.reduce) if r)
    total = (ins[0].astype(np.int64) - a.zp_in).sum(axis=axes, keepdims=True)
    r = tflite_eval.mbqm_double(total, a.m, a.e) + a.zp_out
    return np.clip(r, -128, 127).astype(np.int8).reshape(out.shape)


TFLITE_MEAN = hooks("tflite::mean.out", arg_values=_mean_args, reference=_mean)


def _resize_bilinear(ins, a, out):
    x, rows, cols = ins
    xi = x.astype(np.int64)
    y = np.zeros(out.shape, np.int64)
    one = 1 << 10
    for i, (sy, y0, y1) in enumerate(rows.astype(np.int64)):
        for j, (sx, x0, x1) in enumerate(cols.astype(np.int64)):
            dy, dx = sy - one * y0, sx - one * x0
            v = (xi[:, y0, x0] * (one - dy) * (one - dx) + xi[:, y1, x0] * dy * (one - dx) +
                 xi[:, y0, x1] * (one - dy) * dx + xi[:, y1, x1] * dy * dx)
            r = np.where(v > 0, v + (1 << 19), v - (1 << 19))
            y[:, i, j] = np.where(r >= 0, r >> 20, -((-r) >> 20))
    return np.clip(y, -128, 127).astype(np.int8)


TFLITE_RESIZE_BILINEAR = hooks("tflite::resize_bilinear.out", reference=_resize_bilinear)


def tflite_quantize_f32(x, scale, zero_point):
    """TFLite's float32 -> int8 QUANTIZE: round(x / scale) (float32 division, halves away from
    zero) + zero_point, clamped; NaN gives -128."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        v = (np.asarray(x, np.float32) / np.float32(scale)).astype(np.float64)
        r = np.sign(v) * np.floor(np.abs(v) + 0.5) + zero_point  # exact for float32 v
    r = np.where(np.isnan(r), -128.0, r)
    return np.clip(r, -128, 127).astype(np.int8)


TFLITE_QUANTIZE = hooks(
    "tflite::quantize.out", arg_values=_add_args,
    reference=lambda ins, a, out: tflite_quantize_f32(ins[0], a.scale, a.zero_point))


def _lookup_bytes(ins, a, out):
    from socsim_aot import program_format
    x, table = ins
    first = -128 if x.dtype == np.int8 else 0
    return table.astype(np.uint8)[x.astype(np.int64) - first].view(
        program_format.DTYPES[out.dtype])


TFLITE_LOOKUP_BYTES = hooks("tflite::lookup_bytes.out", reference=_lookup_bytes)
