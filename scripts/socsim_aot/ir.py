"""The compiler's graph IR and the services operator definitions use to lower, quantise and
parameterise their nodes (socsim_aot/schema/ hooks; compiler.py drives them).

A node's `op` is an operator name of the schema ("aten::convolution.out"); quantisation
replaces it with the operator's int8 variant. Values carry shapes, dtypes, constants and
per-tensor or per-channel quantisation.
"""

import dataclasses
import math
from typing import Dict, List, Optional

import numpy as np

from socsim_aot import fixed_point as fx

INF = float("inf")


class CompileError(Exception):
    """A model the compiler cannot translate; the message names the node and operator."""


@dataclasses.dataclass
class Value:
    name: str
    shape: List[int]
    dtype: np.dtype
    const: Optional[np.ndarray] = None
    scale: float = 0.0  # int8 activations: per-tensor scale (calibrated ones: zero point 0)
    zero_point: int = 0
    channel_scales: Optional[np.ndarray] = None  # int8 weights: per output channel

    @property
    def quantized(self) -> bool:
        return self.dtype == np.int8 and self.scale > 0


@dataclasses.dataclass
class Node:
    op: str  # schema operator name
    inputs: List[str]
    outputs: List[str]
    attrs: dict
    where: str  # "node 'NAME' (op TYPE)" for messages


class Graph:
    def __init__(self):
        self.values: Dict[str, Value] = {}
        self.nodes: List[Node] = []
        self.inputs: List[str] = []
        self.outputs: List[str] = []
        self.alias: Dict[str, str] = {}
        self.use_count: Dict[str, int] = {}  # ONNX consumers of each value
        self.npu_segments: List[List[Node]] = []
        # A pre-quantised model's own quantisation (passes/import_qdq.ModelQuantization).
        self.model_quantization = None

    def resolve(self, name):
        while name in self.alias:
            name = self.alias[name]
        return name

    def value(self, name) -> Value:
        return self.values[self.resolve(name)]

    def add_const(self, name, array):
        array = np.ascontiguousarray(array)
        self.values[name] = Value(name, list(array.shape), array.dtype, const=array)
        return name

    def consumers(self, name):
        return [n for n in self.nodes if name in n.inputs]

    def input_value(self, node: Node, index: int = 0) -> Value:
        return self.value(node.inputs[index])

    def output_value(self, node: Node, index: int = 0) -> Value:
        """The value a node's arguments quantise its output to: its output's, or for a layer
        with a fused lookup stage (npu_partition) the value it requantises to before the
        table (`requantised_output`)."""
        if index == 0 and "requantised_output" in node.attrs:
            return self.values[node.attrs["requantised_output"]]
        return self.values[node.outputs[index]]


class OnnxNode:
    """One ONNX node being lowered: its attributes, resolved inputs, outputs, and `emit`."""

    def __init__(self, g: Graph, op_type: str, attrs: dict, inputs: List[str],
                 outputs: List[str], where: str):
        self.g, self.op_type, self.attrs = g, op_type, attrs
        self.inputs, self.outputs, self.where = inputs, outputs, where

    def emit(self, op: str, inputs: List[str], **attrs) -> Node:
        node = Node(op, inputs, self.outputs[:1], attrs, self.where)
        self.g.nodes.append(node)
        return node

    def emit_to(self, op: str, inputs: List[str], output: str, **attrs) -> Node:
        """A node writing `output` (an intermediate value of a lowering, see `value`)."""
        node = Node(op, inputs, [output], attrs, self.where)
        self.g.nodes.append(node)
        return node

    def value(self, suffix: str, shape, dtype=np.float32) -> str:
        """A new intermediate value of this node's lowering, named after its first output."""
        name = f"{self.outputs[0]}::{suffix}"
        if name in self.g.values:
            raise CompileError(f"{self.where}: value {name} made twice")
        self.g.values[name] = Value(name, [int(d) for d in shape], np.dtype(dtype))
        return name

    def const(self, name: str, what: str) -> np.ndarray:
        v = self.g.value(name)
        if v.const is None:
            raise CompileError(f"{self.where}: {what} must be a constant")
        return v.const

    def output(self, index: int = 0) -> Value:
        return self.g.values[self.outputs[index]]

    def fail(self, why: str):
        raise CompileError(f"{self.where}: {why}")


class Quantizer:
    """What a quantisation hook may do to its node: insert int8 conversions before it and
    add constants. `insert` keeps the nodes in order."""

    def __init__(self, g: Graph, new_nodes: List[Node]):
        self.g, self.new_nodes = g, new_nodes

    def requantized(self, name: str, scale: float, where: str, zero_point: int = 0) -> str:
        """`name` requantised to `scale` (and `zero_point`) by a requantize node placed
        before the current one."""
        src = self.g.values[name]
        if src.scale == scale and (src.const is not None or src.zero_point == zero_point):
            return name
        if src.const is not None and src.dtype == np.float32:
            # a float constant has no scale to convert from: quantise it where it is read
            return self.constant_at(name, scale, zero_point)
            return name
        r = Value(f"{name}::rq{len(self.new_nodes)}", src.shape, np.dtype(np.int8), scale=scale,
                  zero_point=zero_point)
        self.g.values[r.name] = r
        self.new_nodes.append(Node("quantized_decomposed::requantize.out", [name], [r.name], {},
                                   where))
        return r.name

    def constant(self, name: str) -> str:
        """A float constant operand becomes a per-tensor symmetric int8 constant."""
        v = self.g.values[name]
        if v.const is None or v.dtype != np.float32:
            return name
        scale = scale_from_range(np.abs(v.const).max(initial=0.0))
        qname = name + "::q8"
        self.g.add_const(qname, fx.quantize_f32(v.const, scale, 0))
        self.g.values[qname].scale = scale
        return qname

    def constant_at(self, name: str, scale: float, zero_point: int = 0) -> str:
        """A float constant quantised at `scale` and `zero_point`: an operand that must share
        its reader's scale (a concatenation's; an all-zero class token has no range of its
        own to requantise from)."""
        v = self.g.values[name]
        qname = f"{name}::q8@{scale!r}" + (f"z{zero_point}" if zero_point else "")
        if qname not in self.g.values:
            self.g.add_const(qname, fx.quantize_f32(v.const, scale, zero_point))
            self.g.values[qname].scale = scale
            self.g.values[qname].zero_point = zero_point
        return qname

    def weights(self, node: Node):
        """Per-output-channel int8 weights, int32 bias and the requantisation table of a
        convolution or fully connected node (inputs become x, w, bias, requant)."""
        g = self.g
        x = g.values[node.inputs[0]]
        y = g.values[node.outputs[0]]
        w = g.values[node.inputs[1]].const.astype(np.float64)
        b = g.values[node.inputs[2]].const.astype(np.float64)
        given = model_weights(g, node, x.scale)
        if given is not None:  # a pre-quantised model's own weights and bias
            wq, ws, bq = given
        else:
            absmax = np.abs(w.reshape(w.shape[0], -1)).max(axis=1)
            ws = bias_headroom_scales(
                np.where(absmax > 0, np.maximum(absmax / 127.0, MIN_SCALE), 1.0), b, x.scale)
            shape = (-1,) + (1,) * (w.ndim - 1)
            wq = np.clip(np.floor(w / ws.reshape(shape) + 0.5), -127, 127).astype(np.int8)
            bq = np.floor(b / (x.scale * ws) + 0.5)
        if np.any(np.abs(bq) > BIAS_LIMIT):
            raise CompileError(f"{node.where}: quantised bias does not fit int32")
        k = int(np.prod(w.shape[1:]))
        if k * 255 * 127 + np.abs(bq).max(initial=0) >= 2 ** 31:
            raise CompileError(f"{node.where}: int32 accumulator could overflow ({k} products)")
        rq = np.array([fx.quantize_multiplier(float(x.scale * s / y.scale)) for s in ws],
                      np.int32)
        wname, bname, rname = (node.outputs[0] + suffix for suffix in ("::wq", "::bq", "::rq"))
        g.add_const(wname, wq)
        g.values[wname].channel_scales = ws.astype(np.float32)
        g.add_const(bname, bq.astype(np.int32))
        g.add_const(rname, rq.reshape(-1, 2))
        node.inputs = [node.inputs[0], wname, bname, rname]


def model_weights(g: Graph, node: Node, input_scale: float):
    """(int8 weights, per-channel scales, int32 bias) of a convolution or fully connected
    node as a pre-quantised model gives them (passes/import_qdq), or None when the model does
    not give them all: the weights as int8 integers, and the bias as int32 integers at the
    scale `input_scale x weight scale` (a float bias is quantised to that scale here)."""
    given = g.model_quantization
    if given is None:
        return None
    w = given.constant(g.values[node.inputs[1]].const)
    if w is None or w.values.dtype != np.int8:
        return None
    ws = w.scales.astype(np.float64)
    b = g.values[node.inputs[2]].const
    bias_scale = np.float32(input_scale) * w.scales  # float32, as the model's bias scale
    bias = given.constant(b)
    if bias is not None and bias.values.dtype == np.int32 and \
            np.allclose(bias.scales, bias_scale, rtol=1e-6, atol=0):
        bq = bias.values.astype(np.float64)
    elif not np.any(b):
        bq = np.zeros(len(ws))
    else:
        bq = np.floor(b.astype(np.float64) / (input_scale * ws) + 0.5)
    return w.values, ws, bq


# The largest quantised bias: the middle half of int32, leaving room for the products.
BIAS_LIMIT = 2 ** 30


def bias_headroom_scales(ws: np.ndarray, bias: np.ndarray, input_scale: float) -> np.ndarray:
    """Per-channel weight scales widened where the bias would not fit: the bias's scale is
    `input_scale x ws[c]`, so a channel whose |bias| / (input_scale ws[c]) exceeds BIAS_LIMIT
    gets ws[c] = |bias[c]| / (input_scale BIAS_LIMIT) (TFLite's AdjustWeightsForBiasScale
    keeps biases in the same middle half). Such a channel's output is dominated by its bias;
    its weights lose resolution (fewer int8 steps), the other channels are unchanged."""
    need = np.abs(bias.astype(np.float64)) / (float(input_scale) * BIAS_LIMIT)
    return np.where(need > ws, need, ws)


# The smallest scale a program holds: float32's smallest normal number (a scale is stored as
# float32, and the program reader refuses 0). A range too small for it (subnormal weights or
# activations) is quantised at this scale, where all its values are 0.
MIN_SCALE = float(np.finfo(np.float32).tiny)


def scale_from_range(absmax) -> float:
    return max(float(absmax) / 127.0, MIN_SCALE) if absmax > 0 else 1.0


def act_bounds_q(lo, hi, v: Value):
    """Float activation bounds as int8 values of `v`'s quantisation (-inf/inf: no bound)."""
    qlo = -128 if lo == -INF else max(-128, int(math.floor(lo / v.scale + 0.5)) + v.zero_point)
    qhi = 127 if hi == INF else min(127, int(math.floor(hi / v.scale + 0.5)) + v.zero_point)
    return qlo, qhi


def shape4(shape: List[int]) -> List[int]:
    """A shape of rank <= 4 as NCHW (leading 1s)."""
    shape = list(shape)
    if len(shape) > 4:
        raise ValueError(f"shape {shape} has more than 4 dimensions")
    return [1] * (4 - len(shape)) + shape
