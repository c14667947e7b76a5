"""Attention masks fused into the softmax they feed: Softmax(Add(scores, M)) with a constant
M whose values are 0 or a large negative number (-inf, torch.finfo(float32).min, -1e9, -1e4:
the ways causal and padding masks are written), and Softmax(Where(keep, scores, v)) with a
constant condition and a constant large negative v (either branch), become one masked
softmax (socsim_schema/masking.py) with the mask as a uint8 constant of the scores' shape.
The scores stay finite, so the int8 program calibrates and quantises them as any activation;
the float32 program computes exactly what the graph did (exp(-inf) = 0). A mask computed
from the input's shape (Trilu, Range, Less, Expand...) is folded into a constant first
(fold_constants).

A mask that changes at run time (a decoder's step over a KV cache whose later rows are not yet
written) is a bool graph input M of the scores' shape in Softmax(Where(M, v, scores)), v a
constant large negative number: M itself (uint8 in the program, 1 = excluded) becomes the
masked softmax's mask operand.

Only a softmax over the last axis or, from opset 13, any axis is rewritten (before opset 13 a
softmax over another axis flattens the trailing axes).
"""

import numpy as np

from socsim_aot import schema
from socsim_aot.onnx_graph import DOMAIN, OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report, fusion

MASKED_SOFTMAX = "aten::_masked_softmax.out"
# Additive mask values at or below this exclude a position (exp(-1e4) is 0 in float32).
EXCLUDED = -1e4


def _softmax_axis(g: OnnxGraph, n: OnnxOp, rank: int):
    if rank == 0:  # a scalar has no axis: lowering refuses the Softmax
        return None
    axis = int(n.attrs.get("axis", -1 if g.opset >= 13 else 1)) % rank
    return axis if g.opset >= 13 or axis == rank - 1 else None


def _additive(g: OnnxGraph, add: OnnxOp, shape):
    """(scores, mask) of Add(scores, M) with M a 0 / large negative constant."""
    for scores, other in ((add.inputs[0], add.inputs[1]), (add.inputs[1], add.inputs[0])):
        m = g.const(other)
        if m is None or g.is_const(scores) or m.dtype.kind != "f":
            continue
        excluded = m <= EXCLUDED
        if np.all((m == 0) | excluded) and np.any(excluded):
            return scores, np.broadcast_to(excluded, shape)
    return None


def _runtime_mask(g: OnnxGraph, where: OnnxOp, shape):
    """(scores, mask input name) of Where(M, v, scores) with M a bool graph input of the
    scores' shape and v a constant large negative number."""
    cond, other, scores = where.inputs
    t = g.types.get(cond)
    v = g.const(other)
    if cond not in g.inputs or t is None or t.dtype != np.bool_ or t.shape is None or \
            list(t.shape) != list(shape) or v is None or g.is_const(scores) or \
            v.dtype.kind != "f" or not np.all(v <= EXCLUDED):
        return None
    return scores, cond


def _selected(g: OnnxGraph, where: OnnxOp, shape):
    """(scores, mask) of Where(C, scores, v) or Where(C, v, scores): C constant, v a
    constant large negative number; or a run-time mask (_runtime_mask)."""
    cond = g.const(where.inputs[0])
    if cond is None:
        return _runtime_mask(g, where, shape)
    for scores, other, excluded_when in ((where.inputs[1], where.inputs[2], False),
                                         (where.inputs[2], where.inputs[1], True)):
        v = g.const(other)
        if v is None or g.is_const(scores) or v.dtype.kind != "f" or not np.all(v <= EXCLUDED):
            continue
        return scores, np.broadcast_to(cond.astype(bool) == excluded_when, shape)
    return None


def fuse(g: OnnxGraph, report: Report):
    for sm in [n for n in g.nodes if n.op_type == "Softmax" and not n.domain]:
        producer = g.producer(sm.inputs[0])
        shape = g.shape(sm.inputs[0])
        if producer is None or producer.domain or shape is None or not shape or \
                g.sole_consumer(sm.inputs[0]) is not sm:
            continue
        axis = _softmax_axis(g, sm, len(shape))
        if axis is None:
            continue
        found = _additive(g, producer, shape) if producer.op_type == "Add" else \
            _selected(g, producer, shape) if producer.op_type == "Where" else None
        if found is None:
            continue
        scores, mask = found
        if g.shape(scores) != shape:
            continue  # the scores themselves broadcast: keep the graph as it is
        mask_name = mask if isinstance(mask, str) else \
            g.add_const(sm.name + "::mask", np.ascontiguousarray(mask, np.uint8))
        g.nodes[g.nodes.index(sm)] = OnnxOp("MaskedSoftmax", [scores, mask_name],
                                            list(sm.outputs), {"dim": axis}, sm.name, DOMAIN)
        g.remove(producer)
        report.add(f"{producer.op_type} mask")


def run(g: OnnxGraph, options: Options) -> Report:
    return fusion(g, schema.find(MASKED_SOFTMAX) is not None,
                  "the schema has no masked softmax", fuse)
