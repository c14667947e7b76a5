"""Einsum of two operands in the forms attention layers use (bhqd,bhkd->bhqk for the scores,
bhqk,bhkd->bhqd for the weighted values, bqhd,bkhd->bhqk with the heads elsewhere, the same
with "...") rewritten as MatMul between Transposes: each operand's axes arranged as
[batch..., M, K] and [batch..., K, N], one MatMul, and a Transpose of the result into the
output's order where it differs. Transposes that move no byte become Reshapes later
(merge_reshape_transpose). Batch indices are those of both operands and the output, one
index is summed, and each operand has one free index; other equations (diagonals, sums over
one operand, outer products, more operands) are left to the lowering, which names them.

Needs the operands' static shapes: runs after constant folding, and folds again after each
round of rewrites (the outputs' shapes are then known to ONNX shape inference, and an Einsum
of another's result can be rewritten in the next round).
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report
from socsim_aot.passes import fold_constants

LETTERS = "ABCDEFGH"  # the axes an ellipsis stands for (equations use lower-case letters)


def terms(equation: str, ranks):
    """(a, b, out) index strings of a two-operand equation with an explicit output, "..."
    spelt out (its axes aligned from the right, as they broadcast); None otherwise."""
    equation = equation.replace(" ", "")
    if "->" not in equation:
        return None
    left, out = equation.split("->")
    operands = left.split(",")
    if len(operands) != 2 or len(ranks) != 2:
        return None

    def spell(term, count):
        return term.replace("...", LETTERS[len(LETTERS) - count:] if count > 0 else "")

    spelt = [spell(t, r - (len(t) - 3)) if "..." in t else t for t, r in zip(operands, ranks)]
    if "..." in out:
        out = spell(out, max(len(t) for t in spelt) - (len(out) - 3))
    return spelt[0], spelt[1], out


def plan(a: str, b: str, out: str):
    """(batch, summed, free_a, free_b) index lists when the equation is a batched matrix
    product, else None."""
    if len(set(a)) != len(a) or len(set(b)) != len(b) or len(set(out)) != len(out):
        return None
    summed = [c for c in a if c in b and c not in out]
    free_a = [c for c in a if c not in b]
    free_b = [c for c in b if c not in a]
    batch = [c for c in out if c in a and c in b]
    if len(summed) != 1 or len(free_a) != 1 or len(free_b) != 1 or \
            sorted(out) != sorted(batch + free_a + free_b):
        return None
    return batch, summed, free_a, free_b


def _arranged(g: OnnxGraph, n: OnnxOp, name: str, have: str, want, new_nodes, suffix):
    perm = [have.index(c) for c in want]
    if perm == list(range(len(have))):
        return name
    value = g.const(name)
    if value is not None:
        return g.add_const(f"{n.name}::{suffix}", np.ascontiguousarray(np.transpose(value, perm)))
    moved = g.fresh(f"{n.outputs[0]}::{suffix}")
    new_nodes.append(OnnxOp("Transpose", [name], [moved], {"perm": perm}, f"{n.name}::{suffix}"))
    return moved


def rewrite(g: OnnxGraph, n: OnnxOp) -> bool:
    shapes = [g.shape(i) for i in n.inputs]
    equation = n.attrs.get("equation", b"")
    equation = equation.decode() if isinstance(equation, bytes) else equation
    if len(shapes) != 2 or any(s is None for s in shapes):
        return False
    spelt = terms(equation, [len(s) for s in shapes])
    if spelt is None or len(spelt[0]) != len(shapes[0]) or len(spelt[1]) != len(shapes[1]):
        return False
    a, b, out = spelt
    found = plan(a, b, out)
    if found is None:
        return False
    batch, summed, free_a, free_b = found
    new_nodes = []
    lhs = _arranged(g, n, n.inputs[0], a, batch + free_a + summed, new_nodes, "lhs")
    rhs = _arranged(g, n, n.inputs[1], b, batch + summed + free_b, new_nodes, "rhs")
    product = batch + free_a + free_b
    if product == list(out):
        new_nodes.append(OnnxOp("MatMul", [lhs, rhs], list(n.outputs), {}, n.name))
    else:
        result = g.fresh(f"{n.outputs[0]}::product")
        new_nodes.append(OnnxOp("MatMul", [lhs, rhs], [result], {}, n.name))
        new_nodes.append(OnnxOp("Transpose", [result], list(n.outputs),
                                {"perm": [product.index(c) for c in out]}, n.name + "::out"))
    for node in new_nodes:
        g.insert_before(n, node)
    g.remove(n)
    return True


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    while True:  # an Einsum of another's result has a static shape once that one is rewritten
        done = sum(rewrite(g, n) for n in [n for n in g.nodes
                                            if n.op_type == "Einsum" and not n.domain])
        if not done:
            return report
        report.add("Einsum", done)
        fold_constants.run(g, options)
