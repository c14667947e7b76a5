"""Merging of constant Add/Mul chains ("combine like terms", RKNN guide 5.2.4.4).

A run of Add, Sub, Mul and Div nodes that each combine one activation with a constant, each
the only reader of the one before, computes x * A + B for constants A and B: it becomes one
Mul and one Add (either dropped when neutral). A per-channel Mul or Add right after a
convolution (or a Gemm, per output feature) goes into its weights and bias, which is how a
BatchNormalization after a convolution disappears (batch_norm.py turns it into Mul + Add).
Constants are combined in float64 and stored in the activation's type.
"""

from typing import Optional, Tuple

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report

_AFFINE = ("Add", "Sub", "Mul", "Div")


def affine_step(g: OnnxGraph, n: OnnxOp) -> Optional[Tuple[str, np.ndarray, np.ndarray]]:
    """(x, a, b) when node n computes x * a + b with constants a, b broadcasting to x's
    shape without changing it; None otherwise."""
    if n.op_type not in _AFFINE or n.domain or len(n.inputs) != 2:
        return None
    left, right = n.inputs
    if g.is_const(left) == g.is_const(right):
        return None
    x, c, const_first = (right, g.const(left), True) if g.is_const(left) else \
        (left, g.const(right), False)
    shape = g.shape(x)
    if shape is None or g.shape(n.outputs[0]) != shape or \
            not np.issubdtype(g.dtype(x), np.floating):
        return None
    c = c.astype(np.float64)
    one, zero = np.ones_like(c), np.zeros_like(c)
    if n.op_type == "Add":
        return x, one, c
    if n.op_type == "Mul":
        return x, c, zero
    if n.op_type == "Sub":
        return (x, -one, c) if const_first else (x, one, -c)
    if const_first or np.any(c == 0):  # c / x is not affine
        return None
    return x, 1.0 / c, zero


def _emit(g: OnnxGraph, at: OnnxOp, x: str, a, b, out: str, dtype) -> int:
    """x * a + b into `out` before node `at`; returns the number of nodes emitted."""
    nodes = []
    if not np.all(a == 1):
        nodes.append(("Mul", a))
    if not np.all(b == 0):
        nodes.append(("Add", b))
    if not nodes:
        nodes.append(("Mul", a))  # keeps `out` a value of its own
    for i, (op, c) in enumerate(nodes):
        dst = out if i == len(nodes) - 1 else g.fresh(out)
        const = g.add_const(out + "::" + op.lower(), np.asarray(c, dtype))
        g.insert_before(at, OnnxOp(op, [x, const], [dst], {}, g.fresh(at.name)))
        if dst != out:
            g.types[dst] = g.types.get(out)
        x = dst
    return len(nodes)


def _affine_nodes(g: OnnxGraph, nodes, removed: set):
    """(node, x, a, b) for each of `nodes` not in `removed` (the nodes the caller took out
    of the graph meanwhile) that computes x * a + b."""
    for n in list(nodes):
        step = affine_step(g, n) if n not in removed else None
        if step is not None:
            yield (n,) + step


def merge_chains(g: OnnxGraph, report: Report):
    removed = set()
    for first, x, a, b in _affine_nodes(g, g.nodes, removed):
        chain, last = [first], first
        while True:
            nxt = g.sole_consumer(last.outputs[0])
            s = affine_step(g, nxt) if nxt is not None else None
            if s is None or s[0] != last.outputs[0]:
                break
            a, b = a * s[1], b * s[1] + s[2]
            chain.append(nxt)
            last = nxt
        if len(chain) < 2:
            continue
        out = last.outputs[0]
        dtype = g.dtype(x)
        emitted = _emit(g, chain[0], x, a, b, out, dtype)
        g.remove(*chain)
        removed.update(chain)
        if len(chain) > emitted:
            report.add("Add/Mul chain", len(chain) - emitted)


def _channel_vector(c: np.ndarray, shape, axis: int) -> Optional[np.ndarray]:
    """A constant that broadcasts along `axis` of `shape` only (or a scalar), as a vector of
    shape[axis] values."""
    rank = len(shape)
    if c.ndim > rank:
        return None
    full = (1,) * (rank - c.ndim) + c.shape
    if any(d != 1 for i, d in enumerate(full) if i != axis):
        return None
    return np.broadcast_to(c.reshape(-1) if c.size > 1 else c.reshape(1), (shape[axis],))


def fold_into_producer(g: OnnxGraph, report: Report, nodes=None):
    """Per-channel Mul/Add right after a Conv, or per-feature after a Gemm with constant
    weights, into its weights and bias (of `nodes`, default all)."""
    live = set(g.nodes)  # `nodes` may name nodes no longer in the graph
    removed = set(n for n in (g.nodes if nodes is None else nodes) if n not in live)
    for n, x, a, b in _affine_nodes(g, g.nodes if nodes is None else nodes, removed):
        producer = g.producer(x)
        if producer is None or g.sole_consumer(x) is not n or producer.domain:
            continue
        shape = g.shape(x)
        if producer.op_type == "Conv" and g.is_const(producer.inputs[1]):
            axis, w_axis = 1, 0
        elif producer.op_type == "Gemm" and g.is_const(producer.inputs[1]) and \
                not producer.attrs.get("transA", 0) and len(shape) == 2:
            axis, w_axis = 1, 0 if producer.attrs.get("transB", 0) else 1
        else:
            continue
        a = _channel_vector(a, shape, axis)
        b = _channel_vector(b, shape, axis)
        if a is None or b is None:
            continue
        w = g.const(producer.inputs[1]).astype(np.float64)
        scale = a.reshape([-1 if i == w_axis else 1 for i in range(w.ndim)])
        beta = 1.0
        if producer.op_type == "Gemm":  # alpha goes into the weights, beta into the bias
            w = w * producer.attrs.pop("alpha", 1.0)
            beta = producer.attrs.get("beta", 1.0)
        bias_name = producer.inputs[2] if len(producer.inputs) > 2 else ""
        bias = g.const(bias_name) if bias_name else None
        if bias_name and bias is None:
            continue
        bias = np.zeros(shape[axis]) if bias is None else \
            np.broadcast_to(bias.astype(np.float64).reshape(-1), (shape[axis],)) * beta
        producer.attrs.pop("beta", None)
        dtype = g.dtype(x)
        producer.inputs = producer.inputs[:1] + [
            g.add_const(producer.name + "::weight", (w * scale).astype(dtype)),
            g.add_const(producer.name + "::bias", (bias * a + b).astype(dtype))]
        g.remove(n)
        removed.add(n)
        g.replace_uses(n.outputs[0], x)
        report.add(f"{n.op_type} into {producer.op_type}")


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    merge_chains(g, report)
    fold_into_producer(g, report)
    return report
