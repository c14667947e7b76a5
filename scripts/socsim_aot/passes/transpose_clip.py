"""Transpose moved past Clip (RKNN guide 5.2.4.2, "use hardware fusion"): Conv -> Transpose
-> Clip computes the same as Conv -> Clip -> Transpose, and in the second order the clip
fuses into the convolution (its output bounds) so only the Transpose is left. The same holds
for Relu, and for a Reshape in place of the Transpose; the convolution (or Gemm) must be the
data movement's only input and the activation its only reader.
"""

from socsim_aot.onnx_graph import OnnxGraph
from socsim_aot.passes import Options, Report

MOVES = ("Transpose", "Reshape")
ACTIVATIONS = ("Clip", "Relu")
FUSES_ACTIVATION = ("Conv", "Gemm")


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    for move in [n for n in g.nodes if n.op_type in MOVES and not n.domain]:
        producer = g.producer(move.inputs[0])
        act = g.sole_consumer(move.outputs[0])
        if producer is None or producer.op_type not in FUSES_ACTIVATION or producer.domain or \
                act is None or act.op_type not in ACTIVATIONS or act.domain or \
                act.inputs[0] != move.outputs[0] or g.sole_consumer(move.inputs[0]) is not move:
            continue
        x, t, y = move.inputs[0], move.outputs[0], act.outputs[0]
        g.types[t] = g.types.get(x)  # t now holds the activation's output, shaped as x
        act.inputs[0], act.outputs[0] = x, t
        move.inputs[0], move.outputs[0] = t, y
        i, j = g.nodes.index(move), g.nodes.index(act)
        g.nodes[i], g.nodes[j] = act, move
        report.add(f"{move.op_type} past {act.op_type}")
    return report
