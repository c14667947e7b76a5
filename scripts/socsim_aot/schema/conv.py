"""The compiler's hooks (quantisation, numpy reference) for the conv family.

Its operators and their rules are declared in socsim_schema/conv.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir
from socsim_aot import tflite_eval
from socsim_aot.schema.hooks import hooks

# The bit of a requantisation table's shift column selecting TFLite's rounding
# (firmware/int8/tflite_rounding.h, kTfliteRounding).
TFLITE_ROUNDING = 0x100


def window_out(size, k, s, p0, p1, dil, ceil_mode):
    """Output length of a sliding window (the kernels' window_out_size)."""
    span = dil * (k - 1) + 1
    room = size + p0 + p1 - span
    out = (-(-room // s) if ceil_mode else room // s) + 1
    if ceil_mode and (out - 1) * s >= size + p0:
        out -= 1
    return out


def _axis_reads(size, s, p, offset, out):
    """Along one axis, for the kernel element at `offset` (dilation counted): the output
    slice whose windows read an input element there (not padding), and the input slice they
    read; None if every window reads padding there."""
    first = offset - p  # the input index output 0 reads
    lo = 0 if first >= 0 else -(first // s)
    hi = min(out, (size - 1 - first) // s + 1) if size - 1 - first >= 0 else 0
    if lo >= hi:
        return None
    start = first + lo * s
    return slice(lo, hi), slice(start, start + (hi - lo - 1) * s + 1, s)


def windows(shape, kh, kw, sh, sw, pt, pl, oh, ow, dh=1, dw=1):
    """Yields (ky, kx, at, read) for every kernel element that some window reads from the
    input rather than from its padding: out[at][..., i, j] is the window whose element
    (ky, kx) is x[read][..., i, j]. The padding is never made (pads of up to 65,536 would
    be gigabytes): what a padded element adds is the caller's starting value."""
    h, w = shape[-2], shape[-1]
    columns = [(kx, r) for kx, r in ((kx, _axis_reads(w, sw, pl, kx * dw, ow))
                                     for kx in range(kw)) if r is not None]
    for ky in range(kh):
        rows = _axis_reads(h, sh, pt, ky * dh, oh)
        if rows is None:
            continue
        for kx, cols in columns:
            yield ky, kx, (Ellipsis, rows[0], cols[0]), (Ellipsis, rows[1], cols[1])


def conv2d_nchw(x, w, stride, pads, dilation, groups, acc_dtype):
    """Convolution of x (already offset by its zero point) with w; padding contributes 0."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    pt, pl, pb, pr = pads
    sh, sw = stride
    dh, dw = dilation
    oh = window_out(h, kh, sh, pt, pb, dh, False)
    ow = window_out(wd, kw, sw, pl, pr, dw, False)
    x = x.astype(acc_dtype)
    w = w.astype(acc_dtype)
    out = np.zeros((n, m, oh, ow), dtype=acc_dtype)
    mg = m // groups
    if cg == 1:  # depthwise (and channel multipliers): one input channel per output
        src = x[:, np.arange(m) // mg]
        for ky, kx, at, read in windows(x.shape, kh, kw, sh, sw, pt, pl, oh, ow, dh, dw):
            out[at] += src[read] * w[None, :, 0, ky, kx, None, None]
        return out
    for gi in range(groups):
        xg = x[:, gi * cg:(gi + 1) * cg]
        wg = w[gi * mg:(gi + 1) * mg]
        og = out[:, gi * mg:(gi + 1) * mg]
        for ky, kx, at, read in windows(x.shape, kh, kw, sh, sw, pt, pl, oh, ow, dh, dw):
            og[at] += np.einsum("nchw,mc->nmhw", xg[read], wg[:, :, ky, kx])
    return out


# ---- convolution ----------------------------------------------------------------------------

def as_2d_window(a, spatial: int):
    """A sliding window's ONNX attributes (strides, pads, dilations, kernel_shape) as 2-D
    ones: a 1-D window over [N, C, L] is the 2-D window of height 1 over [N, C, 1, L] (the
    same bytes), so 1-D layers run on the 2-D kernels and NPU layers."""
    if spatial == 2:
        return dict(strides=list(a.get("strides", [1, 1])),
                    pads=list(a.get("pads", [0, 0, 0, 0])),
                    dilations=list(a.get("dilations", [1, 1])))
    begin, end = a.get("pads", [0, 0])
    return dict(strides=[1] + list(a.get("strides", [1])), pads=[0, begin, 0, end],
                dilations=[1] + list(a.get("dilations", [1])))


def as_nchw(shape):
    """The NCHW shape a 2-D kernel or NPU layer sees: [N, C, L] is [N, C, 1, L]."""
    shape = list(shape)
    return shape[:2] + [1] + shape[2:] if len(shape) == 3 else ir.shape4(shape)


def _lower_conv(n):
    a = n.attrs
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        n.fail("auto_pad is not supported; export explicit pads")
    w = n.const(n.inputs[1], "the weight")
    if w.ndim not in (3, 4):
        n.fail(f"only 1-D and 2-D convolution are supported (the weight has {w.ndim} axes)")
    ins = n.inputs
    if w.ndim == 3:
        ins = [ins[0], n.g.add_const(n.outputs[0] + "::weight2d", w[:, :, None, :])] + ins[2:]
    if len(ins) < 3 or not ins[2]:
        ins = ins[:2] + [n.g.add_const(n.outputs[0] + "::bias", np.zeros(w.shape[0], np.float32))]
    window = as_2d_window(a, w.ndim - 2)
    n.emit(CONVOLUTION.name, ins[:3], stride=window["strides"], pads=window["pads"],
           dilation=window["dilations"], groups=int(a.get("group", 1)), lo=-ir.INF, hi=ir.INF)


def _geometry(node):
    a = node.attrs
    pt, pl, pb, pr = a["pads"]
    return dict(stride_h=a["stride"][0], stride_w=a["stride"][1], pad_top=pt, pad_left=pl,
                pad_bottom=pb, pad_right=pr, dilation_h=a["dilation"][0],
                dilation_w=a["dilation"][1], groups=a["groups"])


def _quantized_bounds(g, node):
    x, y = g.input_value(node), g.output_value(node)
    lo, hi = ir.act_bounds_q(node.attrs["lo"], node.attrs["hi"], y)
    return dict(zp_in=x.zero_point, zp_out=y.zero_point, act_min=lo, act_max=hi)


def _conv_geo(a):
    return dict(stride=(a.stride_h, a.stride_w),
                pads=(a.pad_top, a.pad_left, a.pad_bottom, a.pad_right),
                dilation=(a.dilation_h, a.dilation_w), groups=a.groups)


def _conv(ins, a, out):
    x, w, b = ins
    x = x.reshape(as_nchw(x.shape))
    acc = conv2d_nchw(x, w, acc_dtype=np.float32, **_conv_geo(a)) + b[None, :, None, None]
    return np.clip(acc, a.act_min, a.act_max).astype(np.float32).reshape(out.shape)


def _quantized_conv(ins, a, out):
    x, w, b, rq = ins
    x = x.reshape(as_nchw(x.shape))
    acc = conv2d_nchw(x.astype(np.int64) - a.zp_in, w, acc_dtype=np.int64, **_conv_geo(a))
    acc = acc + b.astype(np.int64)[None, :, None, None]
    m, n = rq[:, 0][None, :, None, None], rq[:, 1][None, :, None, None]
    if len(rq) and rq[0, 1] & TFLITE_ROUNDING:  # firmware/int8/tflite_rounding.h
        r = tflite_eval.mbqm_double(acc, m, 31 - (n & 0xFF).astype(np.int64))
    else:
        r = fx.requantize(acc, m, n)
    return np.clip(r + a.zp_out, a.act_min, a.act_max).astype(np.int8).reshape(out.shape)


def _npu_conv(g, node):
    # Depthwise: one input channel per group (weight [C, 1, kh, kw]) and as many outputs.
    channels = g.input_value(node).shape[1]
    depthwise = g.input_value(node, 1).shape[1] == 1 and channels > 1 and \
        channels == g.output_value(node).shape[1]
    return "depthwise_conv2d" if depthwise else "conv2d"


def _conv_shapes(g, node):
    return (as_nchw(g.input_value(node).shape), list(g.input_value(node, 1).shape),
            as_nchw(g.output_value(node).shape))


# ---- fully connected ------------------------------------------------------------------------

def _lower_linear(n):
    a = n.attrs
    if n.op_type == "MatMul" and n.g.value(n.inputs[1]).const is None:
        from socsim_aot.schema.matmul import lower_matmul  # the product of two activations
        lower_matmul(n)
        return
    w = n.const(n.inputs[1], "the weight (B)")
    x = n.inputs[0]
    if n.op_type == "Gemm":
        if a.get("transA", 0):
            x = _transposed_a(n)
        if not a.get("transB", 0):
            w = w.T
        if a.get("alpha", 1.0) != 1.0:  # alpha (A B) = A (alpha B)
            w = w * np.float32(a["alpha"])
    else:
        if w.ndim != 2:
            n.fail("MatMul needs a 2-D constant right operand")
        w = w.T
    g = n.g
    wname = g.add_const(n.outputs[0] + "::weight", np.ascontiguousarray(w, np.float32))
    if n.op_type == "Gemm" and len(n.inputs) > 2 and n.inputs[2]:
        c = n.const(n.inputs[2], "the bias (C)")
        if c.size not in (1, w.shape[0]) or c.ndim == 2 and c.shape[0] != 1:
            n.fail(f"the bias (C) of shape {list(c.shape)} is not one value per output "
                   "feature")
        b = c.reshape(-1) * np.float32(a.get("beta", 1.0))
        if b.size == 1:
            b = np.full(w.shape[0], b[0], np.float32)
    else:
        b = np.zeros(w.shape[0], np.float32)
    bname = g.add_const(n.outputs[0] + "::bias", b.astype(np.float32))
    n.emit(LINEAR.name, [x, wname, bname], lo=-ir.INF, hi=ir.INF)


def _transposed_a(n):
    """Gemm's transA=1: A [K, M] transposed to [M, K] first (a constant A folded, an
    activation by permute_copy)."""
    from socsim_aot.schema.data_movement import PERMUTE_COPY
    a = n.g.value(n.inputs[0])
    if len(a.shape) != 2:
        n.fail(f"Gemm with transA=1 needs a 2-D A (shape {list(a.shape)})")
    if a.const is not None:
        return n.g.add_const(n.outputs[0] + "::a_t", np.ascontiguousarray(a.const.T))
    t = n.value("a_t", a.shape[::-1], a.dtype)
    n.emit_to(PERMUTE_COPY.name, [n.inputs[0]], t, perm=[1, 0])
    return t


def _linear(ins, a, out):
    x, w, b = ins
    return np.clip(x @ w.T + b, a.act_min, a.act_max).astype(np.float32)


def _quantized_linear(ins, a, out):
    x, w, b, rq = ins  # x: any shape of rows x features bytes (an NPU layer reads them so)
    x = x.reshape(-1, w.shape[1])
    acc = (x.astype(np.int64) - a.zp_in) @ w.astype(np.int64).T + b.astype(np.int64)
    r = fx.requantize(acc, rq[:, 0], rq[:, 1])
    return np.clip(r + a.zp_out, a.act_min, a.act_max).astype(np.int8).reshape(out.shape)


def _linear_shapes(g, node):
    """Rows (every leading axis of the output) x features, as 4-D descriptor shapes."""
    w, y = g.input_value(node, 1), g.output_value(node)
    rows = int(np.prod(y.shape[:-1], dtype=np.int64))
    return [rows, w.shape[1], 1, 1], [w.shape[0], w.shape[1], 1, 1], [rows, y.shape[-1], 1, 1]


def _float_bounds(g, node):
    return dict(act_min=node.attrs["lo"], act_max=node.attrs["hi"])


def _quantize_weights(q, node):
    q.weights(node)


CONVOLUTION, QUANTIZED_CONVOLUTION, LINEAR, QUANTIZED_LINEAR = (
    hooks("aten::convolution.out", lower=_lower_conv, quantize=_quantize_weights,
          arg_values=lambda g, node: {**_geometry(node), **_float_bounds(g, node)},
          reference=_conv),
    hooks("quantized_decomposed::convolution.out",
          arg_values=lambda g, node: {**_geometry(node), **_quantized_bounds(g, node)},
          reference=_quantized_conv, npu_accepts=_npu_conv, npu_shapes=_conv_shapes),
    hooks("aten::linear.out", lower=_lower_linear, quantize=_quantize_weights,
          arg_values=_float_bounds, reference=_linear),
    hooks("quantized_decomposed::linear.out", arg_values=_quantized_bounds,
          reference=_quantized_linear, npu_accepts=lambda g, node: "linear",
          npu_shapes=_linear_shapes))
