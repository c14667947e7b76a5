"""The compiler's hooks (quantisation, numpy reference) for the activations family.

Its operators and their rules are declared in socsim_schema/activations.py.
"""

import math

import numpy as np

from socsim_aot import ir
from socsim_aot.schema.hooks import hooks
from socsim_schema import activations as declared
from socsim_schema.core import Args, get


def same_scale(q, node):
    """Operators that only move or select values: the output has the input's quantisation."""
    x = q.g.values[node.inputs[0]]
    y = q.g.values[node.outputs[0]]
    y.scale, y.zero_point = x.scale, x.zero_point


def _relu(ins, a, out):
    x = ins[0]
    if x.dtype == np.float32:
        return np.where(x > 0, x, np.float32(0)).astype(np.float32)
    return np.maximum(x, np.int8(0)).astype(np.int8)


def _lower_clip(n):
    lo, hi = n.attrs.get("min", -ir.INF), n.attrs.get("max", ir.INF)
    if len(n.inputs) > 1 and n.inputs[1]:
        lo = float(n.const(n.inputs[1], "min"))
    if len(n.inputs) > 2 and n.inputs[2]:
        hi = float(n.const(n.inputs[2], "max"))
    n.emit(CLAMP.name, n.inputs[:1], lo=lo, hi=hi)


def _clamp(ins, a, out):
    return np.minimum(np.maximum(ins[0], a.lo), a.hi).astype(np.float32)


def _quantized_clamp_args(g, node):
    lo, hi = ir.act_bounds_q(node.attrs["lo"], node.attrs["hi"], g.output_value(node))
    return dict(lo=lo, hi=hi)


RELU, QUANTIZED_RELU, CLAMP, QUANTIZED_CLAMP = (
    hooks("aten::relu.out", quantize=same_scale, reference=_relu),
    hooks("quantized_decomposed::relu.out",
          arg_values=lambda g, node: dict(zero_point=g.output_value(node).zero_point),
          reference=lambda ins, a, out: np.maximum(
              ins[0].astype(np.int32), np.clip(a.zero_point, -128, 127)).astype(np.int8)),
    hooks("aten::clamp.out", lower=_lower_clip, quantize=same_scale,
          arg_values=lambda g, node: dict(lo=node.attrs["lo"], hi=node.attrs["hi"]),
          reference=_clamp),
    hooks("quantized_decomposed::clamp.out", arg_values=_quantized_clamp_args,
          reference=lambda ins, a, out: np.clip(ins[0].astype(np.int32), a.lo, a.hi)
          .astype(np.int8)))


# ---- table lookups --------------------------------------------------------------------------
#
# Every int8 nonlinearity is one lookup: the compiler evaluates the function at each of the 256
# values the quantised input can take and stores the quantised results (docs/runtime.md,
# "Integer arithmetic"). The float32 operator is aten::<name>.out, its int8 twin
# quantized_decomposed::<name>.out with operands x and table; an NPU runs the twin on its
# lookup unit, on its own or fused after the layer that produces x (npu_partition.py).

LUT_SCALE, LUT_ZERO_POINT = 1.0 / 256.0, -128  # the output of sigmoid's table


def _table_inputs(x: ir.Value) -> np.ndarray:
    """The real value of every int8 input, in table order (q = -128 .. 127)."""
    return x.scale * (np.arange(-128, 128, dtype=np.float64) - x.zero_point)


def _finite(fn, v):
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        real = np.asarray(fn(v), dtype=np.float64)
    return np.where(np.isnan(real), 0.0, real)  # no real result (sqrt of a negative): 0


def lookup_table(fn, x: ir.Value, y: ir.Value) -> np.ndarray:
    """table[q + 128] = quantised fn(dequantised q) for every int8 q: the output of an
    elementwise function of x, rounded half up and saturated to int8; where fn has no real
    value (NaN) the entry is the output's zero point (real 0)."""
    real = _finite(fn, _table_inputs(x))
    with np.errstate(over="ignore", invalid="ignore"):
        q = np.floor(real / y.scale + 0.5) + y.zero_point
    return np.clip(q, -128, 127).astype(np.int8)


def range_quantization(fn, x: ir.Value):
    """(scale, zero point) of a table's output that covers the function's range over every
    int8 input and 0: lo = min(0, min f), hi = max(0, max f), scale = (hi - lo) / 255,
    zero point = clamp(floor(-128 - lo / scale + 0.5), -128, 127)."""
    real = _finite(fn, _table_inputs(x))
    real = real[np.isfinite(real)]
    lo, hi = min(0.0, float(real.min(initial=0.0))), max(0.0, float(real.max(initial=0.0)))
    scale = max((hi - lo) / 255.0, ir.MIN_SCALE) if hi > lo else 1.0
    zero_point = int(np.clip(np.floor(-128.0 - lo / scale + 0.5), -128, 127))
    return float(scale), zero_point


def _lookup(ins, a, out):
    x, table = ins
    return table[x.astype(np.int64) + 128].astype(np.int8)


def _npu_lookup(g, node):
    """The preset class of a lookup node the NPU can run (descriptors are 4-D)."""
    return get(node.op).npu.classes[0] if len(g.input_value(node).shape) <= 4 else None


def is_lookup(op) -> bool:
    """True for the int8 table-lookup operators (operands x and an int8 [256] table)."""
    return op.npu is not None and op.npu.source == "lookup"


def _erf(v):
    return np.vectorize(math.erf, otypes=[np.float64])(v)


def _erf_f32(x):
    return _erf(x.astype(np.float64)).astype(np.float32)


_F = np.float32


_ONNX_DEFAULTS = {"alpha": 0.2, "beta": 0.5}  # ONNX HardSigmoid


def _lower_lookup(op_name, args):
    def lower(n):
        attrs = {}
        for a in args:
            if a.name == "exponent":  # Pow: the exponent is the second input, a constant
                e = np.asarray(n.const(n.inputs[1], "the exponent of Pow"))
                if e.size != 1:
                    n.fail("Pow needs a scalar constant exponent")
                attrs[a.name] = float(e.reshape(-1)[0])
            else:
                attrs[a.name] = float(n.attrs.get(a.name, _ONNX_DEFAULTS[a.name]))
        n.emit(op_name, n.inputs[:1], **attrs)
    return lower


def _float_reference(f32):
    def run(ins, a, out):
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return np.asarray(f32(ins[0].astype(np.float32), a), dtype=np.float32)
    return run


# The real function of each lookup operator, by its float operator's name: real(v, args) with
# the float operator's arguments by name; the compiler's tables and the tests use it.
REAL = {}


def table_function(op_name, **args):
    """The real function a lookup operator's table holds, for given argument values."""
    real = REAL[op_name]
    a = Args(args)
    return lambda v: real(v, a)


def _quantize_lookup(op_name, args, fixed):
    def quantize(q, node):
        x = q.g.values[node.inputs[0]]
        y = q.g.values[node.outputs[0]]
        fn = table_function(op_name, **{a.name: node.attrs[a.name] for a in args})
        given = q.g.model_quantization  # a pre-quantised model's own output quantisation
        if given is not None and node.outputs[0] in given.activations:
            y.scale, y.zero_point = given.activations[node.outputs[0]]
        else:
            y.scale, y.zero_point = fixed if fixed else range_quantization(fn, x)
        node.inputs = node.inputs[:1] + [
            q.g.add_const(node.outputs[0] + "::table", lookup_table(fn, x, y))]
    return quantize


def lookup_pair(declared, f32, real, fixed=None):
    """The hooks of a lookup pair (socsim_schema/activations.py): aten::<name> computes
    f32(x, args) in numpy float32; its int8 twin's table holds real(v, args), quantised with
    `fixed` (scale, zero point) or over the table's range."""
    float_op, quantized_op = declared
    args = float_op.args
    REAL[float_op.name] = real
    return (hooks(float_op.name, lower=_lower_lookup(float_op.name, args) if args else None,
                  quantize=_quantize_lookup(float_op.name, args, fixed),
                  arg_values=(lambda g, node: {a.name: node.attrs[a.name] for a in args})
                  if args else None, reference=_float_reference(f32)),
            hooks(quantized_op.name, reference=_lookup, npu_accepts=_npu_lookup))


def _sigmoid_f32(x, a):
    with np.errstate(over="ignore"):  # exp overflows to inf for large negative x: 1 / inf = 0
        return _F(1) / (_F(1) + np.exp(-x))


def _sigmoid_real(v, a):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-v))


SIGMOID, QUANTIZED_SIGMOID = lookup_pair(
    (declared.SIGMOID, declared.QUANTIZED_SIGMOID), _sigmoid_f32, _sigmoid_real,
    fixed=(LUT_SCALE, LUT_ZERO_POINT))
TANH, QUANTIZED_TANH = lookup_pair(
    (declared.TANH, declared.QUANTIZED_TANH), lambda x, a: np.tanh(x), lambda v, a: np.tanh(v))
HARDSIGMOID, QUANTIZED_HARDSIGMOID = lookup_pair(
    (declared.HARDSIGMOID, declared.QUANTIZED_HARDSIGMOID),
    lambda x, a: np.minimum(np.maximum(_F(a.alpha) * x + _F(a.beta), _F(0)), _F(1)),
    lambda v, a: np.clip(a.alpha * v + a.beta, 0.0, 1.0))
HARDSWISH, QUANTIZED_HARDSWISH = lookup_pair(
    (declared.HARDSWISH, declared.QUANTIZED_HARDSWISH),
    lambda x, a: x * np.minimum(np.maximum(x + _F(3), _F(0)), _F(6)) / _F(6),
    lambda v, a: v * np.clip(v + 3.0, 0.0, 6.0) / 6.0)
SILU, QUANTIZED_SILU = lookup_pair(
    (declared.SILU, declared.QUANTIZED_SILU), lambda x, a: x * _sigmoid_f32(x, a),
    lambda v, a: v * _sigmoid_real(v, a))
GELU, QUANTIZED_GELU = lookup_pair(
    (declared.GELU, declared.QUANTIZED_GELU),
    lambda x, a: _F(0.5) * x * (_F(1) + _erf_f32(x * _F(0.70710678118654752))),
    lambda v, a: 0.5 * v * (1.0 + _erf(v / math.sqrt(2.0))))
ERF, QUANTIZED_ERF = lookup_pair(
    (declared.ERF, declared.QUANTIZED_ERF), lambda x, a: _erf_f32(x), lambda v, a: _erf(v))
EXP, QUANTIZED_EXP = lookup_pair(
    (declared.EXP, declared.QUANTIZED_EXP), lambda x, a: np.exp(x), lambda v, a: np.exp(v))
SQRT, QUANTIZED_SQRT = lookup_pair(
    (declared.SQRT, declared.QUANTIZED_SQRT), lambda x, a: np.sqrt(x), lambda v, a: np.sqrt(v))
POW, QUANTIZED_POW = lookup_pair(
    (declared.POW, declared.QUANTIZED_POW), lambda x, a: np.power(x, _F(a.exponent)),
    lambda v, a: np.power(v, a.exponent))

# Every lookup operator pair (float32, int8), with argument values for tests.
LOOKUPS = ((SIGMOID, QUANTIZED_SIGMOID, {}), (TANH, QUANTIZED_TANH, {}),
           (HARDSIGMOID, QUANTIZED_HARDSIGMOID, {"alpha": 1.0 / 6.0, "beta": 0.5}),
           (HARDSWISH, QUANTIZED_HARDSWISH, {}), (SILU, QUANTIZED_SILU, {}),
           (GELU, QUANTIZED_GELU, {}), (ERF, QUANTIZED_ERF, {}), (EXP, QUANTIZED_EXP, {}),
           (SQRT, QUANTIZED_SQRT, {}), (POW, QUANTIZED_POW, {"exponent": 2.0}))
