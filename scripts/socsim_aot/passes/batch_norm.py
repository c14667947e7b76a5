"""BatchNormalization at inference: y = (x - mean) * scale / sqrt(var + eps) + bias, a
per-channel x * k + c. After a convolution (its only reader) it goes into the convolution's
weights and bias; elsewhere (DenseNet's BN -> ReLU -> Conv) it becomes a per-channel Mul and
Add, which constant_chains.py merges with neighbouring constant arithmetic.
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report
from socsim_aot.passes.constant_chains import fold_into_producer


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    for n in [n for n in g.nodes if n.op_type == "BatchNormalization" and not n.domain]:
        params = [g.const(i) for i in n.inputs[1:5]]
        shape = g.shape(n.inputs[0])
        if any(p is None for p in params) or shape is None or len(shape) < 2 or \
                n.attrs.get("training_mode", 0) or any(o for o in n.outputs[1:]):
            continue  # lowering reports it (training: batch statistics, running outputs)
        scale, bias, mean, var = (p.astype(np.float64) for p in params)
        k = scale / np.sqrt(var + n.attrs.get("epsilon", 1e-5))
        c = bias - mean * k
        dtype = g.dtype(n.inputs[0])
        per_channel = (-1,) + (1,) * (len(shape) - 2)
        mid = g.fresh(n.outputs[0])
        g.types[mid] = g.types.get(n.outputs[0])
        mul = OnnxOp("Mul", [n.inputs[0], g.add_const(n.name + "::k", k.astype(dtype)
                                                      .reshape(per_channel))],
                     [mid], {}, n.name + "::mul")
        add = OnnxOp("Add", [mid, g.add_const(n.name + "::c", c.astype(dtype)
                                               .reshape(per_channel))],
                     [n.outputs[0]], {}, n.name + "::add")
        g.insert_before(n, mul)
        g.insert_before(n, add)
        g.remove(n)
        folded = Report()
        fold_into_producer(g, folded, [mul, add])
        report.add("into Conv" if folded.count else "as Mul + Add")
    return report
