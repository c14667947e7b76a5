"""The compiler's hooks (quantisation, numpy reference) for the matmul family.

Its operators and their rules are declared in socsim_schema/matmul.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir
from socsim_aot.schema.hooks import hooks

MAX_DEPTH = 33025  # K: K * 255 * 255 < 2^31


def lower_matmul(n):
    """MatMul of two tensors of rank 2 or more (called by the MatMul lowering of conv.py when
    the right operand is not a constant)."""
    a, b = (n.g.value(i) for i in n.inputs[:2])
    if len(a.shape) < 2 or len(b.shape) < 2:
        n.fail("MatMul of a vector (rank 1) with an activation is not supported")
    if a.shape[-1] != b.shape[-2]:
        n.fail(f"MatMul shapes {a.shape} and {b.shape} do not match")
    if len(n.g.value(n.outputs[0]).shape) > 6:
        n.fail("MatMul of more than 4 batch axes")
    n.emit(MATMUL.name, n.inputs[:2])


def _quantize(q, node):
    node.inputs = [q.constant(i) for i in node.inputs]


def _matmul(ins, a, out):
    return np.matmul(ins[0], ins[1]).astype(np.float32)


def _quantized_args(g, node):
    a, b = (g.input_value(node, i) for i in range(2))
    y = g.output_value(node)
    if a.shape[-1] > MAX_DEPTH:
        raise ir.CompileError(f"{node.where}: int8 MatMul over {a.shape[-1]} > {MAX_DEPTH} products")
    m, n = fx.quantize_multiplier(a.scale * b.scale / y.scale)
    return dict(zp_a=a.zero_point, zp_b=b.zero_point, m=m, n=n, zp_out=y.zero_point,
                act_min=-128, act_max=127)


def _quantized_matmul(ins, a, out):
    x, y = (v.astype(np.int64) for v in ins)
    acc = np.matmul(x - a.zp_a, y - a.zp_b)
    return np.clip(fx.requantize(acc, a.m, a.n) + a.zp_out, a.act_min, a.act_max) \
        .astype(np.int8)


def _npu_matmul(g, node):
    """Two int8 activations of rank 4 or less whose batch axes (all but the last two, leading
    1s added) are each the output's or 1: the NPU's MatMul layer."""
    a, b = (g.input_value(node, i) for i in range(2))
    y = g.output_value(node)
    if a.const is not None or b.const is not None or a.scale <= 0 or b.scale <= 0 or \
            len(y.shape) > 4 or np.dtype(b.dtype) != np.int8:
        return None
    a4, b4, y4 = (ir.shape4(s.shape) for s in (a, b, y))
    if any(s[d] not in (y4[d], 1) for s in (a4, b4) for d in (0, 1)):
        return None
    return "matmul"


MATMUL, QUANTIZED_MATMUL = (
    hooks("aten::matmul.out", quantize=_quantize, reference=_matmul),
    hooks("quantized_decomposed::matmul.out", arg_values=_quantized_args,
          reference=_quantized_matmul, npu_accepts=_npu_matmul))
