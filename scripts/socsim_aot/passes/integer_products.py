"""MatMulInteger and ConvInteger (int32 products of uint8/int8 operands less their zero
points) rewritten into float32 operators that compute them exactly: each operand cast to
float32 and its zero point subtracted (a constant operand folded), the float MatMul or Conv
(the same attributes), the result cast to int32. float32 holds every integer up to 2^24
exactly, so the float sums are the integer sums when no partial sum can pass 2^24: the
rewrite is made only when the reduction length K (MatMul: A's last axis; Conv: C/group x
kernel area) x the largest |x - zp| x the largest |w - zp| is at most 2^24 (x: 255 unless a
constant says less). Others are left to the lowering, which names them.
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report

EXACT = 1 << 24
FLOAT, INT32 = 1, 6  # TensorProto element types


def _operand(g: OnnxGraph, n: OnnxOp, index: int, zp_index: int, new_nodes, per_row=False):
    """(the float32 operand less its zero point, the largest |value - zp| it can have)."""
    name = n.inputs[index]
    zp_name = n.inputs[zp_index] if len(n.inputs) > zp_index and n.inputs[zp_index] else ""
    zp = g.const(zp_name) if zp_name else np.zeros(1, np.int64)
    if zp is None:
        return None, None
    zp = zp.astype(np.float32)
    value = g.const(name)
    if per_row and zp.size > 1:  # A's zero point per row: [M] against [..., M, K]
        zp = zp.reshape(-1, 1)
    if value is not None:
        if per_row is None and zp.size > 1:  # ConvInteger's w: one zero point per output
            zp = zp.reshape((-1,) + (1,) * (value.ndim - 1))
        diff = value.astype(np.float32) - zp
        return g.add_const(f"{n.name}::operand{index}", diff), float(np.abs(diff).max(initial=0))
    dtype = g.dtype(name)
    if dtype not in (np.dtype(np.uint8), np.dtype(np.int8)):
        return None, None
    lo, hi = (0, 255) if dtype == np.uint8 else (-128, 127)
    largest = float(np.max(np.maximum(np.abs(hi - zp), np.abs(zp - lo)), initial=0))
    cast = g.fresh(f"{n.outputs[0]}::float{index}")
    new_nodes.append(OnnxOp("Cast", [name], [cast], {"to": FLOAT}, f"{n.name}::cast{index}"))
    if not np.any(zp):
        return cast, largest
    if per_row is None and zp.size > 1 and g.shape(name) is not None:  # w: one per output
        zp = zp.reshape((-1,) + (1,) * (len(g.shape(name)) - 1))
    less = g.fresh(f"{n.outputs[0]}::centred{index}")
    zp_const = g.add_const(f"{n.name}::zero_point{index}", zp)
    new_nodes.append(OnnxOp("Sub", [cast, zp_const], [less], {}, f"{n.name}::centre{index}"))
    return less, largest


def rewrite(g: OnnxGraph, n: OnnxOp) -> bool:
    conv = n.op_type == "ConvInteger"
    new_nodes = []
    x, x_max = _operand(g, n, 0, 2, new_nodes, per_row=False if conv else True)
    w, w_max = _operand(g, n, 1, 3, new_nodes, per_row=None if conv else False)
    shape_w = g.shape(n.inputs[1])
    if x is None or w is None or shape_w is None:
        return False
    k = int(np.prod(shape_w[1:])) if conv else shape_w[-2]
    if k * x_max * w_max > EXACT:
        n.note = (f"not supported: {n.op_type} with sums up to {k} x {x_max:g} x {w_max:g} "
                  f"> 2^24 (computed in float32, exact to 2^24)")
        return False
    product = g.fresh(f"{n.outputs[0]}::float")
    attrs = dict(n.attrs) if conv else {}
    new_nodes.append(OnnxOp("Conv" if conv else "MatMul", [x, w], [product], attrs, n.name))
    new_nodes.append(OnnxOp("Cast", [product], list(n.outputs), {"to": INT32},
                            f"{n.name}::int32"))
    for node in new_nodes:
        g.insert_before(n, node)
    g.remove(n)
    return True


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    for n in [n for n in g.nodes if n.op_type in ("MatMulInteger", "ConvInteger") and
              not n.domain]:
        if rewrite(g, n):
            report.add(n.op_type)
    return report
