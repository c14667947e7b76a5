"""ReduceMean over the spatial axes of an NCHW tensor is GlobalAveragePool (MNASNet and
ShuffleNetV2 end with `x.mean([2, 3])`): the pooling operator runs on the CPU kernels and the
NPU. Without keepdims a Reshape drops the two unit axes.
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp, TensorType
from socsim_aot.passes import Options, Report


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    for n in [n for n in g.nodes if n.op_type == "ReduceMean" and not n.domain]:
        shape = g.shape(n.inputs[0])
        axes = n.attrs.get("axes")
        if shape is None or len(shape) != 4 or axes is None or \
                sorted(int(a) % 4 for a in axes) != [2, 3]:
            continue
        if n.attrs.get("keepdims", 1):
            g.nodes[g.nodes.index(n)] = OnnxOp("GlobalAveragePool", n.inputs[:1], n.outputs,
                                               {}, n.name)
        else:
            pooled = g.fresh(n.outputs[0])
            g.types[pooled] = TensorType(shape[:2] + [1, 1], g.dtype(n.inputs[0]))
            shape_c = g.add_const(n.name + "::shape", np.array(shape[:2], np.int64))
            g.insert_before(n, OnnxOp("GlobalAveragePool", n.inputs[:1], [pooled], {}, n.name))
            g.nodes[g.nodes.index(n)] = OnnxOp("Reshape", [pooled, shape_c], n.outputs, {},
                                               n.name + "::reshape")
        report.add("ReduceMean")
    return report
