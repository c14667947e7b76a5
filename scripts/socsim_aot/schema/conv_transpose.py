"""The compiler's hooks for the transposed convolution family: ONNX ConvTranspose becomes a
zero insertion and an ordinary convolution (socsim_schema/conv_transpose.py says why).
"""

import numpy as np

from socsim_aot import ir
from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.conv import CONVOLUTION
from socsim_aot.schema.hooks import hooks


def conv_weights(w: np.ndarray, groups: int) -> np.ndarray:
    """ConvTranspose's weights [C_in, C_out / groups, kh, kw] as the equivalent convolution's
    [C_out, C_in / groups, kh, kw]: in/out swapped within each group, flipped in space."""
    cin, cout_g = w.shape[:2]
    cin_g = cin // groups
    parts = [np.swapaxes(w[gi * cin_g:(gi + 1) * cin_g], 0, 1) for gi in range(groups)]
    return np.ascontiguousarray(np.concatenate(parts, axis=0)[:, :, ::-1, ::-1])


def _lower(n):
    a = n.attrs
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        n.fail("auto_pad is not supported; export explicit pads")
    if a.get("output_shape"):
        n.fail("output_shape is not supported; export pads and output_padding")
    w = n.const(n.inputs[1], "the weight")
    spatial = w.ndim - 2
    if spatial not in (1, 2):
        n.fail(f"only 1-D and 2-D ConvTranspose are supported (the weight has {w.ndim} axes)")
    groups = int(a.get("group", 1))
    x = n.g.value(n.inputs[0])
    if x.shape[1] != w.shape[0] or w.shape[0] % groups:
        n.fail(f"the weight {list(w.shape)} does not match {x.shape[1]} input channels in "
               f"{groups} group(s)")
    lead = 2 - spatial  # a 1-D layer is a 2-D one of height 1
    kernel = [1] * lead + list(w.shape[2:])
    strides = [1] * lead + list(a.get("strides", [1] * spatial))
    dilations = [1] * lead + list(a.get("dilations", [1] * spatial))
    pads = list(a.get("pads", [0] * 2 * spatial))
    begin, end = [0] * lead + pads[:spatial], [0] * lead + pads[spatial:]
    extra = [0] * lead + list(a.get("output_padding", [0] * spatial))
    around = []  # zeros before and after each axis of the zero-inserted input
    for i in range(2):
        span = dilations[i] * (kernel[i] - 1)
        around.append((span - begin[i], span - end[i] + extra[i]))
    if any(p < 0 for pair in around for p in pair):
        n.fail("pads larger than the kernel's span are not supported")
    if any(e >= max(s, d) for e, s, d in zip(extra, strides, dilations)):
        n.fail("output_padding must be smaller than the stride or the dilation")
    shape = list(x.shape)
    for i in range(2):
        axis = len(shape) - 2 + i
        if axis >= 2:
            shape[axis] = (shape[axis] - 1) * strides[i] + 1 + sum(around[i])
    weight = conv_weights(w.reshape(w.shape[:2] + tuple(kernel)).astype(np.float32), groups)
    g = n.g
    wname = g.add_const(n.outputs[0] + "::weight", weight)
    if len(n.inputs) > 2 and n.inputs[2]:
        bname = n.inputs[2]
    else:
        bname = g.add_const(n.outputs[0] + "::bias", np.zeros(weight.shape[0], np.float32))
    inserted = n.value("zero_inserted", shape, x.dtype)
    n.emit_to(ZERO_INSERT.name, [n.inputs[0]], inserted, stride=strides,
              pads=[around[0][0], around[1][0], around[0][1], around[1][1]])
    n.emit(CONVOLUTION.name, [inserted, wname, bname], stride=[1, 1], pads=[0, 0, 0, 0],
           dilation=dilations, groups=groups, lo=-ir.INF, hi=ir.INF)


def _args(g, node):
    a = node.attrs
    pt, pl, pb, pr = a["pads"]
    return dict(stride_h=a["stride"][0], stride_w=a["stride"][1], pad_top=pt, pad_left=pl,
                pad_bottom=pb, pad_right=pr, zero_point=g.input_value(node).zero_point)


def _zero_insert(ins, a, out):
    x = ins[0]
    if x.ndim < 2:
        raise ValueError("zero_insert needs two axes")
    h, w = x.shape[-2:]
    y = np.full(out.shape, a.zero_point, x.dtype)
    y[..., a.pad_top:a.pad_top + (h - 1) * a.stride_h + 1:a.stride_h,
      a.pad_left:a.pad_left + (w - 1) * a.stride_w + 1:a.stride_w] = x
    return y


ZERO_INSERT, = (
    hooks("socsim::zero_insert.out", lower=_lower, quantize=same_scale, arg_values=_args,
          reference=_zero_insert),
)
