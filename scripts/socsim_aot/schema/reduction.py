"""The compiler's hooks (quantisation, numpy reference) for the reduction family.

Its operators and their rules are declared in socsim_schema/reduction.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.hooks import hooks
from socsim_aot.schema.pooling import ADAPTIVE_AVG_POOL2D
from socsim_aot.schema.data_movement import VIEW_COPY


def reduced_axes(n, rank):
    """The sorted axes an ONNX Reduce* node reduces (attribute or, from opset 13 for
    ReduceSum, second input; none given: all, unless noop_with_empty_axes)."""
    axes = n.attrs.get("axes")
    if axes is None and len(n.inputs) > 1 and n.inputs[1]:
        axes = [int(a) for a in np.asarray(n.const(n.inputs[1], "the axes")).reshape(-1)]
    if not axes:
        return [] if n.attrs.get("noop_with_empty_axes", 0) else list(range(rank))
    if not all(-rank <= int(a) < rank for a in axes):
        n.fail(f"axes {[int(a) for a in axes]} are outside the rank-{rank} input")
    return sorted({int(a) % rank for a in axes})


def _lower(name):
    def lower(n):
        x = n.g.value(n.inputs[0])
        rank = len(x.shape)
        axes = reduced_axes(n, rank)
        if name == "aten::mean.out" and rank == 4 and axes == [2, 3]:
            if n.attrs.get("keepdims", 1):
                n.emit(ADAPTIVE_AVG_POOL2D.name, n.inputs[:1])
            else:
                pooled = n.value("pooled", x.shape[:2] + [1, 1])
                n.emit_to(ADAPTIVE_AVG_POOL2D.name, n.inputs[:1], pooled)
                n.emit(VIEW_COPY.name, [pooled])
            return
        n.emit(name, n.inputs[:1], reduce=[int(d in axes) for d in range(rank)])
    return lower


def _axes(a):
    return tuple(d for d, r in enumerate(a.reduce) if r)


def _mean(ins, a, out):
    s = ins[0].astype(np.float64).sum(axis=_axes(a), keepdims=True)
    return (s / (ins[0].size // s.size)).astype(np.float32).reshape(out.shape)


def _sum(ins, a, out):
    return ins[0].astype(np.float64).sum(axis=_axes(a), keepdims=True).astype(np.float32) \
        .reshape(out.shape)


def _amax(ins, a, out):
    return ins[0].max(axis=_axes(a), keepdims=True).reshape(out.shape)


def _quantized_sums(ins, a):
    total = (ins[0].astype(np.int64) - a.zp_in).sum(axis=_axes(a), keepdims=True)
    return total, ins[0].size // total.size


def _quantized_mean(ins, a, out):
    total, count = _quantized_sums(ins, a)
    return fx.saturate(fx.div_round(total * a.m, np.int64(count) << a.n) + a.zp_out) \
        .astype(np.int8).reshape(out.shape)


def _quantized_sum(ins, a, out):
    total, _ = _quantized_sums(ins, a)
    return fx.saturate(fx.requantize(total, a.m, a.n) + a.zp_out).astype(np.int8) \
        .reshape(out.shape)


def _requant(bits, max_shift):
    def values(g, node):
        x, y = g.input_value(node), g.output_value(node)
        m, n = fx.quantize_multiplier(x.scale / y.scale, bits=bits, max_shift=max_shift)
        return dict(zp_in=x.zero_point, zp_out=y.zero_point, m=m, n=n,
                    reduce=node.attrs["reduce"])
    return values


def _reduce_arg(g, node):
    return dict(reduce=node.attrs["reduce"])


MEAN, SUM, AMAX, QUANTIZED_MEAN, QUANTIZED_SUM = (
    hooks("aten::mean.out", lower=_lower("aten::mean.out"), arg_values=_reduce_arg,
          reference=_mean),
    hooks("aten::sum.IntList_out", lower=_lower("aten::sum.IntList_out"), arg_values=_reduce_arg,
          reference=_sum),
    hooks("aten::amax.out", lower=_lower("aten::amax.out"), quantize=same_scale,
          arg_values=_reduce_arg, reference=_amax),
    hooks("quantized_decomposed::mean.out", arg_values=_requant(23, 30), reference=_quantized_mean),
    hooks("quantized_decomposed::sum.out", arg_values=_requant(31, 62), reference=_quantized_sum))
