"""BatchNormalization at inference: y = (x - mean) * scale / sqrt(var + eps) + bias, a
per-channel x * k + c. After a convolution (its only reader) it goes into the convolution's
weights and bias. Elsewhere (DenseNet's BN -> ReLU -> Conv, the BN and ReLU after each
addition of a pre-activation ResNet v2) on an NCHW tensor of a program that goes to an NPU
running depthwise_conv2d (--quantize int8 --delegate npu), it becomes the 1x1 depthwise
convolution it computes (weight k, bias c, one group per channel), an NPU layer like any
convolution, which takes a following Relu as its fused activation; the NPU's binary layers
take two activations, so a Mul and an Add of constants would stay on the CPU. Otherwise
(float programs, int8 for the CPU, other ranks) it becomes a per-channel Mul and Add, which
constant_chains.py merges with neighbouring constant arithmetic.
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
        if folded.count:
            report.add("into Conv")
        elif len(shape) == 4 and k.shape == (shape[1],) and c.shape == (shape[1],) and \
                options.npu_runs("depthwise_conv2d"):
            channels = shape[1]
            conv = OnnxOp("Conv", [n.inputs[0],
                                   g.add_const(n.name + "::weight",
                                               k.astype(dtype).reshape(channels, 1, 1, 1)),
                                   g.add_const(n.name + "::bias", c.astype(dtype))],
                          [n.outputs[0]], {"group": channels, "kernel_shape": [1, 1]}, n.name)
            g.insert_before(mul, conv)
            g.remove(mul, add)
            for name in (mul.inputs[1], add.inputs[1]):
                del g.consts[name]
            del g.types[mid]
            report.add("as depthwise Conv")
        else:
            report.add("as Mul + Add")
    return report
