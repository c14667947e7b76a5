"""Merging of consecutive Reshape and Transpose nodes (RKNN guide 5.2.4.4).

- A Transpose that keeps the order of the axes longer than 1 moves no byte: it becomes a
  Reshape.
- A run of reshapes (Reshape, Flatten, Squeeze, Unsqueeze), each the only reader of the one
  before, is one Reshape to the last shape.
- Two consecutive Transposes are one, by the composed permutation (none if that is the
  identity).
Needs static shapes (after constant folding).
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report

RESHAPES = ("Reshape", "Flatten", "Squeeze", "Unsqueeze")


def _as_reshape(g: OnnxGraph, n: OnnxOp, x: str, out_shape) -> OnnxOp:
    shape = g.add_const(n.name + "::shape", np.array(out_shape, np.int64))
    return OnnxOp("Reshape", [x, shape], list(n.outputs[:1]), {}, n.name)


def _moves_no_byte(shape, perm) -> bool:
    kept = [a for a in perm if shape[a] != 1]
    return kept == sorted(kept)


def transposes_as_reshapes(g: OnnxGraph, report: Report):
    for n in [n for n in g.nodes if n.op_type == "Transpose" and not n.domain]:
        shape, out_shape = g.shape(n.inputs[0]), g.shape(n.outputs[0])
        perm = n.attrs.get("perm")
        if shape is None or out_shape is None or perm is None:
            continue
        if _moves_no_byte(shape, perm):
            g.nodes[g.nodes.index(n)] = _as_reshape(g, n, n.inputs[0], out_shape)
            report.add("Transpose as Reshape")


def merge_reshapes(g: OnnxGraph, report: Report):
    while True:
        pair = next(((a, b) for a in g.nodes if a.op_type in RESHAPES and not a.domain
                     for b in [g.sole_consumer(a.outputs[0])]
                     if b is not None and
                     b.op_type in RESHAPES and not b.domain and b.inputs[0] == a.outputs[0] and
                     g.shape(b.outputs[0]) is not None), None)
        if pair is None:
            return
        first, nxt = pair
        g.remove(first)
        if g.shape(first.inputs[0]) == g.shape(nxt.outputs[0]):
            g.remove(nxt)  # back to the input's shape: nothing left to do
            g.replace_uses(nxt.outputs[0], first.inputs[0])
            report.add("Reshape chain", 2)
            continue
        g.nodes[g.nodes.index(nxt)] = _as_reshape(g, nxt, first.inputs[0],
                                                  g.shape(nxt.outputs[0]))
        report.add("Reshape chain")


def merge_transposes(g: OnnxGraph, report: Report):
    removed = set()
    for first in list(g.nodes):
        if first in removed or first.op_type != "Transpose" or first.domain:
            continue
        nxt = g.sole_consumer(first.outputs[0])
        if nxt is None or nxt.op_type != "Transpose" or nxt.domain:
            continue
        p1, p2 = first.attrs.get("perm"), nxt.attrs.get("perm")
        if p1 is None or p2 is None:
            continue
        perm = [p1[i] for i in p2]
        g.remove(first)
        removed.add(first)
        if perm == list(range(len(perm))):
            g.remove(nxt)
            removed.add(nxt)
            g.replace_uses(nxt.outputs[0], first.inputs[0])
            report.add("Transpose pair", 2)
        else:
            nxt.inputs = [first.inputs[0]]
            nxt.attrs["perm"] = perm
            report.add("Transpose pair")


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    transposes_as_reshapes(g, report)
    merge_transposes(g, report)
    merge_reshapes(g, report)
    return report
