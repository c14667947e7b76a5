"""Runs a TensorFlow Lite int8 model (tflite_reader.Model) with TFLite's integer rules, in numpy.

The reference for socsim's `.tflite` support: every operator follows the integer arithmetic
of TFLite's reference kernels (tflite_arith.py), so that its outputs equal those of the
reference interpreter (ai-edge-litert, OpResolverType.BUILTIN_REF) bit for bit; the
checked-in fixtures of tests/runtime/tflite/ hold that interpreter's outputs
(scripts/test/test_tflite.py compares). Tensors are NHWC as in the model.

`run(model, inputs)` returns the outputs; `UnsupportedOperator` names an operator (or an
option of one) that is not implemented.
"""

import math
from typing import Dict, List

import numpy as np

from socsim_aot import tflite_arith as ta
from socsim_aot.tflite_reader import ACTIVATIONS, Model, Operator, Tensor


class UnsupportedOperator(Exception):
    """An operator, version or option without an implementation; one line."""


# ---- vectorised fixed point (int64 arrays holding int32 values) ------------------------------

def _srdhm(a, b):
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    ab = a * b
    nudge = np.where(ab >= 0, np.int64(1 << 30), np.int64(1 - (1 << 30)))
    s = ab + nudge
    q = np.where(s >= 0, s >> 31, -((-s) >> 31))  # C division truncates
    overflow = (a == ta.INT32_MIN) & (b == ta.INT32_MIN)
    return np.where(overflow, np.int64(ta.INT32_MAX), q)


def _rdbpot(x, exponent):
    x = np.asarray(x, np.int64)
    exponent = np.asarray(exponent, np.int64)
    mask = (np.int64(1) << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def mbqm(x, m, exponent, single=False):
    """MultiplyByQuantizedMultiplier, element-wise (m, exponent may be per channel arrays):
    TFLite's single-rounding form, (x m + 2^(30 - e)) >> (31 - e), as the reference kernels of
    the published ai-edge-litert builds compute it (TFLITE_SINGLE_ROUNDING; the double-rounding
    form, a rounding doubling high multiply then a rounding shift, differs on ties)."""
    if single:
        total = 31 - np.asarray(exponent, np.int64)
        return (np.asarray(x, np.int64) * np.asarray(m, np.int64) +
                (np.int64(1) << (total - 1))) >> total
    return mbqm_double(x, m, exponent)


def mbqm_double(x, m, exponent):
    """The double-rounding MultiplyByQuantizedMultiplier (gemmlowp's)."""
    exponent = np.asarray(exponent, np.int64)
    left = np.where(exponent > 0, exponent, 0)
    right = np.where(exponent > 0, 0, -exponent)
    shifted = np.asarray(x, np.int64) << left
    shifted = ((shifted + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)
    return _rdbpot(_srdhm(shifted, m), right)


def multipliers(reals):
    pairs = [ta.quantize_multiplier(float(r)) for r in np.atleast_1d(reals)]
    return (np.array([p[0] for p in pairs], np.int64), np.array([p[1] for p in pairs], np.int64))


# ---- helpers ---------------------------------------------------------------------------------

def _q(t: Tensor):
    if t.scale is None:
        raise UnsupportedOperator(f"tensor {t.index} '{t.name}' has no quantisation")
    return float(t.scale[0]), int(t.zero_point[0])


def _limits(dtype: str):
    return {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}[dtype]


def activation_range(fused: int, t: Tensor):
    """TFLite's CalculateActivationRangeQuantized for an output tensor."""
    lo, hi = _limits(t.dtype)
    scale, zp = _q(t)
    name = ACTIVATIONS.get(fused, str(fused))

    def q(f):
        return zp + ta.tf_round(float(np.float32(f) / np.float32(scale)))
    if name == "NONE":
        return lo, hi
    if name == "RELU":
        return max(lo, q(0.0)), hi
    if name == "RELU6":
        return max(lo, q(0.0)), min(hi, q(6.0))
    if name == "RELU_N1_TO_1":
        return max(lo, q(-1.0)), min(hi, q(1.0))
    raise UnsupportedOperator(f"fused activation {name} is not supported")


def _padding(kind, in_size, k, stride, dilation):
    eff = (k - 1) * dilation + 1
    if kind == 0:  # SAME
        out = (in_size + stride - 1) // stride
    else:
        out = (in_size + stride - eff) // stride
    total = max((out - 1) * stride + eff - in_size, 0)
    return out, total // 2


def _store(t: Tensor, values, lo=None, hi=None):
    tlo, thi = _limits(t.dtype)
    lo = tlo if lo is None else lo
    hi = thi if hi is None else hi
    return np.clip(values, lo, hi).astype(np.dtype(t.dtype))


# ---- operators -------------------------------------------------------------------------------

def _conv(op, ts, x, depthwise):
    inp, w, bias, out = ts[op.inputs[0]], ts[op.inputs[1]], \
        (ts[op.inputs[2]] if len(op.inputs) > 2 and op.inputs[2] >= 0 else None), ts[op.outputs[0]]
    o = op.options
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    wq = w.data.astype(np.int64)  # conv [O, KH, KW, I]; depthwise [1, KH, KW, O]
    kh, kw = wq.shape[1], wq.shape[2]
    n, h, wd, c = x.shape
    oh, pt = _padding(o["padding"], h, kh, o["stride_h"], o["dilation_h"])
    ow, pl = _padding(o["padding"], wd, kw, o["stride_w"], o["dilation_w"])
    cout = out.shape[3]
    xs = x.astype(np.int64) - zp_in
    padded = np.zeros((n, h + 2 * kh * o["dilation_h"] + o["stride_h"] * oh,
                       wd + 2 * kw * o["dilation_w"] + o["stride_w"] * ow, c), np.int64)
    padded[:, pt:pt + h, pl:pl + wd, :] = xs
    acc = np.zeros((n, oh, ow, cout), np.int64)
    for i in range(kh):
        for j in range(kw):
            y0, x0 = i * o["dilation_h"], j * o["dilation_w"]
            patch = padded[:, y0:y0 + o["stride_h"] * oh:o["stride_h"],
                           x0:x0 + o["stride_w"] * ow:o["stride_w"], :]
            if depthwise:
                mult = cout // c
                acc += np.repeat(patch, mult, axis=3) * wq[0, i, j, :]
            else:
                acc += np.einsum("nhwc,oc->nhwo", patch, wq[:, i, j, :])
    if bias is not None:
        acc += bias.data.astype(np.int64)
    ws = w.scale.astype(np.float64)
    if ws.size == 1:
        ws = np.full(cout, ws[0])
    m, e = multipliers(np.float64(s_in) * ws / np.float64(s_out))
    y = mbqm(acc, m, e) + zp_out
    lo, hi = activation_range(o["fused_activation"], out)
    return [_store(out, y, lo, hi)]


def _fully_connected(op, ts, x):
    inp, w, out = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    bias = ts[op.inputs[2]] if len(op.inputs) > 2 and op.inputs[2] >= 0 else None
    if w.data is None:
        raise UnsupportedOperator(f"{op.where}: non-constant weights are not supported")
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    wq = w.data.astype(np.int64)
    wzp = int(w.zero_point[0])
    rows = x.reshape(-1, wq.shape[1]).astype(np.int64) - zp_in
    acc = rows @ (wq - wzp).T
    if bias is not None:
        acc += bias.data.astype(np.int64)
    ws = w.scale.astype(np.float64)
    m, e = multipliers(np.float64(s_in) * ws / np.float64(s_out))
    y = mbqm(acc, m, e, single=True) + zp_out
    lo, hi = activation_range(op.options["fused_activation"], out)
    return [_store(out, y.reshape(out.shape), lo, hi)]


def _add_sub(op, ts, a, b, sign):
    ta_, tb, out = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    s1, z1 = _q(ta_)
    s2, z2 = _q(tb)
    so, zo = _q(out)
    left = 20
    twice_max = 2.0 * float(max(np.float32(s1), np.float32(s2)))
    m1, e1 = ta.quantize_multiplier(s1 / twice_max)
    m2, e2 = ta.quantize_multiplier(s2 / twice_max)
    mo, eo = ta.quantize_multiplier(twice_max / float(np.float32((1 << left) * np.float32(so))))
    sa = mbqm((a.astype(np.int64) - z1) << left, m1, e1)
    sb = mbqm((b.astype(np.int64) - z2) << left, m2, e2)
    raw = sa + sign * sb
    y = mbqm(raw, mo, eo) + zo
    lo, hi = activation_range(op.options.get("fused_activation", 0), out)
    return [_store(out, np.broadcast_to(y, out.shape), lo, hi)]


def _mul(op, ts, a, b):
    ta_, tb, out = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    s1, z1 = _q(ta_)
    s2, z2 = _q(tb)
    so, zo = _q(out)
    m, e = ta.quantize_multiplier(float(np.float64(s1) * np.float64(s2) / np.float64(so)))
    prod = (a.astype(np.int64) - z1) * (b.astype(np.int64) - z2)
    y = mbqm(prod, m, e) + zo
    lo, hi = activation_range(op.options.get("fused_activation", 0), out)
    return [_store(out, np.broadcast_to(y, out.shape), lo, hi)]


def _pool(op, ts, x, average):
    out = ts[op.outputs[0]]
    o = op.options
    n, h, w, c = x.shape
    oh, pt = _padding(o["padding"], h, o["filter_h"], o["stride_h"], 1)
    ow, pl = _padding(o["padding"], w, o["filter_w"], o["stride_w"], 1)
    y = np.zeros((n, oh, ow, c), np.int64)
    for i in range(oh):
        for j in range(ow):
            y0, x0 = i * o["stride_h"] - pt, j * o["stride_w"] - pl
            ys, ye = max(y0, 0), min(y0 + o["filter_h"], h)
            xs, xe = max(x0, 0), min(x0 + o["filter_w"], w)
            win = x[:, ys:ye, xs:xe, :].astype(np.int64)
            if average:
                count = (ye - ys) * (xe - xs)
                s = win.sum(axis=(1, 2))
                half = count // 2
                y[:, i, j, :] = np.where(s > 0, (s + half) // count,
                                         -((-(s - half)) // count))
            else:
                y[:, i, j, :] = win.max(axis=(1, 2))
    lo, hi = activation_range(o["fused_activation"], out)
    return [_store(out, y, lo, hi)]


def _mean(op, ts, x):
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    axes = tuple(int(a) % x.ndim for a in np.atleast_1d(ts[op.inputs[1]].data))
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    count = int(np.prod([x.shape[a] for a in axes]))
    # sum(x - zp_in) scaled by s_in / (count s_out): the fixtures' rule (scales differ); a
    # mean whose input and output share their quantisation is computed the same way here.
    total = (x.astype(np.int64) - zp_in).sum(axis=axes, keepdims=True)
    m, e = ta.quantize_multiplier(float(np.float32(s_in) / (np.float32(count) *
                                                              np.float32(s_out))))
    y = mbqm(total, m, e) + zp_out
    return [_store(out, y.reshape(out.shape))]


def _softmax(op, ts, x):
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    s_in, _ = _q(inp)
    beta = float(op.options["beta"])
    diff_bits = 5
    real = min(beta * float(s_in) * (1 << (31 - diff_bits)), (1 << 31) - 1.0)
    m, left = ta.quantize_multiplier(real)
    diff_min = -ta.input_radius(diff_bits, left)
    rows = x.reshape(-1, x.shape[-1]).astype(np.int64)
    y = np.empty_like(rows)
    out_min, out_max = _limits(out.dtype)
    for r, row in enumerate(rows):
        top = int(row.max())
        exps = []
        total = 0
        for v in row:
            d = int(v) - top
            if d >= diff_min:
                scaled = ta.srdhm(ta.wrap32(d * (1 << left)), m)
                e = ta.exp_on_negative_values(scaled, diff_bits)
                exps.append(e)
                total = ta.wrap32(total + ta.rescale(e, 0, 12))
            else:
                exps.append(None)
        scale, bits_over = ta.reciprocal(total, 12)
        for k, e in enumerate(exps):
            if e is None:
                y[r, k] = out_min
            else:
                bits = 8 if out.dtype in ("int8", "uint8") else 16
                v = ta.rounding_divide_by_pot(ta.srdhm(scale, e), bits_over + 31 - bits)
                y[r, k] = max(out_min, min(out_max, v + out_min))
    return [_store(out, y.reshape(out.shape))]


def _logistic_tanh(op, ts, x, tanh):
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    s_in, zp_in = _q(inp)
    m, left = ta.quantize_multiplier(float(s_in) * (1 << (31 - 4)))
    radius = ta.input_radius(4, left)
    table = np.empty(256, np.int64)
    for q in range(-128, 128):
        d = q - zp_in
        if d <= -radius:
            v = -128
        elif d >= radius:
            v = 127
        else:
            a = ta.multiply_by_quantized_multiplier(d, m, left)
            if tanh:
                v = ta.rounding_divide_by_pot(ta.tanh_q(a, 4), 31 - 7)
            else:
                v = ta.rounding_divide_by_pot(ta.logistic_q(a, 4), 31 - 8) - 128
            v = max(-128, min(127, v))
        table[q + 128] = v
    return [_store(out, table[x.astype(np.int64) + 128])]


def _hard_swish(op, ts, x):
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    hires = np.float32(1.0 / 128.0) * np.float32(s_in)
    om, oe = ta.quantize_multiplier(float(hires / np.float32(s_out)))
    rm, re_ = ta.quantize_multiplier(float(hires / np.float32(3.0 / 32768.0)))
    om16, rm16 = ta.downscale_multiplier16(om), ta.downscale_multiplier16(rm)
    table = np.empty(256, np.int64)
    for q in range(-128, 128):
        v = ta.wrap16(q - zp_in)
        hi_res = ta.wrap16(v * 128)
        pre_out = ta.srdhm16(hi_res, om16)
        reluish = hi_res
        if re_ > 0:
            reluish = ta.saturating_left_shift16(reluish, re_ - 1)
        reluish = ta.srdhm16(reluish, rm16)
        if re_ > 0:
            reluish = ta.saturating_left_shift16(reluish, 1)
        if re_ < 0:
            reluish = ta.rounding_divide_by_pot(reluish, -re_)
        reluish = ta.wrap16((reluish + (1 << 15)) >> 1)
        pre_shift = ta.sdhm16(reluish, pre_out)
        o = ta.rounding_divide_by_pot(pre_shift, -oe) + zp_out
        table[q + 128] = max(-128, min(127, o))
    return [_store(out, table[x.astype(np.int64) + 128])]


def _requantize_unary(op, ts, x, lo_hi):
    """RELU, RELU6: rescale to the output's quantisation and clamp."""
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    m, e = ta.quantize_multiplier(float(np.float64(s_in) / np.float64(s_out)))
    y = mbqm(x.astype(np.int64) - zp_in, m, e) + zp_out
    lo, hi = lo_hi(out)
    return [_store(out, y, lo, hi)]


def _leaky_relu(op, ts, x):
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    alpha = np.float32(op.options["alpha"])
    ma, ea = ta.quantize_multiplier(float(np.float32(s_in) * alpha / np.float32(s_out)))
    mi, ei = ta.quantize_multiplier(float(np.float32(s_in) / np.float32(s_out)))
    d = x.astype(np.int64) - zp_in
    y = np.where(d >= 0, mbqm(d, mi, ei), mbqm(d, ma, ea)) + zp_out
    return [_store(out, y)]


def _quantize(op, ts, x):
    inp, out = ts[op.inputs[0]], ts[op.outputs[0]]
    s_out, zp_out = _q(out)
    if inp.dtype == "float32":
        # TfLiteRound(x / float(scale)): float32 division, halves away from zero (exact in
        # float64 for a float32 quotient)
        v = (x.astype(np.float32) / np.float32(s_out)).astype(np.float64)
        r = np.sign(v) * np.floor(np.abs(v) + 0.5)
        return [_store(out, r.astype(np.int64) + zp_out)]
    s_in, zp_in = _q(inp)
    m, e = ta.quantize_multiplier(float(np.float64(s_in) / np.float64(s_out)))
    return [_store(out, mbqm(x.astype(np.int64) - zp_in, m, e) + zp_out)]


def _dequantize(op, ts, x):
    s, zp = _q(ts[op.inputs[0]])
    return [(np.float64(s) * (x.astype(np.int64) - zp)).astype(np.float32)]


def _strided_slice(op, ts, x):
    o = op.options
    if o["ellipsis_mask"] or o["new_axis_mask"] or o.get("offset"):
        raise UnsupportedOperator(f"{op.where}: ellipsis, new axis and offset masks are not "
                                  "supported")
    begin, end, strides = (ts[i].data for i in op.inputs[1:4])
    index = []
    for a in range(x.ndim):
        if o["shrink_axis_mask"] >> a & 1:
            index.append(int(begin[a]))
            continue
        b = None if o["begin_mask"] >> a & 1 else int(begin[a])
        e = None if o["end_mask"] >> a & 1 else int(end[a])
        index.append(slice(b, e, int(strides[a])))
    return [x[tuple(index)]]


def nearest_indices(o_size, i_size, ac, hp):
    """RESIZE_NEAREST_NEIGHBOR's source index of every output position along one axis."""
    scale = np.float32((i_size - 1) / (o_size - 1)) if ac and o_size > 1 else \
        np.float32(i_size) / np.float32(o_size)
    off = np.float32(0.5 if hp else 0.0)
    res = []
    for v in range(o_size):
        f = (np.float32(v) + off) * scale
        k = ta.tf_round(float(f)) if ac else int(math.floor(f))
        k = min(k, i_size - 1)
        res.append(max(k, 0) if hp else k)
    return res


def _resize_nearest(op, ts, x):
    out = ts[op.outputs[0]]
    ac, hp = op.options["align_corners"], op.options["half_pixel_centers"]
    ys = nearest_indices(out.shape[1], x.shape[1], ac, hp)
    xs = nearest_indices(out.shape[2], x.shape[2], ac, hp)
    # one gather of both axes: no intermediate of the output's rows by the input's columns
    return [x[:, np.asarray(ys)[:, None], np.asarray(xs)[None, :]]]


def bilinear_coords(o_size, i_size, ac, hp):
    """RESIZE_BILINEAR's (source position in 1/1024ths, first, second source index) of every
    output position along one axis."""
    if ac and o_size > 1:
        s10 = ((1 << 10) * (i_size - 1) + (o_size - 1) // 2) // (o_size - 1)
    else:
        s10 = ((1 << 10) * i_size + o_size // 2) // o_size
    res = []
    for v in range(o_size):
        sv = v * s10 + s10 // 2 - (1 << 9) if hp else v * s10
        lo = max(ta.trunc_div(sv, 1 << 10), 0)
        hi = min(ta.trunc_div(sv + (1 << 10) - 1, 1 << 10), i_size - 1)
        res.append((sv, lo, hi))
    return res


def _resize_bilinear(op, ts, x):
    out = ts[op.outputs[0]]
    ac, hp = op.options["align_corners"], op.options["half_pixel_centers"]

    def coords(o_size, i_size):
        return bilinear_coords(o_size, i_size, ac, hp)
    xi = x.astype(np.int64)
    y = np.zeros(out.shape, np.int64)
    for i, (iy, y0, y1) in enumerate(coords(out.shape[1], x.shape[1])):
        for j, (ix, x0, x1) in enumerate(coords(out.shape[2], x.shape[2])):
            dy, dx = iy - (1 << 10) * y0, ix - (1 << 10) * x0
            v = (xi[:, y0, x0] * ((1 << 10) - dy) * ((1 << 10) - dx) +
                 xi[:, y1, x0] * dy * ((1 << 10) - dx) +
                 xi[:, y0, x1] * ((1 << 10) - dy) * dx + xi[:, y1, x1] * dy * dx)
            r = np.where(v > 0, v + (1 << 19), v - (1 << 19))
            y[:, i, j] = np.where(r >= 0, r >> 20, -((-r) >> 20))
    return [_store(out, y)]


def _run_transpose_conv(op, ts, x):
    """Inputs: output shape, weights [O, KH, KW, I], input, optional bias."""
    w, inp, out = ts[op.inputs[1]], ts[op.inputs[2]], ts[op.outputs[0]]
    bias = ts[op.inputs[3]] if len(op.inputs) > 3 and op.inputs[3] >= 0 else None
    o = op.options
    s_in, zp_in = _q(inp)
    s_out, zp_out = _q(out)
    wq = w.data.astype(np.int64)  # [O, KH, KW, I]
    cout, kh, kw, _ = wq.shape
    n, oh, ow, _ = out.shape
    _, pt = _padding(o["padding"], oh, kh, o["stride_h"], 1)
    _, pl = _padding(o["padding"], ow, kw, o["stride_w"], 1)
    _, h, wd, _ = x.shape
    acc = np.zeros((n, oh + kh + o["stride_h"] * h, ow + kw + o["stride_w"] * wd, cout), np.int64)
    xs = x.astype(np.int64) - zp_in
    for i in range(kh):
        for j in range(kw):
            contrib = np.einsum("nhwc,oc->nhwo", xs, wq[:, i, j, :])
            acc[:, i:i + o["stride_h"] * h:o["stride_h"],
                j:j + o["stride_w"] * wd:o["stride_w"], :] += contrib
    acc = acc[:, pt:pt + oh, pl:pl + ow, :]
    if bias is not None:
        acc = acc + bias.data.astype(np.int64)
    ws = w.scale.astype(np.float64)
    if ws.size == 1:
        ws = np.full(cout, ws[0])
    m, e = multipliers(np.float64(s_in) * ws / np.float64(s_out))
    y = mbqm(acc, m, e) + zp_out
    lo, hi = activation_range(o.get("fused_activation", 0), out)
    return [_store(out, y, lo, hi)]


def _relu_bounds(six):
    def bounds(out):
        lo, hi = activation_range(3 if six else 1, out)
        return lo, hi
    return bounds


def _const(ts, i):
    return ts[i].data


# opcode -> fn(op, tensors, inputs (arrays of the non-constant operands first)) -> outputs
def _dispatch(op: Operator, ts: List[Tensor], vals: List[np.ndarray]):
    c = op.opcode
    if c == "CONV_2D":
        return _conv(op, ts, vals[0], False)
    if c == "DEPTHWISE_CONV_2D":
        return _conv(op, ts, vals[0], True)
    if c == "FULLY_CONNECTED":
        return _fully_connected(op, ts, vals[0])
    if c in ("ADD", "SUB"):
        return _add_sub(op, ts, vals[0], vals[1], 1 if c == "ADD" else -1)
    if c == "MUL":
        return _mul(op, ts, vals[0], vals[1])
    if c in ("AVERAGE_POOL_2D", "MAX_POOL_2D"):
        return _pool(op, ts, vals[0], c == "AVERAGE_POOL_2D")
    if c == "MEAN":
        return _mean(op, ts, vals[0])
    if c in ("RESHAPE", "SQUEEZE", "EXPAND_DIMS"):
        return [vals[0].reshape(ts[op.outputs[0]].shape)]
    if c == "SOFTMAX":
        return _softmax(op, ts, vals[0])
    if c in ("LOGISTIC", "TANH"):
        return _logistic_tanh(op, ts, vals[0], c == "TANH")
    if c == "HARD_SWISH":
        return _hard_swish(op, ts, vals[0])
    if c in ("RELU", "RELU6"):
        return _requantize_unary(op, ts, vals[0], _relu_bounds(c == "RELU6"))
    if c == "LEAKY_RELU":
        return _leaky_relu(op, ts, vals[0])
    if c == "CONCATENATION":
        out = ts[op.outputs[0]]
        for i in op.inputs:
            if _q(ts[i]) != _q(out):
                raise UnsupportedOperator(f"{op.where}: inputs quantised unlike the output")
        return [np.concatenate(vals, axis=op.options["axis"] % vals[0].ndim)]
    if c in ("PAD", "PADV2"):
        pads = _const(ts, op.inputs[1]).astype(int)
        fill = _q(ts[op.outputs[0]])[1] if c == "PAD" else int(_const(ts, op.inputs[2]))
        return [np.pad(vals[0], [tuple(p) for p in pads], constant_values=fill)]
    if c == "QUANTIZE":
        return _quantize(op, ts, vals[0])
    if c == "DEQUANTIZE":
        return _dequantize(op, ts, vals[0])
    if c == "TRANSPOSE":
        return [np.transpose(vals[0], _const(ts, op.inputs[1]).astype(int))]
    if c == "STRIDED_SLICE":
        return _strided_slice(op, ts, vals[0])
    if c == "SPLIT":
        axis = int(_const(ts, op.inputs[0])) % vals[1].ndim
        return np.split(vals[1], op.options["num_splits"], axis=axis)
    if c == "RESIZE_NEAREST_NEIGHBOR":
        return _resize_nearest(op, ts, vals[0])
    if c == "RESIZE_BILINEAR":
        return _resize_bilinear(op, ts, vals[0])
    if c == "TRANSPOSE_CONV":
        return _run_transpose_conv(op, ts, vals[2])
    raise UnsupportedOperator(f"{op.where}: operator {c} is not supported")


def run(model: Model, inputs: List[np.ndarray]) -> List[np.ndarray]:
    ts = model.tensors
    env: Dict[int, np.ndarray] = {}
    if len(inputs) != len(model.inputs):
        raise ValueError(f"{len(inputs)} inputs given, the model has {len(model.inputs)}")
    for i, arr in zip(model.inputs, inputs):
        env[i] = np.asarray(arr).astype(ts[i].dtype).reshape(ts[i].shape)
    for op in model.operators:
        vals = []
        for i in op.inputs:
            if i < 0:
                vals.append(None)
            elif i in env:
                vals.append(env[i])
            elif ts[i].data is not None:
                vals.append(ts[i].data)
            else:
                raise UnsupportedOperator(f"{op.where}: input tensor {i} has no value")
        results = _dispatch(op, ts, vals)
        for i, r in zip(op.outputs, results):
            env[i] = np.asarray(r).reshape(ts[i].shape)
    return [env[i] for i in model.outputs]
