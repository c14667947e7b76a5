"""Constant folding and shape inference for static shapes.

A node whose inputs are all constants is evaluated with numpy (socsim_aot/onnx_eval.py) and
replaced by its result; `Shape` and `Size` of a value whose shape is static are constants
too. Exported models compute reshape targets, slice bounds and expand shapes at run time
from `Shape` (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, ConstantOfShape, Range,
Expand, Cast, arithmetic on the results): with a fixed input shape all of it is known ahead
of time. Folding and ONNX shape inference alternate until nothing changes, so a shape that
depends on a folded Reshape is inferred and folded in turn.
"""

import math
from typing import Optional

import numpy as np

from socsim_aot import onnx_eval
from socsim_aot.ir import CompileError
from socsim_aot.onnx_graph import OnnxGraph
from socsim_aot.passes import Options, Report

# Results larger than this stay nodes (a folded Expand or Tile of a large tensor would only
# move work into the program file). The size is known before anything is evaluated (from
# shape inference, else from the inputs' shapes and values), so no larger array is ever made
# (docs/compiler.md, "Limits").
MAX_FOLDED_ELEMENTS = 1 << 22
# Operators whose result is never larger than their largest input.
_NOT_LARGER = ("Identity", "Dropout", "Reshape", "Transpose", "Squeeze", "Unsqueeze", "Flatten",
               "Cast", "Shape", "Size", "Slice", "Split", "ReduceMean", "ReduceSum",
               "ReduceMax", "ReduceMin", "ReduceProd", "Softmax", "GlobalAveragePool",
               "BatchNormalization", "LayerNormalization", "Clip", "HardSigmoid", "HardSwish",
               "SiLU", "GELU", "GLU") + tuple(
                   op for op in onnx_eval.EVALUATORS if op in onnx_eval.UNARY)


def _elements(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def _result_elements(g: OnnxGraph, node, ins) -> Optional[int]:
    """How many elements the node's results have, without computing them; None if that
    cannot be known before evaluating."""
    types = [g.types.get(o) for o in node.outputs if o]
    if types and all(t is not None and t.static for t in types):
        return sum(_elements(t.shape) for t in types)
    shapes = [np.shape(i) for i in ins if i is not None]
    op = node.op_type
    if op in _NOT_LARGER:
        return max((_elements(s) for s in shapes), default=1)
    if op == "Expand":
        return _elements(np.broadcast_shapes(shapes[0], tuple(int(s) for s in ins[1].reshape(-1))))
    if op == "Tile":  # as numpy tiles: the shorter of shape and repeats gets leading 1s
        shape, reps = list(shapes[0]), [int(r) for r in ins[1].reshape(-1)]
        rank = max(len(shape), len(reps))
        return _elements(d * r for d, r in zip([1] * (rank - len(shape)) + shape,
                                               [1] * (rank - len(reps)) + reps))
    if op == "ConstantOfShape":
        return _elements(int(s) for s in ins[0].reshape(-1))
    if op == "Range":
        start, limit, delta = (float(np.asarray(v).reshape(-1)[0]) for v in ins)
        return max(0, math.ceil((limit - start) / delta))
    if op == "Concat":
        return sum(_elements(s) for s in shapes)
    if op == "Pad":
        return _elements(d + int(a) + int(b) for d, a, b in zip(
            shapes[0], ins[1].reshape(-1), ins[1].reshape(-1)[len(shapes[0]):]))
    if op == "Gather":
        if not shapes[0]:  # a scalar has no axis: validation refuses the Gather
            return None
        axis = node.attrs.get("axis", 0) % len(shapes[0])
        return _elements(shapes[0][:axis]) * _elements(shapes[1]) * \
            _elements(shapes[0][axis + 1:])
    if op in onnx_eval.BROADCASTING:
        return _elements(np.broadcast_shapes(*shapes))
    return None


def _evaluate(g: OnnxGraph, node, ins):
    """The node's results, or None when they would be larger than MAX_FOLDED_ELEMENTS (or
    their size cannot be known); a node that cannot be evaluated is the model's error."""
    try:
        size = _result_elements(g, node, ins)
        if size is None or (size > MAX_FOLDED_ELEMENTS and node.op_type not in (
                "Identity", "Dropout", "Reshape", "Transpose", "Squeeze", "Unsqueeze",
                "Flatten", "Cast")):
            return None
        return onnx_eval.evaluate(node, ins)
    except CompileError:
        raise
    except Exception as e:  # numpy's answer to inputs the operator does not accept
        raise CompileError(f"{node.where}: cannot be evaluated on its constant inputs "
                           f"{[list(np.shape(i)) for i in ins if i is not None]}: "
                           f"{type(e).__name__}: {e}") from None


def _fold_once(g: OnnxGraph, report: Report) -> int:
    folded = 0
    for node in list(g.nodes):
        if node.domain:
            continue
        if node.op_type in ("Shape", "Size") and g.shape(node.inputs[0]) is not None and \
                not g.is_const(node.inputs[0]):
            # Only the shape is needed, not the value: a zero-strided array stands in for it.
            ins = [np.broadcast_to(np.int8(0), g.shape(node.inputs[0]))]
        elif all(i == "" or g.is_const(i) for i in node.inputs) and node.inputs and \
                onnx_eval.can_evaluate(node):
            ins = [g.const(i) if i else None for i in node.inputs]
        else:
            continue
        outs = _evaluate(g, node, ins)
        if outs is None:
            continue
        for name, value in zip(node.outputs, outs):
            if name:
                g.consts[name] = value
        g.remove(node)
        report.add(node.op_type)
        folded += 1
    return folded


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    g.infer_types()
    while _fold_once(g, report):
        g.prune()
        g.infer_types()
    return report
