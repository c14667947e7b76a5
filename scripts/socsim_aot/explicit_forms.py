"""Node forms whose meaning depends on shapes, written out once shapes are inferred (the front
end's graph, before the passes), so that lowering sees one form:

- `auto_pad` SAME_UPPER / SAME_LOWER / VALID of Conv, MaxPool, AveragePool and LpPool becomes
  explicit `pads` (ONNX's definition: the output has ceil(input / stride) elements per
  spatial axis with SAME, the padding split evenly, the odd element at the end for
  SAME_UPPER and at the beginning for SAME_LOWER; VALID pads nothing);
- LayerNormalization's optional Mean and InvStdDev outputs, when read, become their own
  nodes: ReduceMean over the normalised axes (kept as 1s), and
  (ReduceMean((x - mean)^2) + epsilon) ^ -0.5; the LayerNormalization keeps its output Y.
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp

AUTO_PAD_OPS = ("Conv", "MaxPool", "AveragePool", "LpPool")


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def explicit_pads(g: OnnxGraph, op: OnnxOp) -> bool:
    mode = _text(op.attrs.get("auto_pad", "NOTSET"))
    if mode == "NOTSET":
        return False
    shape = g.shape(op.inputs[0])
    if shape is None or len(shape) < 3:
        return False
    spatial = shape[2:]
    kernel = op.attrs.get("kernel_shape")
    if kernel is None and op.op_type == "Conv":
        w = g.shape(op.inputs[1]) if len(op.inputs) > 1 else None
        kernel = w[2:] if w is not None else None
    if kernel is None or len(kernel) != len(spatial):
        return False
    strides = list(op.attrs.get("strides", [1] * len(spatial)))
    dilations = list(op.attrs.get("dilations", [1] * len(spatial)))
    begins, ends = [], []
    for size, k, s, d in zip(spatial, kernel, strides, dilations):
        if mode == "VALID":
            total = 0
        else:
            out = -(-size // s)
            total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        small, large = total // 2, total - total // 2
        begins.append(large if mode == "SAME_LOWER" else small)
        ends.append(small if mode == "SAME_LOWER" else large)
    del op.attrs["auto_pad"]
    op.attrs["pads"] = begins + ends
    return True


def layer_norm_statistics(g: OnnxGraph, op: OnnxOp) -> bool:
    outs = list(op.outputs) + ["", ""]
    mean_out, inv_out = outs[1], outs[2]
    used = {i for n in g.nodes for i in n.inputs} | set(g.outputs)
    if not (mean_out in used and mean_out or inv_out in used and inv_out):
        return False
    shape = g.shape(op.inputs[0])
    if not shape:  # unknown, or a scalar (no axis)
        return False
    rank = len(shape)
    axis = int(op.attrs.get("axis", -1)) % rank
    axes = list(range(axis, rank))
    x = op.inputs[0]
    base = op.name
    mean = mean_out or g.fresh(base + "::mean")
    centred, square, var, shifted = (g.fresh(base + "::" + w)
                                     for w in ("centred", "square", "var", "shifted"))
    eps = g.add_const(base + "::epsilon", np.array(op.attrs.get("epsilon", 1e-5), np.float32))
    half = g.add_const(base + "::minus_half", np.array(-0.5, np.float32))
    nodes = [OnnxOp("ReduceMean", [x], [mean], dict(axes=axes, keepdims=1), g.fresh(base))]
    if inv_out and inv_out in used:
        nodes += [OnnxOp("Sub", [x, mean], [centred], {}, g.fresh(base)),
                  OnnxOp("Mul", [centred, centred], [square], {}, g.fresh(base)),
                  OnnxOp("ReduceMean", [square], [var], dict(axes=axes, keepdims=1),
                         g.fresh(base)),
                  OnnxOp("Add", [var, eps], [shifted], {}, g.fresh(base)),
                  OnnxOp("Pow", [shifted, half], [inv_out], {}, g.fresh(base))]
    op.outputs = op.outputs[:1]
    at = g.nodes.index(op) + 1
    g.nodes[at:at] = nodes
    return True


def run(g: OnnxGraph) -> int:
    """Rewrites every such node of `g`; returns how many."""
    count = 0
    for op in list(g.nodes):
        if op.domain:
            continue
        if op.op_type in AUTO_PAD_OPS and "auto_pad" in op.attrs:
            count += explicit_pads(g, op)
        elif op.op_type == "LayerNormalization" and len(op.outputs) > 1:
            count += layer_norm_statistics(g, op)
        elif op.op_type == "Reciprocal" and g.dtype(op.inputs[0]) is not None:
            one = g.add_const(op.name + "::one", np.ones((), g.dtype(op.inputs[0])))
            op.op_type, op.inputs = "Div", [one, op.inputs[0]]
            count += 1
    if count:
        g.infer_types()
    return count
