"""Removal of nodes that pass their input through: Identity, Dropout (inference: no
training_mode or a constant false one, or ratio 0; its mask not read), and the
nodes that constant folding leaves as no-ops once shapes are known (Reshape, Flatten,
Squeeze or Unsqueeze to the input's shape, Transpose by the identity permutation, Cast to the
input's type, Expand to the input's shape, Concat or Sum of one input, Pad by nothing, Slice
of everything, Add or Sub of 0 and Mul or Div by 1 that do not broadcast the input).
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report

_SAME_SHAPE = ("Reshape", "Flatten", "Squeeze", "Unsqueeze", "Expand", "Slice")
_NEUTRAL = {"Add": 0, "Sub": 0, "Mul": 1, "Div": 1}


def _passes_through(g: OnnxGraph, n: OnnxOp, removed=frozenset()) -> bool:
    """True if `n` passes its first input through; `removed`: nodes already taken out."""
    if n.domain:
        return False
    if n.op_type == "Identity":
        return True
    if n.op_type == "Dropout":  # inference (no or a constant false training_mode), ratio 0
        training = g.const(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else \
            np.array(False)
        ratio = g.const(n.inputs[1]) if len(n.inputs) > 1 and n.inputs[1] else np.array(0.5)
        mask = n.outputs[1] if len(n.outputs) > 1 else ""
        identity = training is not None and not np.any(training) or \
            ratio is not None and not np.any(ratio)
        readers = [c for c in g.consumers(mask) if c not in removed] if mask else []
        return identity and (not mask or not readers and mask not in g.outputs)
    x, y = n.inputs[0] if n.inputs else "", n.outputs[0]
    shape_x, shape_y = g.shape(x), g.shape(y)
    same = shape_x is not None and shape_x == shape_y
    if n.op_type in _SAME_SHAPE:
        if n.op_type == "Slice":
            steps = g.const(n.inputs[4]) if len(n.inputs) > 4 else None
            if steps is not None and np.any(steps < 0):
                return False
        return same
    if n.op_type == "Transpose":
        perm = n.attrs.get("perm")
        return perm is not None and list(perm) == list(range(len(perm)))
    if n.op_type == "Cast":  # bfloat16 (16) reads as float32 in numpy: not the same type
        return n.attrs.get("to") != 16 and g.dtype(x) is not None and \
            np.dtype(g.dtype(x)) == np.dtype(g.dtype(y) or "V")
    if n.op_type in ("Concat", "Sum", "Max", "Min", "Mean"):
        return len([i for i in n.inputs if i]) == 1
    if n.op_type == "Pad":
        pads = g.const(n.inputs[1]) if len(n.inputs) > 1 else None
        return pads is not None and not np.any(pads)
    if n.op_type in _NEUTRAL and same:
        c = g.const(n.inputs[1])
        return c is not None and np.all(c == _NEUTRAL[n.op_type]) and not g.is_const(x)
    return False


def run(g: OnnxGraph, options: Options) -> Report:
    """Removes every node that passes its input through, in one walk over the node list:
    the readers of a removed node's output read its input (`alias`, resolved as each node is
    reached and for every node at the end), and the removed nodes leave the list at the end.
    A removed node that writes a graph output needs OnnxGraph.replace_uses (the output keeps
    its name), which first makes the pending changes. Linear in the nodes where no graph
    output is removed (a chain of 20,000 Identity nodes compiles in seconds)."""
    report = Report()
    alias = {}  # a removed node's output -> the value its readers read instead
    removed = set()

    def resolve(name):
        seen = name
        while name in alias:
            name = alias[name]
        if seen != name:
            alias[seen] = name  # shortens the next look-up of a long chain
        return name

    def flush():
        if alias:
            for m in g.nodes:
                if any(i in alias for i in m.inputs):
                    m.inputs = [resolve(i) for i in m.inputs]
            alias.clear()
        if removed:
            g.remove(*removed)
            removed.clear()

    for n in list(g.nodes):
        if alias and any(i in alias for i in n.inputs):
            n.inputs = [resolve(i) for i in n.inputs]
        if not _passes_through(g, n, removed):
            continue
        removed.add(n)
        report.add(n.op_type)
        old, new = n.outputs[0], n.inputs[0]
        if old in g.outputs:
            flush()
            g.replace_uses(old, new)
        else:
            alias[old] = new
    flush()
    return report
