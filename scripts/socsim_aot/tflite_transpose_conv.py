"""TFLite front end, TRANSPOSE_CONV: TFLite's scatter of each input element through the
kernel, as zero insertion followed by an ordinary convolution (schema/conv_transpose.py's
form), with TFLite's double rounding.

TFLite's int8 transposed convolution (inputs: the output shape, weights [O, KH, KW, I], the
input, an optional int32 bias) adds x[i] w[k] into output position i s + k - pad, then
requantises every channel's sum plus its bias with TFLite's per-channel multiplier and the
double rounding. The same sums are the stride-1 convolution, with the kernel flipped in space,
of the input with s - 1 copies of its zero point between neighbours and kh - 1 - pad_top of
them before (the rest after, up to the output's size): the inserted zero points add nothing.
The convolution is the runtime's int8 convolution with the TFLite rounding flag
(firmware/int8/tflite_rounding.h), so it runs on the CPU or the NPU like CONV_2D; the zero
insertion is the CPU's socsim::zero_insert.out; NCHW kernels, two transposes around them.
"""

import numpy as np

from socsim_aot import tflite_frontend as tf
from socsim_aot import tflite_reader as tr
from socsim_aot.ir import CompileError, Node, Value
from socsim_aot.schema import conv as conv_hooks
from socsim_aot.schema import data_movement
from socsim_aot.schema.conv_transpose import ZERO_INSERT


def _transpose_conv(b, op: tr.Operator):
    ts = b.model.tensors
    w, x, y = ts[op.inputs[1]], ts[op.inputs[2]], ts[op.outputs[0]]
    bias = ts[op.inputs[3]] if len(op.inputs) > 3 and op.inputs[3] >= 0 else None
    tf._check_int8(op, x, y)
    if w.dtype != "int8" or w.data is None or w.scale is None or np.any(w.zero_point != 0) or \
            len(w.shape) != 4:
        raise CompileError(f"{op.where}: weights must be constant 4-D int8 with zero point 0")
    if len(x.shape) != 4 or len(y.shape) != 4:
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be NHWC")
    shape = [int(v) for v in tf._constant(b, op, op.inputs[0], "the output shape").reshape(-1)]
    n, h, wd, c = x.shape
    out_c, kh, kw, in_c = w.shape
    if shape != list(y.shape) or in_c != c or y.shape[3] != out_c or y.shape[0] != n:
        raise CompileError(f"{op.where}: weights {w.shape}, input {x.shape} and output "
                           f"{y.shape} (output shape {shape}) do not fit")
    if w.scale.size not in (1, out_c):
        raise CompileError(f"{op.where}: {w.scale.size} weight scales for {out_c} channels")
    if bias is not None and (bias.dtype != "int32" or bias.data is None or
                             bias.data.size != out_c):
        raise CompileError(f"{op.where}: the bias must be a constant int32 tensor of {out_c} "
                           "values")
    o = op.options
    sh, sw = o["stride_h"], o["stride_w"]
    pads = []
    for size, k, stride, out in ((h, kh, sh, y.shape[1]), (wd, kw, sw, y.shape[2])):
        if min(k, stride) < 1 or max(k, stride) > tf.validate.MAX_WINDOW:
            raise CompileError(f"{op.where}: window {kh}x{kw}, stride {sh}x{sw}: each must be "
                               f"1 to {tf.validate.MAX_WINDOW}")
        _, pad = tf._window(o["padding"], out, k, stride)  # TFLite pads as for the output
        before = k - 1 - pad
        after = out + k - 1 - before - ((size - 1) * stride + 1)
        if before < 0 or after < 0:
            raise CompileError(f"{op.where}: a {k}-wide window with stride {stride} from {size} "
                               f"to {out}: the output crops the scatter (not supported)")
        pads.append((before, after))
    _, table = tf._requant_table(op, x, w, y, out_c, conv_hooks.TFLITE_ROUNDING)
    ws = np.broadcast_to(w.scale.astype(np.float64), (out_c,))
    g = b.g
    yname = b.value(op.outputs[0])
    q_in = dict(scale=float(x.scale[0]), zero_point=int(x.zero_point[0]))
    q_out = dict(scale=float(y.scale[0]), zero_point=int(y.zero_point[0]))
    nchw_in, inserted, nchw_out = (f"{yname}::nchw_in", f"{yname}::zero_inserted",
                                   f"{yname}::nchw_out")
    g.values[nchw_in] = Value(nchw_in, [n, c, h, wd], np.dtype(np.int8), **q_in)
    g.values[inserted] = Value(inserted, [n, c, (h - 1) * sh + 1 + sum(pads[0]),
                                          (wd - 1) * sw + 1 + sum(pads[1])],
                               np.dtype(np.int8), **q_in)
    g.values[nchw_out] = Value(nchw_out, [n, out_c, y.shape[1], y.shape[2]], np.dtype(np.int8),
                               **q_out)
    # OHWI scattered -> OIHW convolved, flipped in space
    weights = np.ascontiguousarray(w.data.astype(np.int8)[:, ::-1, ::-1, :].transpose(0, 3, 1, 2))
    wname = g.add_const(f"{yname}::weight", weights)
    g.values[wname].channel_scales = ws.astype(np.float32)
    bname = g.add_const(f"{yname}::bias", np.zeros(out_c, np.int32) if bias is None
                        else np.ascontiguousarray(bias.data, np.int32))
    rname = g.add_const(f"{yname}::requant", table)
    lo, hi = tf._bounds(op, y)
    g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [b.value(op.inputs[2])], [nchw_in],
                        {"perm": [0, 3, 1, 2]}, op.where))
    g.nodes.append(Node(ZERO_INSERT.name, [nchw_in], [inserted],
                        {"stride": [sh, sw], "pads": [pads[0][0], pads[1][0], pads[0][1],
                                                      pads[1][1]]}, op.where))
    g.nodes.append(Node(conv_hooks.QUANTIZED_CONVOLUTION.name, [inserted, wname, bname, rname],
                        [nchw_out], {"stride": [1, 1], "pads": [0, 0, 0, 0],
                                     "dilation": [1, 1], "groups": 1, "lo": lo, "hi": hi},
                        op.where))
    g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [nchw_out], [yname],
                        {"perm": [0, 2, 3, 1]}, op.where))
    b.transposes += 2


LOWERINGS = {"TRANSPOSE_CONV": (_transpose_conv, conv_hooks.QUANTIZED_CONVOLUTION.name)}
ARITY = {"TRANSPOSE_CONV": (3, 1)}
