"""The compiler's hooks (quantisation, numpy reference) for the normalization family.

Its operators and their rules are declared in socsim_schema/normalization.py.
"""

import math

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir
from socsim_aot.schema.elementwise import ADD, MUL
from socsim_aot.schema.hooks import hooks

MAX_ROW = 4096
WEIGHT_SHIFT = 16


def _affine_steps(scale, bias):
    """The nodes of `normed * scale + bias` per channel: none for a unit scale and zero bias
    (torch's GroupNorm exports its InstanceNormalization so)."""
    scale = np.asarray(scale, np.float32).reshape(-1)
    bias = np.asarray(bias, np.float32).reshape(-1)
    steps = [(MUL, scale, "scale")] if np.any(scale != 1) else []
    return steps + ([(ADD, bias, "shift")] if np.any(bias != 0) else [])


def _emit_chain(n, first, inputs, out_shape, steps, **attrs):
    """`first` on `inputs` (shaped out_shape), then the per-channel affine steps; the last
    node writes the ONNX node's output."""
    if not steps:
        n.emit(first.name, inputs, **attrs)
        return
    normed = n.value("normalised", out_shape)
    n.emit_to(first.name, inputs, normed, **attrs)
    per_channel = (-1,) + (1,) * (len(out_shape) - 2)
    for i, (op, const, what) in enumerate(steps):
        cname = n.g.add_const(f"{n.outputs[0]}::{what}", const.reshape(per_channel))
        if i + 1 < len(steps):
            out = n.value(f"{what}d", out_shape)
            n.emit_to(op.name, [normed, cname], out)
            normed = out
        else:
            n.emit(op.name, [normed, cname])


def _unit_row(n, row):
    return (n.g.add_const(n.outputs[0] + "::unit_weight", np.ones(row, np.float32)),
            n.g.add_const(n.outputs[0] + "::zero_bias", np.zeros(row, np.float32)))


def _lower_instance_norm(n):
    """InstanceNormalization: each (batch, channel) plane normalised on its own is a layer
    normalisation over the axes from 2 on, then the per-channel scale and bias."""
    x = n.g.value(n.inputs[0])
    if len(x.shape) < 3:
        n.fail("InstanceNormalization needs [N, C, ...] with at least one spatial axis")
    channels = x.shape[1]
    scale = np.asarray(n.const(n.inputs[1], "the scale"), np.float32).reshape(-1)
    bias = np.asarray(n.const(n.inputs[2], "the bias"), np.float32).reshape(-1)
    if scale.size != channels or bias.size != channels:
        n.fail(f"scale and bias need {channels} values")
    ones, zeros = _unit_row(n, _row(x.shape, 2))
    _emit_chain(n, LAYER_NORM, [n.inputs[0], ones, zeros], x.shape, _affine_steps(scale, bias),
                axis=2, eps=float(n.attrs.get("epsilon", 1e-5)))


def _lower_group_norm(n):
    """GroupNormalization (opset 18: scale and bias per group; 21: per channel): the groups'
    channels as rows of a layer normalisation ([N, G, C / G x spatial]), then the affine."""
    from socsim_aot.schema.data_movement import VIEW_COPY
    x = n.g.value(n.inputs[0])
    groups = int(n.attrs["num_groups"])
    channels = x.shape[1] if len(x.shape) > 1 else 0
    if len(x.shape) < 3 or groups < 1 or channels % groups:
        n.fail(f"GroupNormalization of {x.shape} in {groups} groups is not supported")
    scale = np.asarray(n.const(n.inputs[1], "the scale"), np.float32).reshape(-1)
    bias = np.asarray(n.const(n.inputs[2], "the bias"), np.float32).reshape(-1)
    if scale.size == groups and bias.size == groups and groups != channels:
        scale, bias = (np.repeat(v, channels // groups) for v in (scale, bias))
    if scale.size != channels or bias.size != channels:
        n.fail(f"scale and bias need {channels} (or {groups}) values")
    rows = [x.shape[0], groups, _row(x.shape, 1) // groups]
    grouped = n.value("grouped", rows)
    n.emit_to(VIEW_COPY.name, [n.inputs[0]], grouped)
    ones, zeros = _unit_row(n, rows[2])
    normed = n.value("group_normalised", rows)
    n.emit_to(LAYER_NORM.name, [grouped, ones, zeros], normed, axis=2,
              eps=float(n.attrs.get("epsilon", 1e-5)))
    _emit_chain(n, VIEW_COPY, [normed], x.shape, _affine_steps(scale, bias))


def _lower(n):
    if n.op_type == "InstanceNormalization":
        _lower_instance_norm(n)
        return
    if n.op_type == "GroupNormalization":
        _lower_group_norm(n)
        return
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


def _batch_norm(ins, a, out):
    """Per channel of axis 1: invstd in double precision rounded to float32, then each step
    in float32."""
    x, weight, bias, mean, var = ins
    shape = (1, -1) + (1,) * (x.ndim - 2)
    invstd = (1.0 / np.sqrt(var.astype(np.float64) + float(a.eps))).astype(np.float32)
    y = (x - mean.reshape(shape)).astype(np.float32)
    y = (y * invstd.reshape(shape)).astype(np.float32)
    y = (y * weight.reshape(shape)).astype(np.float32)
    return (y + bias.reshape(shape)).astype(np.float32)


(BATCH_NORM,) = (hooks("aten::_native_batch_norm_legit_no_training.out", reference=_batch_norm),)


def _sumsq_stats(x, axis, eps):
    """ExecuTorch's per-row mean and std in float32: sums from 0 in element order (cumsum is
    sequential), var = E[x^2] - mean^2."""
    f = np.float32
    rows = np.asarray(x, f).reshape(-1, _row(x.shape, axis))
    n = f(rows.shape[1])
    total = np.cumsum(rows, axis=1, dtype=f)[:, -1]
    squares = np.cumsum(rows * rows, axis=1, dtype=f)[:, -1]
    mean = (total / n).astype(f)
    std = np.sqrt((squares / n - mean * mean + f(eps)).astype(f)).astype(f)
    return rows, mean, std


def _layer_norm_sumsq(ins, a, out):
    x, w, b = ins
    rows, mean, std = _sumsq_stats(x, a.axis, a.eps)
    y = ((rows - mean[:, None]) / std[:, None] * w.reshape(1, -1) + b.reshape(1, -1))
    return y.astype(np.float32).reshape(x.shape)


def _layer_norm_stat(ins, a, out):
    _, mean, std = _sumsq_stats(ins[0], a.axis, a.eps)
    stat = mean if a.stat == 0 else (1.0 / std.astype(np.float64)).astype(np.float32)
    return stat.reshape(out.shape)


LAYER_NORM_SUMSQ, LAYER_NORM_STAT = (
    hooks("aten::native_layer_norm_sumsq.out", reference=_layer_norm_sumsq),
    hooks("aten::native_layer_norm_stat.out", reference=_layer_norm_stat))
