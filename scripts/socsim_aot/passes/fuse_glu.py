"""Split + Sigmoid + Mul -> GLU (RKNN guide 5.2.5.3, subgraph fusion): the gated linear unit
glu(x, axis) = a * sigmoid(b) where a, b are the two halves of x along `axis` (torch's
F.glu / nn.GLU export exactly this). Runs when the operator schema has `aten::glu.out`.
"""

import numpy as np

from socsim_aot import schema
from socsim_aot.onnx_graph import DOMAIN, OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report, fusion

GLU = "aten::glu.out"


def _halves(g: OnnxGraph, split: OnnxOp):
    """The axis when `split` cuts its input into two equal halves, else None."""
    shape = g.shape(split.inputs[0])
    if not shape or len(split.outputs) != 2:  # unknown, or a scalar (no axis)
        return None
    axis = split.attrs.get("axis", 0) % len(shape)
    sizes = g.const(split.inputs[1]) if len(split.inputs) > 1 and split.inputs[1] else None
    if shape[axis] % 2 or (sizes is not None and list(np.reshape(sizes, -1)) !=
                           [shape[axis] // 2] * 2):
        return None
    return axis


def run(g: OnnxGraph, options: Options) -> Report:
    return fusion(g, schema.find(GLU) is not None, "the schema has no GLU", fuse)


def fuse(g: OnnxGraph, report: Report):
    for split in [n for n in g.nodes if n.op_type == "Split" and not n.domain]:
        axis = _halves(g, split)
        if axis is None:
            continue
        a, b = split.outputs
        sig = g.sole_consumer(b)
        if sig is None or sig.op_type != "Sigmoid" or sig.domain:
            continue
        mul = g.sole_consumer(sig.outputs[0])
        if mul is None or mul.op_type != "Mul" or mul.domain or \
                sorted(mul.inputs) != sorted([a, sig.outputs[0]]) or g.sole_consumer(a) is not mul:
            continue
        fused = OnnxOp("GLU", [split.inputs[0]], list(mul.outputs), {"axis": axis}, mul.name,
                       DOMAIN)
        g.nodes[g.nodes.index(mul)] = fused
        g.remove(split, sig)
        report.add("GLU")
