"""Import of pre-quantised models: the quantisation a model carries (QDQ or QOperator format,
as onnxruntime's `quantize_static` writes them) becomes the compiler's own, so that the int8
program uses the model's scales, zero points, int8 weights and int32 biases instead of
calibrating the float model (docs/compiler.md, "Pre-quantised models").

Two steps, both on the ONNX graph:

1. QOperator nodes become their QDQ form: QLinearConv(x, ...) is DequantizeLinear of each
   integer operand, the float Conv, and QuantizeLinear of its result (likewise QLinearMatMul,
   QGemm, QLinearAdd, QLinearMul, QLinearGlobalAveragePool, QLinearAveragePool,
   QLinearConcat, QLinearSoftmax, QLinearSigmoid, QLinearLeakyRelu). A data-movement node
   reading an integer tensor (MaxPool, Reshape, Flatten, Transpose, ...) gets the same
   wrapping with its input's quantisation.
2. QDQ: DequantizeLinear of a constant (a weight, an int32 bias) becomes the float constant it
   denotes, its integers and scales recorded; a QuantizeLinear whose readers are
   DequantizeLinear nodes with the same scale and zero point is removed with them, the float
   value it quantised recorded with that scale and zero point. What is left is a float graph
   whose every quantised value is known, which the compiler lowers as usual and quantises
   with the recorded parameters (compiler.quantize_graph).

uint8 tensors become int8 ones: `q8 = q - 128` with zero point `zp - 128`, which changes no
real value (`scale (q - zp)` is the same), so the runtime's int8 operators run them as they
are. Weights with a zero point keep `q - zp` when that fits int8.
"""

import contextlib
import dataclasses
import hashlib
from typing import Dict, List, Optional, Tuple

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report

MICROSOFT = "com.microsoft"
# Nodes that only move or select integer values: in a QOperator model they read and write
# quantised tensors directly; their output keeps the input's quantisation.
# (Not Relu: on integers it is max(q, 0), the real ReLU only when the zero point is 0.)
_DATA_MOVEMENT = ("MaxPool", "Reshape", "Flatten", "Transpose", "Squeeze", "Unsqueeze",
                  "Slice", "Split", "Identity", "Gather", "Resize", "Pad",
                  "DepthToSpace", "SpaceToDepth", "Tile", "Expand")


@dataclasses.dataclass
class ConstantQuantization:
    """A constant the model gave as integers: `real = scales[c] x values[c, ...]` along its
    first axis (the output channel, as the compiler's weights are laid out)."""
    values: np.ndarray  # int8 weights or int32 biases, zero point already subtracted
    scales: np.ndarray  # float32, one per channel (a per-tensor scale is repeated)


@dataclasses.dataclass
class ModelQuantization:
    """What a pre-quantised model says: the int8 quantisation (scale, zero point) of its
    activations by value name, and its integer constants by content (`constant_key` of
    the float array as the compiler's IR holds it, output channels first)."""
    activations: Dict[str, Tuple[float, int]] = dataclasses.field(default_factory=dict)
    constants: Dict[str, ConstantQuantization] = dataclasses.field(default_factory=dict)

    def constant(self, array: np.ndarray) -> Optional[ConstantQuantization]:
        return self.constants.get(constant_key(array))


def constant_key(array: np.ndarray) -> str:
    a = np.ascontiguousarray(array, np.float32)
    return hashlib.sha1(repr(a.shape).encode() + a.tobytes()).hexdigest()


def _is_quantized_model(g: OnnxGraph) -> bool:
    return any(n.op_type in ("QuantizeLinear", "DequantizeLinear") or
               (n.op_type in _QOPERATORS and n.domain in ("", MICROSOFT)) for n in g.nodes)


# ---- step 1: QOperator nodes to QDQ -------------------------------------------------------

def _dq(g: OnnxGraph, anchor: OnnxOp, q: str, s: str, zp: str, axis: int = 1) -> str:
    """A DequantizeLinear of `q` before `anchor` (`axis`: that of a per-channel scale)."""
    out = g.fresh(q + "::dq")
    attrs = {"axis": axis} if axis != 1 else {}
    g.insert_before(anchor, OnnxOp("DequantizeLinear", [q, s, zp], [out], attrs, out))
    return out


def _q(g: OnnxGraph, after: OnnxOp, x: str, s: str, zp: str, out: str):
    node = OnnxOp("QuantizeLinear", [x, s, zp], [out], {}, g.fresh(out + "::q"))
    g.nodes.insert(g.nodes.index(after) + 1, node)


def _triples(ins: List[str], start: int, count: int):
    return [tuple(ins[start + 3 * i:start + 3 * i + 3]) for i in range(count)]


def _float_node(g, n, op_type, float_inputs, attrs, out_s, out_zp):
    y = g.fresh(n.outputs[0] + "::f")
    node = OnnxOp(op_type, float_inputs, [y], attrs, n.name)
    g.insert_before(n, node)
    _q(g, node, y, out_s, out_zp, n.outputs[0])
    g.remove(n)


def _qlinear_conv(g, n):
    ins = n.inputs + [""] * (9 - len(n.inputs))
    x = _dq(g, n, *ins[0:3])
    w = _dq(g, n, *ins[3:6], axis=0)
    fl = [x, w]
    if ins[8]:
        bs = g.add_const(n.name + "::bias_scale",
                         (g.const(ins[1]).astype(np.float32) *
                          g.const(ins[4]).astype(np.float32)).reshape(-1))
        bz = g.add_const(n.name + "::bias_zp", np.zeros(g.const(bs).shape, np.int32))
        fl.append(_dq(g, n, ins[8], bs, bz, axis=0))
    _float_node(g, n, "Conv", fl, dict(n.attrs), ins[6], ins[7])


def _qlinear_matmul(g, n):
    a = _dq(g, n, *n.inputs[0:3])
    b = _dq(g, n, *n.inputs[3:6], axis=1)
    _float_node(g, n, "MatMul", [a, b], {}, n.inputs[6], n.inputs[7])


def _qgemm(g, n):
    ins = n.inputs + [""] * (9 - len(n.inputs))
    if not ins[7]:
        raise ValueError(f"{n.where}: QGemm with a float output is not supported")
    a = _dq(g, n, *ins[0:3])
    b = _dq(g, n, *ins[3:6], axis=0 if n.attrs.get("transB", 0) else 1)
    fl = [a, b]
    if ins[6]:
        bs = g.add_const(n.name + "::bias_scale",
                         (g.const(ins[1]).astype(np.float32) *
                          g.const(ins[4]).astype(np.float32)).reshape(-1))
        bz = g.add_const(n.name + "::bias_zp", np.zeros(g.const(bs).shape, np.int32))
        fl.append(_dq(g, n, ins[6], bs, bz, axis=0))
    attrs = {k: v for k, v in n.attrs.items() if k in ("alpha", "transA", "transB")}
    _float_node(g, n, "Gemm", fl, attrs, ins[7], ins[8])


def _qlinear_binary(op_type):
    def convert(g, n):
        a = _dq(g, n, *n.inputs[0:3])
        b = _dq(g, n, *n.inputs[3:6])
        _float_node(g, n, op_type, [a, b], {}, n.inputs[6], n.inputs[7])
    return convert


def _qlinear_unary(op_type, keep=()):
    def convert(g, n):
        if n.attrs.get("channels_last", 0):
            raise ValueError(f"{n.where}: channels_last is not supported")
        x = _dq(g, n, *n.inputs[0:3])
        attrs = {k: v for k, v in n.attrs.items() if k in keep}
        _float_node(g, n, op_type, [x], attrs, n.inputs[3], n.inputs[4])
    return convert


def _qlinear_concat(g, n):
    count = (len(n.inputs) - 2) // 3
    xs = [_dq(g, n, *t) for t in _triples(n.inputs, 2, count)]
    _float_node(g, n, "Concat", xs, {"axis": n.attrs.get("axis", 1)}, n.inputs[0],
                n.inputs[1])


_POOL_ATTRS = ("auto_pad", "ceil_mode", "count_include_pad", "kernel_shape", "pads", "strides")
_QOPERATORS = {
    "QLinearConv": _qlinear_conv,
    "QLinearMatMul": _qlinear_matmul,
    "QGemm": _qgemm,
    "QLinearAdd": _qlinear_binary("Add"),
    "QLinearMul": _qlinear_binary("Mul"),
    "QLinearGlobalAveragePool": _qlinear_unary("GlobalAveragePool"),
    "QLinearAveragePool": _qlinear_unary("AveragePool", _POOL_ATTRS),
    "QLinearSigmoid": _qlinear_unary("Sigmoid"),
    "QLinearLeakyRelu": _qlinear_unary("LeakyRelu", ("alpha",)),
    "QLinearConcat": _qlinear_concat,
    "QLinearSoftmax": _qlinear_unary("Softmax", ("axis",)),
}


def _integer_params(g: OnnxGraph) -> Dict[str, Tuple[str, str]]:
    """(scale, zero point) value names of every integer tensor a QuantizeLinear writes."""
    params = {}
    for n in g.nodes:
        if n.op_type == "QuantizeLinear" and len(n.inputs) >= 3:
            params[n.outputs[0]] = (n.inputs[1], n.inputs[2])
    return params


def qoperator_to_qdq(g: OnnxGraph, report: Report):
    for n in list(g.nodes):
        if n.op_type in _QOPERATORS and n.domain in ("", MICROSOFT):
            with _named(n):
                _QOPERATORS[n.op_type](g, n)
            report.add(n.op_type)
    # Data movement on integer tensors: wrapped in DequantizeLinear / QuantizeLinear of the
    # input's quantisation (in node order, so that a chain of them propagates it).
    params = _integer_params(g)
    for n in list(g.nodes):
        if n.domain or n.op_type not in _DATA_MOVEMENT or not n.inputs or \
                n.inputs[0] not in params:
            continue
        s, zp = params[n.inputs[0]]
        x = _dq(g, n, n.inputs[0], s, zp)
        rest = n.inputs[1:]
        if n.op_type == "Pad" and len(rest) > 1 and g.const(rest[1]) is not None:
            # The integer pad value (the zero point, as onnxruntime writes it) as a real value.
            real = (g.const(rest[1]).astype(np.float32) - g.const(zp).astype(np.float32)) * \
                g.const(s).astype(np.float32)
            rest = [rest[0], g.add_const(n.name + "::pad_value", real.astype(np.float32))] + \
                rest[2:]
        outs = [g.fresh(o + "::f") for o in n.outputs]
        node = OnnxOp(n.op_type, [x] + rest, outs, dict(n.attrs), n.name)
        g.insert_before(n, node)
        for f, o in zip(outs, n.outputs):
            _q(g, node, f, s, zp, o)
            params[o] = (s, zp)
        g.remove(n)
        report.add(n.op_type)


# ---- step 2: QDQ pairs and quantised constants --------------------------------------------

def _int8_zero_point(zp: np.ndarray) -> np.ndarray:
    zp = np.asarray(zp)
    return zp.astype(np.int64) - 128 if zp.dtype == np.uint8 else zp.astype(np.int64)


def _scalar_params(g: OnnxGraph, n: OnnxOp) -> Optional[Tuple[float, int]]:
    s = g.const(n.inputs[1]) if len(n.inputs) > 1 else None
    zp = g.const(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else np.uint8(0)
    if s is None or zp is None or np.size(s) != 1 or np.size(zp) != 1:
        return None
    if np.dtype(zp.dtype) not in (np.dtype(np.uint8), np.dtype(np.int8)):
        return None
    return float(np.float32(np.asarray(s).reshape(-1)[0])), \
        int(_int8_zero_point(zp).reshape(-1)[0])


def _record_constant(q: ModelQuantization, values: np.ndarray, scales: np.ndarray,
                     zp: np.ndarray, axis: Optional[int]):
    """Records the integers of a dequantised constant under every layout the compiler may
    hold it in with its output channels first (the quantisation axis, or any axis for a
    per-tensor scale)."""
    ints = values.astype(np.int64)
    scales = np.asarray(scales, np.float32)
    if axis is None or scales.size == 1:
        axes = range(max(values.ndim, 1))
        ints = ints - _int8_zero_point(zp).reshape(-1)[0] if zp is not None else ints
    else:
        axes = [axis]
        shape = [1] * values.ndim
        shape[axis] = -1
        ints = ints - (_int8_zero_point(zp).reshape(shape) if zp is not None else 0)
    if values.dtype != np.int32 and (ints.min(initial=0) < -128 or ints.max(initial=0) > 127):
        return
    for a in axes:
        moved = np.moveaxis(ints, a, 0) if values.ndim else ints.reshape(1)
        channels = moved.shape[0]
        per = np.full(channels, scales.reshape(-1)[0], np.float32) if scales.size == 1 \
            else scales.reshape(-1)
        if per.size != channels:
            continue
        dims = (-1,) + (1,) * (moved.ndim - 1)
        real = (moved.astype(np.float32) * per.reshape(dims)).astype(np.float32)
        dtype = np.int32 if values.dtype == np.int32 else np.int8
        q.constants[constant_key(real)] = ConstantQuantization(moved.astype(dtype), per)


def _dequantize_constant(g: OnnxGraph, n: OnnxOp, q: ModelQuantization) -> bool:
    x = g.const(n.inputs[0])
    s = g.const(n.inputs[1])
    zp = g.const(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else None
    if x is None or s is None or (len(n.inputs) > 2 and n.inputs[2] and zp is None):
        return False
    axis = int(n.attrs.get("axis", 1)) if np.size(s) > 1 else None
    if axis is not None and axis < 0:
        axis += x.ndim
    shape = [1] * x.ndim
    if axis is not None:
        shape[axis] = -1
    zpv = zp.astype(np.float32).reshape(shape if axis is not None else []) \
        if zp is not None else np.float32(0)
    sv = s.astype(np.float32).reshape(shape if axis is not None else [])
    real = ((x.astype(np.float32) - zpv) * sv).astype(np.float32)
    _record_constant(q, x, s, zp, axis)
    g.consts[n.outputs[0]] = real
    g.remove(n)
    return True


def _quantize_constant(g: OnnxGraph, n: OnnxOp) -> bool:
    """QuantizeLinear of a float constant (weights some exporters keep in float) becomes the
    integer constant it gives: `saturate(round_half_even(x / scale) + zp)`."""
    x, s = g.const(n.inputs[0]), g.const(n.inputs[1])
    zp = g.const(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else np.uint8(0)
    if x is None or s is None or zp is None or zp.dtype not in (np.uint8, np.int8):
        return False
    shape = [1] * x.ndim
    if np.size(s) > 1:
        axis = int(n.attrs.get("axis", 1)) % max(x.ndim, 1)
        shape[axis] = -1
    else:
        shape = []
    info = np.iinfo(zp.dtype)
    v = np.rint(x.astype(np.float32) / s.astype(np.float32).reshape(shape)) + \
        zp.astype(np.float32).reshape(shape)
    g.consts[n.outputs[0]] = np.clip(v, info.min, info.max).astype(zp.dtype)
    g.remove(n)
    return True


_UNPAIRED = ("not supported: a {} that is not one of a QuantizeLinear/DequantizeLinear pair "
             "of one per-tensor 8-bit scale and zero point around a value, or of a constant, "
             "has no runtime operator")


def absorb_pairs(g: OnnxGraph, q: ModelQuantization, report: Report):
    for n in list(g.nodes):
        if n.op_type == "QuantizeLinear" and not n.domain and g.is_const(n.inputs[0]):
            with _named(n):
                done = _quantize_constant(g, n)
            if done:
                report.add("QuantizeLinear of a constant")
    for n in list(g.nodes):
        if n.op_type == "DequantizeLinear" and not n.domain and g.is_const(n.inputs[0]):
            with _named(n):
                done = _dequantize_constant(g, n, q)
            if done:
                report.add("DequantizeLinear of a constant")
    for n in list(g.nodes):
        if n.op_type != "QuantizeLinear" or n.domain:
            continue
        params = _scalar_params(g, n)
        if params is None:
            continue
        x, out = n.inputs[0], n.outputs[0]
        readers = g.consumers(out)
        pairs = [r for r in readers if r.op_type == "DequantizeLinear" and not r.domain and
                 r.inputs[0] == out and _scalar_params(g, r) == params]
        if not pairs:
            continue
        q.activations.setdefault(x, params)
        for r in pairs:
            g.remove(r)
            g.replace_uses(r.outputs[0], x)
            q.activations.setdefault(r.outputs[0], params)
            report.add("QuantizeLinear/DequantizeLinear pair")
        if len(pairs) == len(readers) and out not in g.outputs:
            g.remove(n)
    for n in g.nodes:
        if n.op_type in ("QuantizeLinear", "DequantizeLinear") and not n.domain:
            n.note = _UNPAIRED.format(n.op_type)


@contextlib.contextmanager
def _named(n: OnnxOp):
    """A node whose inputs the import cannot use (a scale that is not a constant, scales
    that do not match the axis, missing inputs) stops the compiler with one line naming it
    (the front end turns ValueError into CompileError)."""
    try:
        yield
    except (TypeError, IndexError, AttributeError, ValueError) as e:
        raise ValueError(f"{n.where}: cannot be imported: its scales, zero points or "
                         f"inputs are not what ONNX specifies ({e})") from None


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    if not _is_quantized_model(g):
        return report
    quantization = ModelQuantization()
    qoperator_to_qdq(g, report)
    absorb_pairs(g, quantization, report)
    g.quantization = quantization
    return report
