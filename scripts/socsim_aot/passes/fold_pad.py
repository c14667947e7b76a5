"""Pad folded into the convolution that reads it: a constant-zero Pad of the two spatial axes
of an NCHW tensor (nn.ZeroPad2d, F.pad, TensorFlow-style asymmetric "same" padding) whose only
reader is a Conv adds its amounts to the Conv's pads, so no padded copy is made (RKNN's guide,
5.2.4: Pad fused into the convolution; NPUs pad while they read the input). Quantised, a
padded element is the zero point, which is the real 0 the Pad wrote: exact.
"""

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph
from socsim_aot.passes import Options, Report


def _spatial_pads(g: OnnxGraph, n):
    """(top, left, bottom, right) of a zero Pad of the H and W axes of a 4-D tensor, else
    None."""
    mode = n.attrs.get("mode", b"constant")
    if (mode.decode() if isinstance(mode, bytes) else mode) != "constant" or len(n.inputs) < 2:
        return None
    pads = g.const(n.inputs[1])
    value = g.const(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else np.zeros(1)
    if pads is None or value is None or pads.size != 8 or np.any(value != 0):
        return None
    begin, end = [int(p) for p in pads[:4]], [int(p) for p in pads[4:]]
    if begin[:2] != [0, 0] or end[:2] != [0, 0] or min(begin + end) < 0:
        return None
    return begin[2], begin[3], end[2], end[3]


def run(g: OnnxGraph, options: Options) -> Report:
    report = Report()
    for n in [n for n in g.nodes if n.op_type == "Pad" and not n.domain]:
        amounts = _spatial_pads(g, n)
        conv = g.sole_consumer(n.outputs[0])
        if amounts is None or conv is None or conv.op_type != "Conv" or conv.domain or \
                conv.inputs[0] != n.outputs[0]:
            continue
        auto_pad = conv.attrs.get("auto_pad", b"NOTSET")
        if (auto_pad.decode() if isinstance(auto_pad, bytes) else auto_pad) != "NOTSET":
            continue
        t, l, b, r = amounts
        pt, pl, pb, pr = [int(p) for p in conv.attrs.get("pads", [0, 0, 0, 0])]
        conv.attrs["pads"] = [pt + t, pl + l, pb + b, pr + r]
        conv.inputs[0] = n.inputs[0]
        g.remove(n)
        report.add("into Conv")
    return report
