"""The compiler's hooks (quantisation, numpy reference) for the elementwise family.

Its operators and their rules are declared in socsim_schema/elementwise.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir
from socsim_aot.schema.hooks import hooks

_NUMPY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}


def _plain(kind):
    def run(ins, a, out):
        x, y = ins
        if x.dtype == np.float32:
            return _NUMPY[kind](x, y).astype(np.float32)
        r = _NUMPY[kind](x.astype(np.int64), y.astype(np.int64))
        return (r & 0xFF).astype(np.uint8).view(np.int8)
    return run


def _quantize(q, node):
    node.inputs = [q.constant(i) for i in node.inputs]


def _add_sub_args(sign):
    def args(g, node):
        a, b = (g.input_value(node, i) for i in range(2))
        y = g.output_value(node)
        _, n = fx.quantize_multiplier(max(a.scale, b.scale) / y.scale)
        return dict(zp_a=a.zero_point, m_a=fx.multiplier_at_shift(a.scale / y.scale, n),
                    zp_b=b.zero_point, m_b=fx.multiplier_at_shift(b.scale / y.scale, n), n=n,
                    zp_out=y.zero_point, act_min=_act_min(node, y), act_max=127)
    return args


def _act_min(node, y):
    # A ReLU fused into the node (npu_partition) raises the lower bound to the zero point.
    return max(-128, y.zero_point) if node.attrs.get("fused_relu") else -128


def _add_sub_reference(sign):
    def run(ins, a, out):
        x, y = (v.astype(np.int64) for v in ins)
        acc = (x - a.zp_a) * a.m_a + sign * (y - a.zp_b) * a.m_b
        return np.clip(fx.round_shift(acc, a.n) + a.zp_out, a.act_min, a.act_max).astype(np.int8)
    return run


def _mul_args(g, node):
    a, b = (g.input_value(node, i) for i in range(2))
    y = g.output_value(node)
    m, n = fx.quantize_multiplier(a.scale * b.scale / y.scale)
    return dict(zp_a=a.zero_point, zp_b=b.zero_point, m=m, n=n, zp_out=y.zero_point,
                act_min=_act_min(node, y), act_max=127)


def _mul_reference(ins, a, out):
    x, y = (v.astype(np.int64) for v in ins)
    r = fx.requantize((x - a.zp_a) * (y - a.zp_b), a.m, a.n) + a.zp_out
    return np.clip(r, a.act_min, a.act_max).astype(np.int8)


def _div_args(g, node):
    a, b = (g.input_value(node, i) for i in range(2))
    y = g.output_value(node)
    # 2 (b - zp_b) 2^n, the divisor div_round doubles, stays below 2^63 with n <= 53.
    m, n = fx.quantize_multiplier(a.scale / (b.scale * y.scale), max_shift=53)
    return dict(zp_a=a.zero_point, zp_b=b.zero_point, m=m, n=n, zp_out=y.zero_point,
                act_min=_act_min(node, y), act_max=127)


def quantized_quotient(a, b, args):
    """The int8 quotient rule: zp_out + div_round((a - zp_a) m, (b - zp_b) 2^n) (halves
    towards +inf, the divisor's sign moved to the dividend), clamped; a divisor of 0 gives the
    upper bound for a positive dividend, the lower for a negative one and zp_out for 0."""
    num = (a.astype(np.int64) - args.zp_a) * args.m
    den = (b.astype(np.int64) - args.zp_b) << args.n
    safe = np.where(den == 0, 1, den)
    q = fx.div_round(np.where(den < 0, -num, num), np.abs(safe)) + args.zp_out
    q = np.where(den == 0, np.where(num > 0, args.act_max, np.where(num < 0, args.act_min,
                                                                    args.zp_out)), q)
    return np.clip(q, args.act_min, args.act_max).astype(np.int8)


def _div_reference(ins, a, out):
    return quantized_quotient(ins[0], ins[1], a)


def per_channel_operand(x_shape, s_shape) -> bool:
    """`s` is one value per channel of the NCHW (or NC) tensor `x`: shape [N, C, 1, 1] (or
    fewer leading axes), as squeeze-and-excitation's scale."""
    x, s = ir.shape4(x_shape), ir.shape4(s_shape)
    return x != s and s == [x[0], x[1], 1, 1]


def _npu_binary(preset_class):
    """Both inputs quantised activations (no constants), the second of the first's shape or a
    per-channel operand (per_channel_operand; npu_partition puts it second)."""
    def accepts(g, node):
        a, b = (g.input_value(node, i) for i in range(2))
        y = g.output_value(node)
        if a.const is not None or b.const is not None or a.scale <= 0 or b.scale <= 0 or \
                len(a.shape) > 4 or list(a.shape) != list(y.shape):
            return None
        ok = list(b.shape) == list(y.shape) or per_channel_operand(a.shape, b.shape)
        return preset_class if ok else None
    return accepts


ADD, SUB, MUL, DIV = (
    hooks("aten::add.out", quantize=_quantize, reference=_plain("add")),
    hooks("aten::sub.out", quantize=_quantize, reference=_plain("sub")),
    hooks("aten::mul.out", quantize=_quantize, reference=_plain("mul")),
    hooks("aten::div.out", quantize=_quantize, reference=_plain("div")))

QUANTIZED_ADD, QUANTIZED_SUB, QUANTIZED_MUL, QUANTIZED_DIV = (
    hooks("quantized_decomposed::add.out", arg_values=_add_sub_args(1),
          reference=_add_sub_reference(1), npu_accepts=_npu_binary("add")),
    hooks("quantized_decomposed::sub.out", arg_values=_add_sub_args(-1),
          reference=_add_sub_reference(-1)),
    hooks("quantized_decomposed::mul.out", arg_values=_mul_args, reference=_mul_reference,
          npu_accepts=_npu_binary("mul")),
    hooks("quantized_decomposed::div.out", arg_values=_div_args, reference=_div_reference))
