"""Binary elementwise operators with numpy broadcasting: add, sub, mul, div.

float32 and plain int8 (wrapping modulo 256, as torch computes on int8 tensors) share the
ATen operator (div: float32 only, torch's true division); quantised int8 is a separate
operator whose arguments carry the fixed-point rescaling (docs/runtime.md, "Integer
arithmetic").
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir
from socsim_aot.schema.core import Arg, NpuLayer, Operand, Operator, register

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


_INPUTS = (Operand("a", npu_slot="input"), Operand("b", npu_slot="weights"))
_OUTPUT = (Operand("out", npu_slot="output"),)
_BOUNDS = (Arg("act_min", doc="lower bound of the output (a fused ReLU: zp_out)"),
           Arg("act_max", doc="upper bound of the output"))
_ADD_SUB_ARGS = (Arg("zp_a"), Arg("m_a", doc="a's multiplier at shift n"), Arg("zp_b"),
                 Arg("m_b", doc="b's multiplier at shift n"), Arg("n", doc="common shift"),
                 Arg("zp_out")) + _BOUNDS

ADD, SUB, MUL, DIV = register(
    Operator("aten::add.out", "add", "a + b, broadcasting; int8 wraps modulo 256",
             inputs=_INPUTS, outputs=_OUTPUT, dtypes=("float32", "int8"), kernel="add",
             onnx=("Add",), quantized="quantized_decomposed::add.out", quantize=_quantize,
             reference=_plain("add")),
    Operator("aten::sub.out", "sub", "a - b, broadcasting; int8 wraps modulo 256",
             inputs=_INPUTS, outputs=_OUTPUT, dtypes=("float32", "int8"), kernel="sub",
             onnx=("Sub",), quantized="quantized_decomposed::sub.out", quantize=_quantize,
             reference=_plain("sub")),
    Operator("aten::mul.out", "mul", "a * b, broadcasting; int8 wraps modulo 256",
             inputs=_INPUTS, outputs=_OUTPUT, dtypes=("float32", "int8"), kernel="mul",
             onnx=("Mul",), quantized="quantized_decomposed::mul.out", quantize=_quantize,
             reference=_plain("mul")),
    Operator("aten::div.out", "div", "a / b, broadcasting (true division)", inputs=_INPUTS,
             outputs=_OUTPUT, kernel="div", onnx=("Div",),
             quantized="quantized_decomposed::div.out", quantize=_quantize,
             reference=_plain("div")))

QUANTIZED_ADD, QUANTIZED_SUB, QUANTIZED_MUL, QUANTIZED_DIV = register(
    Operator("quantized_decomposed::add.out", "quantized_add",
             "round_shift((a - zp_a) m_a + (b - zp_b) m_b, n) + zp_out, clamped",
             inputs=_INPUTS, outputs=_OUTPUT, args=_ADD_SUB_ARGS, dtypes=("int8",),
             kernel="add", npu=NpuLayer(3, "Add", ("add",), "binary"),
             arg_values=_add_sub_args(1), reference=_add_sub_reference(1),
             npu_accepts=_npu_binary("add")),
    Operator("quantized_decomposed::sub.out", "quantized_sub",
             "round_shift((a - zp_a) m_a - (b - zp_b) m_b, n) + zp_out, clamped",
             inputs=_INPUTS, outputs=_OUTPUT, args=_ADD_SUB_ARGS, dtypes=("int8",),
             kernel="sub", arg_values=_add_sub_args(-1), reference=_add_sub_reference(-1)),
    Operator("quantized_decomposed::mul.out", "quantized_mul",
             "requantize((a - zp_a)(b - zp_b), m, n) + zp_out, clamped",
             inputs=_INPUTS, outputs=_OUTPUT,
             args=(Arg("zp_a"), Arg("zp_b"), Arg("m"), Arg("n"), Arg("zp_out")) + _BOUNDS,
             dtypes=("int8",), kernel="mul", npu=NpuLayer(4, "Mul", ("mul",), "binary"),
             arg_values=_mul_args, reference=_mul_reference,
             npu_accepts=_npu_binary("mul")),
    Operator("quantized_decomposed::div.out", "quantized_div",
             "div_round((a - zp_a) m, (b - zp_b) 2^n) + zp_out, clamped; b = zp_b saturates",
             inputs=_INPUTS, outputs=_OUTPUT,
             args=(Arg("zp_a"), Arg("zp_b"), Arg("m"), Arg("n", doc="shift, at most 53"),
                   Arg("zp_out")) + _BOUNDS,
             dtypes=("int8",), kernel="div", arg_values=_div_args, reference=_div_reference))
