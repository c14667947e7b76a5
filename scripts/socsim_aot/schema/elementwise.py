"""Binary elementwise operators with numpy broadcasting: add, sub, mul.

float32 and plain int8 (wrapping modulo 256, as torch computes on int8 tensors) share the
ATen operator; quantised int8 is a separate operator whose arguments carry the fixed-point
rescaling (docs/runtime.md, "Integer arithmetic").
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.core import Arg, NpuLayer, Operand, Operator, register

_NUMPY = {"add": np.add, "sub": np.subtract, "mul": np.multiply}


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


def _npu_binary(preset_class):
    """Both inputs activations of one shape, quantised (no broadcasting, no constants)."""
    def accepts(g, node):
        a, b = (g.input_value(node, i) for i in range(2))
        y = g.output_value(node)
        if a.const is not None or b.const is not None or a.scale <= 0 or b.scale <= 0:
            return None
        return preset_class if list(a.shape) == list(b.shape) == list(y.shape) else None
    return accepts


_INPUTS = (Operand("a", npu_slot="input"), Operand("b", npu_slot="weights"))
_OUTPUT = (Operand("out", npu_slot="output"),)
_BOUNDS = (Arg("act_min", doc="lower bound of the output (a fused ReLU: zp_out)"),
           Arg("act_max", doc="upper bound of the output"))
_ADD_SUB_ARGS = (Arg("zp_a"), Arg("m_a", doc="a's multiplier at shift n"), Arg("zp_b"),
                 Arg("m_b", doc="b's multiplier at shift n"), Arg("n", doc="common shift"),
                 Arg("zp_out")) + _BOUNDS

ADD, SUB, MUL = register(
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
             reference=_plain("mul")))

QUANTIZED_ADD, QUANTIZED_SUB, QUANTIZED_MUL = register(
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
             npu_accepts=_npu_binary("mul")))
