"""The compiler's hooks (quantisation, numpy reference) for the quantization family.

Its operators and their rules are declared in socsim_schema/quantization.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.hooks import hooks


def _requantize_args(g, node):
    x, y = g.input_value(node), g.output_value(node)
    m, n = fx.quantize_multiplier(x.scale / y.scale)
    return dict(zp_in=x.zero_point, zp_out=y.zero_point, m=m, n=n)


def _requantize(ins, a, out):
    r = fx.requantize(ins[0].astype(np.int64) - a.zp_in, a.m, a.n) + a.zp_out
    return fx.saturate(r).astype(np.int8)


QUANTIZE, DEQUANTIZE, REQUANTIZE = (
    hooks("quantized_decomposed::quantize_per_tensor.out",
          arg_values=lambda g, node: dict(scale=g.output_value(node).scale,
                                          zero_point=g.output_value(node).zero_point),
          reference=lambda ins, a, out: fx.quantize_f32(ins[0], a.scale, a.zero_point)),
    hooks("quantized_decomposed::dequantize_per_tensor.out",
          arg_values=lambda g, node: dict(scale=g.input_value(node).scale,
                                          zero_point=g.input_value(node).zero_point),
          reference=lambda ins, a, out: fx.dequantize_i8(ins[0], a.scale, a.zero_point)),
    hooks("quantized_decomposed::requantize.out", arg_values=_requantize_args,
          reference=_requantize))


def _dequantize_per_channel(ins, a, out):
    x, scales, zero_points = ins
    shape = [1] * x.ndim
    shape[a.axis] = -1
    q = x.astype(np.int32) - zero_points.astype(np.int32).reshape(shape)
    return (q.astype(np.float32) * scales.astype(np.float32).reshape(shape)).astype(np.float32)


(DEQUANTIZE_PER_CHANNEL,) = (
    hooks("quantized_decomposed::dequantize_per_channel.out", reference=_dequantize_per_channel),)


def _quantize_reciprocal(ins, a, out):
    """ExecuTorch's quantize: the float32 reciprocal of the scale times x, rounded half to
    even, plus the zero point, in float32; clamped to [quant_min, quant_max], NaN to
    quant_min."""
    inv = np.float32(1) / np.float32(a.scale)
    v = np.float32(a.zero_point) + np.rint(np.asarray(ins[0], np.float32) * inv)
    v = np.where(np.isnan(v), np.float32(a.quant_min), v)
    return np.clip(v, a.quant_min, a.quant_max).astype(np.int8)


(QUANTIZE_RECIPROCAL,) = (
    hooks("quantized_decomposed::quantize_per_tensor_reciprocal.out",
          reference=_quantize_reciprocal),)
