"""The compiler's hooks (quantisation, numpy reference) for the pooling family.

Its operators and their rules are declared in socsim_schema/pooling.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.conv import as_2d_window, as_nchw, window_out, windows
from socsim_aot.schema.hooks import hooks


def _lower_pool(n):
    a = n.attrs
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        n.fail("auto_pad is not supported; export explicit pads")
    kernel = list(a["kernel_shape"])
    if len(kernel) not in (1, 2):
        n.fail(f"only 1-D and 2-D pooling are supported (kernel_shape {kernel})")
    window = as_2d_window(a, len(kernel))
    if any(d != 1 for d in window["dilations"]):
        n.fail("dilated pooling is not supported")
    attrs = dict(kernel=[1] * (2 - len(kernel)) + kernel, stride=window["strides"],
                 pads=window["pads"], ceil=int(a.get("ceil_mode", 0)))
    if n.op_type == "AveragePool":
        n.emit(AVG_POOL2D.name, n.inputs[:1], include_pad=int(a.get("count_include_pad", 0)),
               **attrs)
    else:
        n.emit(MAX_POOL2D.name, n.inputs[:1], **attrs)


def _geometry(node):
    a = node.attrs
    pt, pl, pb, pr = a["pads"]
    return dict(kernel_h=a["kernel"][0], kernel_w=a["kernel"][1], stride_h=a["stride"][0],
                stride_w=a["stride"][1], pad_top=pt, pad_left=pl, pad_bottom=pb, pad_right=pr,
                ceil_mode=a["ceil"])


def _requant(g, node):
    if "requant_args" in node.attrs:  # set by a front end with its own rule (TFLite's average)
        return dict(node.attrs["requant_args"])
    x, y = g.input_value(node), g.output_value(node)
    m, n = fx.quantize_multiplier(x.scale / y.scale, bits=23, max_shift=30)
    return dict(zp_in=x.zero_point, zp_out=y.zero_point, m=m, n=n)


def _pool_geometry(x, a):
    h, w = x.shape[2], x.shape[3]
    ceil = bool(a.ceil_mode)
    oh = window_out(h, a.kernel_h, a.stride_h, a.pad_top, a.pad_bottom, 1, ceil)
    ow = window_out(w, a.kernel_w, a.stride_w, a.pad_left, a.pad_right, 1, ceil)
    # Extra padding so that ceil-mode windows are whole slices.
    eb = max(0, (oh - 1) * a.stride_h + a.kernel_h - (h + a.pad_top + a.pad_bottom))
    er = max(0, (ow - 1) * a.stride_w + a.kernel_w - (w + a.pad_left + a.pad_right))
    pads = ((0, 0), (0, 0), (a.pad_top, a.pad_bottom + eb), (a.pad_left, a.pad_right + er))
    return oh, ow, pads


def _windows(xp, a, oh, ow):
    return windows(xp, a.kernel_h, a.kernel_w, a.stride_h, a.stride_w, oh, ow)


def _max_pool(ins, a, out):
    x = ins[0].reshape(as_nchw(ins[0].shape))
    oh, ow, pads = _pool_geometry(x, a)
    low = -np.inf if x.dtype == np.float32 else -1000
    xp = np.pad(x.astype(np.float64 if x.dtype == np.float32 else np.int32), pads,
                constant_values=low)
    r = None
    for _, _, s in _windows(xp, a, oh, ow):
        r = s.copy() if r is None else np.maximum(r, s)
    return r.astype(x.dtype).reshape(out.shape)


def _counts(x, a, oh, ow, pads):
    h, w = x.shape[2], x.shape[3]
    mask = np.zeros((h + pads[2][0] + pads[2][1], w + pads[3][0] + pads[3][1]), np.int64)
    if a.count_include_pad:
        mask[:h + a.pad_top + a.pad_bottom, :w + a.pad_left + a.pad_right] = 1
    else:
        mask[a.pad_top:a.pad_top + h, a.pad_left:a.pad_left + w] = 1
    return sum(s for _, _, s in _windows(mask, a, oh, ow))


def _avg_pool(ins, a, out):
    x = ins[0].reshape(as_nchw(ins[0].shape))
    oh, ow, pads = _pool_geometry(x, a)
    counts = _counts(x, a, oh, ow, pads)
    xp = np.pad(x, pads)
    total = np.zeros(x.shape[:2] + (oh, ow), np.float32)
    for _, _, s in _windows(xp, a, oh, ow):
        total += s
    return (total / counts.astype(np.float32)).astype(np.float32).reshape(out.shape)


def _quantized_avg_pool(ins, a, out):
    x = ins[0].reshape(as_nchw(ins[0].shape))
    oh, ow, pads = _pool_geometry(x, a)
    counts = _counts(x, a, oh, ow, pads)
    xp = np.pad(x.astype(np.int64) - a.zp_in, pads)
    total = sum(s for _, _, s in _windows(xp, a, oh, ow))
    r = fx.div_round(total * a.m, counts.astype(np.int64) << a.n) + a.zp_out
    return fx.saturate(r).astype(np.int8).reshape(out.shape)


def _global(ins, a, out):
    x = ins[0].reshape(as_nchw(ins[0].shape))
    area = x.shape[2] * x.shape[3]
    return (x.sum(axis=(2, 3), keepdims=True, dtype=np.float32) / np.float32(area)) \
        .astype(np.float32).reshape(out.shape)


def _quantized_global(ins, a, out):
    x = ins[0].reshape(as_nchw(ins[0].shape))
    area = x.shape[2] * x.shape[3]
    total = (x.astype(np.int64) - a.zp_in).sum(axis=(2, 3), keepdims=True)
    return fx.saturate(fx.div_round(total * a.m, np.int64(area) << a.n) + a.zp_out) \
        .astype(np.int8).reshape(out.shape)


def _npu_pool(preset_class):
    return lambda g, node: preset_class if len(g.output_value(node).shape) in (3, 4) else None


def _pool_shapes(g, node):
    """A 1-D pooling's [N, C, L] as the NCHW [N, C, 1, L] (the same bytes)."""
    return as_nchw(g.input_value(node).shape), [0, 0, 0, 0], as_nchw(g.output_value(node).shape)


MAX_POOL2D, AVG_POOL2D, QUANTIZED_AVG_POOL2D = (
    hooks("aten::max_pool2d.out", lower=_lower_pool, quantize=same_scale,
          arg_values=lambda g, node: _geometry(node), reference=_max_pool,
          npu_accepts=_npu_pool("max_pool2d"), npu_shapes=_pool_shapes),
    hooks("aten::avg_pool2d.out", lower=_lower_pool,
          arg_values=lambda g, node: dict(_geometry(node),
                                          count_include_pad=node.attrs["include_pad"]),
          reference=_avg_pool),
    hooks("quantized_decomposed::avg_pool2d.out",
          arg_values=lambda g, node: dict(_geometry(node),
                                          count_include_pad=node.attrs["include_pad"],
                                          **_requant(g, node)),
          reference=_quantized_avg_pool, npu_accepts=_npu_pool("avg_pool2d"),
          npu_shapes=_pool_shapes))

ADAPTIVE_AVG_POOL2D, QUANTIZED_ADAPTIVE_AVG_POOL2D = (
    hooks("aten::adaptive_avg_pool2d.out", reference=_global),
    hooks("quantized_decomposed::adaptive_avg_pool2d.out", arg_values=_requant,
          reference=_quantized_global, npu_accepts=_npu_pool("global_avg_pool2d"),
          npu_shapes=_pool_shapes))
