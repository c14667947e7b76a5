"""Constant folding and shape inference for static shapes.

A node whose inputs are all constants is evaluated with numpy (socsim_aot/onnx_eval.py) and
replaced by its result; `Shape` and `Size` of a value whose shape is static are constants
too. Exported models compute reshape targets, slice bounds and expand shapes at run time
from `Shape` (Shape -> Gather -> Unsqueeze -> Concat -> Reshape, ConstantOfShape, Range,
Expand, Cast, arithmetic on the results): with a fixed input shape all of it is known ahead
of time. Folding and ONNX shape inference alternate until nothing changes, so a shape that
depends on a folded Reshape is inferred and folded in turn.
"""

import numpy as np

from socsim_aot import onnx_eval
from socsim_aot.onnx_graph import OnnxGraph
from socsim_aot.passes import Options, Report

# Results larger than this stay nodes (a folded Expand or Tile of a large tensor would only
# move work into the program file).
MAX_FOLDED_ELEMENTS = 1 << 22


def _fold_once(g: OnnxGraph, report: Report) -> int:
    folded = 0
    for node in list(g.nodes):
        if node.domain:
            continue
        if node.op_type in ("Shape", "Size") and g.shape(node.inputs[0]) is not None and \
                not g.is_const(node.inputs[0]):
            # Only the shape is needed, not the value: a zero array stands in for it.
            ins = [np.zeros(g.shape(node.inputs[0]), np.int8)]
        elif all(i == "" or g.is_const(i) for i in node.inputs) and node.inputs and \
                onnx_eval.can_evaluate(node):
            ins = [g.const(i) if i else None for i in node.inputs]
        else:
            continue
        outs = onnx_eval.evaluate(node, ins)
        if any(o.size > MAX_FOLDED_ELEMENTS for o in outs) and node.op_type not in (
                "Identity", "Dropout", "Reshape", "Transpose", "Squeeze", "Unsqueeze",
                "Flatten", "Cast"):
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
