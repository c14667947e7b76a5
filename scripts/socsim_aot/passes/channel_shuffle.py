"""Channel shuffle as a convolution (RKNN guide 5.2.4.1, "turn non-NPU operators into NPU
operators"): ShuffleNet's Reshape [N, C, H, W] -> [N, g, C/g, H, W], Transpose, Reshape back
to [N, C, H, W] only permutes channels, which a 1x1 convolution with 0/1 weights does too.
An NPU runs the convolution on its MAC array, while the reshapes and the transpose would
leave it for the CPU. Runs only when the program goes to an NPU that runs conv2d
(--quantize int8 --delegate npu); quantised, the 0/1 weights and the unchanged scale make
the convolution exact.

Any Reshape -> Transpose -> Reshape whose result is a channel permutation of a 4-D input
qualifies: the pass runs the three nodes on the channel index and checks.
"""

import numpy as np

from socsim_aot import onnx_eval
from socsim_aot.onnx_graph import OnnxGraph, OnnxOp
from socsim_aot.passes import Options, Report


def channel_permutation(g: OnnxGraph, nodes, shape):
    """src[c] = the input channel output channel c reads, when `nodes` (run in order on a
    tensor of `shape`) only permute channels; else None."""
    n, c, h, w = shape
    probe = np.arange(n * c * h * w, dtype=np.int64).reshape(shape)
    value = probe
    for node in nodes:
        ins = [value] + [g.const(i) if i else None for i in node.inputs[1:]]
        value = onnx_eval.evaluate(node, ins)[0]
    if list(value.shape) != list(shape):
        return None
    src = value[0, :, 0, 0] // (h * w) % c
    want = probe[:, src]
    return src if np.array_equal(value, want) else None


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    if not options.npu_runs("conv2d"):
        report.note = "not compiling for an NPU that runs conv2d"
        return report
    for first in [n for n in g.nodes if n.op_type == "Reshape" and not n.domain]:
        if first not in g.nodes:
            continue
        shape = g.shape(first.inputs[0])
        tr = g.sole_consumer(first.outputs[0])
        last = g.sole_consumer(tr.outputs[0]) if tr is not None else None
        if shape is None or len(shape) != 4 or tr is None or tr.op_type != "Transpose" or \
                last is None or last.op_type != "Reshape" or \
                not all(g.is_const(i) for n in (first, last) for i in n.inputs[1:]) or \
                not np.issubdtype(g.dtype(first.inputs[0]), np.floating):
            continue
        src = channel_permutation(g, [first, tr, last], shape)
        if src is None:
            continue
        c = shape[1]
        weight = np.zeros((c, c, 1, 1), g.dtype(first.inputs[0]))
        weight[np.arange(c), src, 0, 0] = 1
        conv = OnnxOp("Conv", [first.inputs[0], g.add_const(first.name + "::shuffle", weight)],
                      list(last.outputs), {"kernel_shape": [1, 1]}, last.name)
        g.nodes[g.nodes.index(last)] = conv
        g.remove(first, tr)
        report.add("channel shuffle")
    return report
