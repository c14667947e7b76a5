"""GELU as exported, x * (1 + erf(x / sqrt 2)) / 2, fused into one operator (torch's
nn.GELU and F.gelu export Div, Erf, Add 1, Mul by x, Mul by 0.5; the two multiplications in
either order; torch 2's Mul 0.5 by (1 + erf), after merge_constant_chains, Erf * 0.5 + 0.5).
In int8 the fused operator is one table lookup instead of five operators, each rounding. Runs when the operator schema has `aten::gelu.out`.
"""

import math

from socsim_aot import schema
from socsim_aot.onnx_graph import DOMAIN, OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report, fusion

GELU = "aten::gelu.out"


def _scalar(g: OnnxGraph, n: OnnxOp, other: str):
    """The scalar constant operand of binary node n whose other operand is `other`."""
    if n is None or len(n.inputs) != 2 or other not in n.inputs:
        return None
    c = g.const(n.inputs[1] if n.inputs[0] == other else n.inputs[0])
    return float(c.reshape(-1)[0]) if c is not None and c.size == 1 else None


def _close(a, b) -> bool:
    return a is not None and abs(a - b) < 1e-6 * abs(b)


def _match(g: OnnxGraph, erf: OnnxOp):
    scaled = g.producer(erf.inputs[0])
    if scaled is None or scaled.domain or g.sole_consumer(erf.inputs[0]) is not erf:
        return None
    x = next((i for i in scaled.inputs if not g.is_const(i)), None)
    c = _scalar(g, scaled, x)
    if not ((scaled.op_type == "Div" and scaled.inputs[0] == x and _close(c, math.sqrt(2))) or
            (scaled.op_type == "Mul" and _close(c, math.sqrt(0.5)))):
        return None
    add = g.sole_consumer(erf.outputs[0])
    if add is not None and add.op_type == "Mul" and \
            _close(_scalar(g, add, erf.outputs[0]), 0.5):
        return _match_halved(g, x, [scaled, erf, add])
    if add is None or add.op_type != "Add" or not _close(_scalar(g, add, erf.outputs[0]), 1.0):
        return None
    first = g.sole_consumer(add.outputs[0])
    second = g.sole_consumer(first.outputs[0]) if first is not None else None
    if first is None or second is None or first.op_type != "Mul" or second.op_type != "Mul":
        return None
    by_x_first = x in first.inputs and _close(_scalar(g, second, first.outputs[0]), 0.5)
    half_first = _close(_scalar(g, first, add.outputs[0]), 0.5) and \
        sorted(second.inputs) == sorted([x, first.outputs[0]])
    if not (by_x_first or half_first) or (by_x_first and first.inputs.count(x) != 1):
        return None
    return x, [scaled, erf, add, first, second]


def _match_halved(g: OnnxGraph, x: str, nodes):
    """x * (erf(x / sqrt 2) * 0.5 + 0.5): torch 2's 0.5 * (1 + erf) after
    merge_constant_chains made its Add 1 and Mul 0.5 one Mul and one Add."""
    half = nodes[-1]
    add = g.sole_consumer(half.outputs[0])
    if add is None or add.op_type != "Add" or not _close(_scalar(g, add, half.outputs[0]), 0.5):
        return None
    last = g.sole_consumer(add.outputs[0])
    if last is None or last.op_type != "Mul" or sorted(last.inputs) != sorted([x, add.outputs[0]]):
        return None
    return x, nodes + [add, last]


def fuse(g: OnnxGraph, report: Report):
    for erf in [n for n in g.nodes if n.op_type == "Erf" and not n.domain]:
        found = _match(g, erf) if erf in g.nodes else None
        if found is None:
            continue
        x, nodes = found
        g.nodes[g.nodes.index(nodes[-1])] = OnnxOp("GELU", [x], list(nodes[-1].outputs), {},
                                                   nodes[-1].name, DOMAIN)
        g.remove(*nodes[:-1])
        report.add("GELU")


def run(g: OnnxGraph, options: Options) -> Report:
    return fusion(g, schema.find(GELU) is not None, "the schema has no GELU", fuse)
