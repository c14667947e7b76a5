"""The decomposed layer normalisation fused into LayerNormalization (RKNN guide 5.2.5.3):

    m = ReduceMean(x, axes)      d = Sub(x, m)          p = Pow(d, 2)  (or Mul(d, d))
    v = ReduceMean(p, axes)      s = Sqrt(Add(v, eps))  n = Div(d, s)
    [y = Mul(n, gamma)]          [z = Add(y, beta)]

over the trailing axes, which is how torch exports nn.LayerNorm below opset 17. Every
intermediate value must have no other reader. The result is ONNX LayerNormalization (opset
17 semantics: axis, epsilon, scale, bias), lowered by the schema operator that lowers that
ONNX operator; the pass runs when there is one.
"""

from typing import List, Optional

import numpy as np

from socsim_aot import schema
from socsim_aot.onnx_graph import DOMAIN, OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report, fusion


def _only(g: OnnxGraph, value: str, op_type: str) -> Optional[OnnxOp]:
    n = g.sole_consumer(value)
    return n if n is not None and n.op_type == op_type and not n.domain else None


def _const_operand(g: OnnxGraph, n: OnnxOp, x: str):
    """The constant other operand of binary node n whose activation operand is x."""
    others = [i for i in n.inputs if i != x]
    return g.const(others[0]) if len(others) == 1 else None


def _trailing_axes(g: OnnxGraph, reduce: OnnxOp, rank: int) -> Optional[int]:
    """The first axis when `reduce` averages the trailing axes with keepdims, else None."""
    axes = reduce.attrs.get("axes")
    if axes is None or not reduce.attrs.get("keepdims", 1) or not axes or \
            not all(-rank <= int(a) < rank for a in axes):  # (a scalar has no axis)
        return None
    axes = sorted(int(a) % rank for a in axes)
    return axes[0] if axes == list(range(axes[0], rank)) else None


def _match(g: OnnxGraph, mean: OnnxOp):
    """(nodes, x, axis, eps, gamma, beta, output) of the pattern starting at `mean`."""
    x = mean.inputs[0]
    shape = g.shape(x)
    if shape is None:
        return None
    axis = _trailing_axes(g, mean, len(shape))
    sub = _only(g, mean.outputs[0], "Sub")
    if axis is None or sub is None or sub.inputs != [x, mean.outputs[0]]:
        return None
    d = sub.outputs[0]
    users = g.consumers(d)
    if len(users) != 2 or d in g.outputs:
        return None
    div = next((u for u in users if u.op_type == "Div" and u.inputs[0] == d), None)
    sq = next((u for u in users if u is not div), None)
    if div is None or sq is None:
        return None
    if sq.op_type == "Pow":
        exponent = _const_operand(g, sq, d)
        if exponent is None or exponent.size != 1 or float(exponent.reshape(-1)[0]) != 2.0:
            return None
    elif not (sq.op_type == "Mul" and sq.inputs == [d, d]):
        return None
    var = _only(g, sq.outputs[0], "ReduceMean")
    if var is None or _trailing_axes(g, var, len(shape)) != axis:
        return None
    add = _only(g, var.outputs[0], "Add")
    eps = _const_operand(g, add, var.outputs[0]) if add is not None else None
    sqrt = _only(g, add.outputs[0], "Sqrt") if add is not None else None
    if eps is None or eps.size != 1 or sqrt is None or div.inputs[1] != sqrt.outputs[0] or \
            g.sole_consumer(sqrt.outputs[0]) is not div:
        return None
    nodes: List[OnnxOp] = [mean, sub, sq, var, add, sqrt, div]
    out = div.outputs[0]
    norm_shape = shape[axis:]
    gamma, beta = np.ones(norm_shape, g.dtype(x)), None

    def affine(op_type):
        """The constant of an `op_type` node reading `out` (then its node joins the match),
        broadcast to the normalised axes; None if there is none."""
        nonlocal out
        n = _only(g, out, op_type)
        c = _const_operand(g, n, out) if n is not None else None
        if c is None or not _fits(c, norm_shape):
            return None
        nodes.append(n)
        out = n.outputs[0]
        return np.broadcast_to(c, norm_shape).astype(g.dtype(x))
    scale = affine("Mul")
    if scale is not None:
        gamma, beta = scale, affine("Add")
    return nodes, x, axis, float(eps.reshape(-1)[0]), gamma, beta, out


def _fits(c: np.ndarray, norm_shape) -> bool:
    """c broadcasts to the normalised axes only (no batch or sequence axis)."""
    if c.ndim > len(norm_shape):
        lead = c.shape[:c.ndim - len(norm_shape)]
        if any(d != 1 for d in lead):
            return False
        c = c.reshape(c.shape[c.ndim - len(norm_shape):])
    try:
        return np.broadcast_shapes(c.shape, tuple(norm_shape)) == tuple(norm_shape)
    except ValueError:
        return False


def run(g: OnnxGraph, options: Options) -> Report:
    return fusion(g, "LayerNormalization" in schema.onnx_operators(),
                  "the schema has no operator for ONNX LayerNormalization", fuse)


def fuse(g: OnnxGraph, report: Report):
    for mean in [n for n in g.nodes if n.op_type == "ReduceMean" and not n.domain]:
        if mean not in g.nodes:
            continue
        found = _match(g, mean)
        if found is None:
            continue
        nodes, x, axis, eps, gamma, beta, out = found
        inputs = [x, g.add_const(mean.name + "::scale", gamma)]
        if beta is not None:
            inputs.append(g.add_const(mean.name + "::bias", beta))
        fused = OnnxOp("LayerNormalization", inputs, [out], {"axis": axis, "epsilon": eps},
                       nodes[-1].name, DOMAIN)
        g.nodes[g.nodes.index(nodes[-1])] = fused
        g.remove(*nodes[:-1])
        report.add("LayerNorm" + (" with scale and bias" if beta is not None else ""))
