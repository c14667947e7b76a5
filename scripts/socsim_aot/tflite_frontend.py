"""The TensorFlow Lite front end: a `.tflite` int8 model (tflite_reader) as the compiler's IR.

The model's own quantisation is kept: no calibration and no re-quantisation. Each TFLite
operator becomes the schema operator whose integer rule equals TFLite's reference kernel for
it, bit for bit; an operator whose TFLite rule no runtime kernel computes yet is refused by
name (one line, exit status 1), never compiled into something that rounds differently.

What lowers today (docs/compiler.md, "TensorFlow Lite models"):

- FULLY_CONNECTED (int8 activations, int8 weights per tensor or per output channel with zero
  point 0, int32 bias or none, fused NONE/RELU/RELU6/RELU_N1_TO_1) ->
  `quantized_decomposed::linear.out`. TFLite's fully connected kernels round once,
  (acc m + 2^(30 - e)) >> (31 - e) (measured against the reference interpreter: see
  tflite_eval.mbqm), which is the runtime's own requantisation `round_shift(acc m, n)` with
  n = 31 - e: the multiplier table holds TFLite's (m, 31 - e) per channel.
- RESHAPE, SQUEEZE, EXPAND_DIMS -> `aten::view_copy.out` (NHWC bytes are unchanged).
- Data movement on the model's own axes (layout-free, so NHWC needs no transpose): TRANSPOSE
  -> `aten::permute_copy.out`, CONCATENATION (inputs quantised as the output, as TFLite's
  converter makes them) -> `aten::cat.out`, SPLIT and STRIDED_SLICE (positive strides) ->
  `aten::slice_copy.Tensor_out`, PAD / PADV2 -> `aten::constant_pad_nd.out` filled with the
  output's zero point (the real 0) or PADV2's value.
- MAX_POOL_2D (no fused activation) -> `aten::max_pool2d.out`, which is NCHW: a permute_copy
  before and after each pool (the compile log counts them).

- CONV_2D, DEPTHWISE_CONV_2D (TFLite's double rounding), AVERAGE_POOL_2D, SOFTMAX, ADD: here.
- MUL, SUB, MEAN, QUANTIZE, DEQUANTIZE and the one-input operators as tables of their integer
  rule: tflite_elementwise.py; RESIZE_NEAREST_NEIGHBOR and RESIZE_BILINEAR: tflite_resize.py;
  TRANSPOSE_CONV: tflite_transpose_conv.py (their entries join LOWERINGS below).
"""

import collections
from typing import Dict

import numpy as np

from socsim_aot import ir, validate
from socsim_aot import tflite_arith as ta
from socsim_aot import tflite_reader as tr
from socsim_aot.ir import CompileError, Graph, Node, Value
from socsim_aot.schema import conv as conv_hooks
from socsim_aot.schema import data_movement, pooling
from socsim_aot.schema import softmax as softmax_hooks
from socsim_aot.schema import tflite as tflite_hooks

MAX_RANK = 6  # the program file's tensor records

NUMPY_TYPES = {"int8": np.int8, "uint8": np.uint8, "int32": np.int32, "float32": np.float32}


def is_tflite_file(path) -> bool:
    try:
        with open(path, "rb") as f:
            return tr.is_tflite(f.read(8))
    except (OSError, TypeError):
        return False


def read_model(path) -> tr.Model:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CompileError(f"cannot read: {e.strerror}") from None
    try:
        return tr.read(data, "model")
    except tr.TfliteError as e:
        raise CompileError(str(e)[len("model: "):]) from None


class _Builder:
    def __init__(self, model: tr.Model):
        self.model = model
        self.g = Graph()
        self.names: Dict[int, str] = {}
        self.transposes = 0  # permute_copy nodes added for NCHW kernels
        counts = collections.Counter(t.name for t in model.tensors)
        for t in model.tensors:
            self.names[t.index] = t.name if t.name and counts[t.name] == 1 else \
                f"tensor{t.index}:{t.name}"

    def value(self, index: int) -> str:
        """The IR value of tensor `index` (made on first use)."""
        name = self.names[index]
        if name in self.g.values:
            return name
        t = self.model.tensors[index]
        where = f"tensor {index} '{t.name}'"
        if len(t.shape) > MAX_RANK or any(d < 1 for d in t.shape):
            raise CompileError(f"{where}: shape {t.shape}: up to {MAX_RANK} dimensions, each at "
                               "least 1, are supported")
        if t.dtype in NUMPY_TYPES and int(np.prod(t.shape, dtype=object)) * \
                np.dtype(NUMPY_TYPES[t.dtype]).itemsize > validate.MAX_TENSOR_BYTES:
            raise CompileError(f"{where}: shape {t.shape} is larger than a tensor may be "
                               f"({validate.MAX_TENSOR_BYTES} bytes)")
        if t.zero_point is not None and t.dtype in ("int8", "uint8"):
            lo, hi = (-128, 127) if t.dtype == "int8" else (0, 255)
            if np.any(t.zero_point < lo) or np.any(t.zero_point > hi):
                raise CompileError(f"{where}: zero point {int(t.zero_point.flat[0])} is outside "
                                   f"{t.dtype}'s range")
        if t.dtype not in NUMPY_TYPES:
            raise CompileError(f"tensor {index} '{t.name}': element type {t.dtype} is not "
                               "supported")
        v = Value(name, list(t.shape), np.dtype(NUMPY_TYPES[t.dtype]))
        if t.data is not None:
            v.const = np.ascontiguousarray(t.data.astype(NUMPY_TYPES[t.dtype]))
        if t.scale is not None and not t.per_axis and t.dtype in ("int8", "uint8"):
            v.scale, v.zero_point = float(t.scale[0]), int(t.zero_point[0])
        self.g.values[name] = v
        return name


def _bounds(op: tr.Operator, out: tr.Tensor):
    """Float bounds whose int8 values (ir.act_bounds_q) are TFLite's activation range."""
    lo, hi = _activation_range(op, out)
    scale, zp = float(out.scale[0]), int(out.zero_point[0])
    return (-ir.INF if lo <= -128 else (lo - zp) * scale,
            ir.INF if hi >= 127 else (hi - zp) * scale)


def _activation_range(op: tr.Operator, out: tr.Tensor):
    fused = tr.ACTIVATIONS.get(op.options.get("fused_activation", 0), "?")
    scale, zp = np.float32(out.scale[0]), int(out.zero_point[0])

    def q(f):
        return zp + ta.tf_round(float(np.float32(f) / scale))
    table = {"NONE": (-128, 127), "RELU": (max(-128, q(0.0)), 127),
             "RELU6": (max(-128, q(0.0)), min(127, q(6.0))),
             "RELU_N1_TO_1": (max(-128, q(-1.0)), min(127, q(1.0)))}
    if fused not in table:
        raise CompileError(f"{op.where}: fused activation {fused} is not supported")
    return table[fused]


def _check_int8(op: tr.Operator, *tensors: tr.Tensor):
    for t in tensors:
        if t.dtype != "int8" or t.scale is None or t.per_axis:
            raise CompileError(f"{op.where}: tensor {t.index} '{t.name}' is {t.dtype}"
                               f"{'' if t.scale is not None else ' without quantisation'}; "
                               "int8 with one scale and zero point is supported")


def _fully_connected(b: _Builder, op: tr.Operator):
    ts = b.model.tensors
    x, w, y = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    bias = ts[op.inputs[2]] if len(op.inputs) > 2 and op.inputs[2] >= 0 else None
    _check_int8(op, x, y)
    if w.dtype != "int8" or w.data is None or w.scale is None or np.any(w.zero_point != 0):
        raise CompileError(f"{op.where}: weights must be constant int8 with zero point 0")
    if op.options.get("weights_format", 0) != 0:
        raise CompileError(f"{op.where}: shuffled weights are not supported")
    if len(w.shape) != 2:
        raise CompileError(f"{op.where}: weights of shape {w.shape} (needs [outputs, inputs])")
    out_c, features = w.shape
    rows = int(np.prod(x.shape)) // features
    if rows * features != int(np.prod(x.shape)) or int(np.prod(y.shape)) != rows * out_c or \
            y.shape[-1] != out_c or w.scale.size not in (1, out_c):
        raise CompileError(f"{op.where}: input {x.shape}, weights {w.shape} and output "
                           f"{y.shape} do not fit")
    if bias is not None and (bias.dtype != "int32" or bias.data is None or
                             bias.data.size != out_c):
        raise CompileError(f"{op.where}: the bias must be a constant int32 tensor of {out_c} "
                           "values")
    ws, table = _requant_table(op, x, w, y, out_c, 0)  # FULLY_CONNECTED rounds once
    g = b.g
    xname, yname = b.value(op.inputs[0]), b.value(op.outputs[0])
    where = f"{op.where}"
    target = yname
    if list(x.shape[-1:]) != [features] or list(x.shape[:-1]) != list(y.shape[:-1]):
        # The kernel keeps the input's leading axes: [rows, features] in, [rows, out_c] out,
        # views around it when the model's shapes differ (a [1, 1, 1, 64] input to [1, 12]).
        flat = f"{yname}::rows"
        g.values[flat] = Value(flat, [rows, features], np.dtype(np.int8),
                               scale=float(x.scale[0]), zero_point=int(x.zero_point[0]))
        g.nodes.append(Node(data_movement.VIEW_COPY.name, [xname], [flat], {}, where))
        xname = flat
        if list(y.shape) != [rows, out_c]:
            target = f"{yname}::rows_out"
            g.values[target] = Value(target, [rows, out_c], np.dtype(np.int8),
                                     scale=float(y.scale[0]), zero_point=int(y.zero_point[0]))
    wname = g.add_const(f"{yname}::weight", np.ascontiguousarray(w.data, np.int8))
    g.values[wname].channel_scales = ws.astype(np.float32)
    bname = g.add_const(f"{yname}::bias", np.zeros(out_c, np.int32) if bias is None
                        else np.ascontiguousarray(bias.data, np.int32))
    rname = g.add_const(f"{yname}::requant", np.array(table, np.int32).reshape(-1, 2))
    lo, hi = _bounds(op, y)
    g.nodes.append(Node(conv_hooks.QUANTIZED_LINEAR.name, [xname, wname, bname, rname],
                        [target], {"lo": lo, "hi": hi}, where))
    if target != yname:
        g.nodes.append(Node(data_movement.VIEW_COPY.name, [target], [yname], {}, where))


def _reshape(b: _Builder, op: tr.Operator):
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    if x.dtype != y.dtype or (x.scale is not None and y.scale is not None and
                              (float(x.scale[0]), int(x.zero_point[0])) !=
                              (float(y.scale[0]), int(y.zero_point[0]))):
        raise CompileError(f"{op.where}: input and output are quantised differently")
    b.g.nodes.append(Node(data_movement.VIEW_COPY.name, [b.value(op.inputs[0])],
                          [b.value(op.outputs[0])], {}, op.where))


def _same_quantisation(b: _Builder, op: tr.Operator, inputs):
    """Data movement keeps bytes: every moved input is quantised as the output."""
    ts = b.model.tensors
    y = ts[op.outputs[0]]
    for i in inputs:
        x = ts[i]
        if x.dtype != y.dtype or x.dtype != "int8" or x.scale is None or y.scale is None or \
                (float(x.scale[0]), int(x.zero_point[0])) != \
                (float(y.scale[0]), int(y.zero_point[0])):
            raise CompileError(f"{op.where}: tensor {i} '{x.name}' is not int8 quantised as the "
                               "output (a requantising copy is not supported)")


def _constant(b: _Builder, op: tr.Operator, index: int, what: str) -> np.ndarray:
    t = b.model.tensors[index]
    if t.data is None:
        raise CompileError(f"{op.where}: {what} must be a constant")
    return np.asarray(t.data).astype(np.int64)


def _transpose(b: _Builder, op: tr.Operator):
    _same_quantisation(b, op, op.inputs[:1])
    perm = [int(p) for p in _constant(b, op, op.inputs[1], "the permutation").reshape(-1)]
    x, y = b.model.tensors[op.inputs[0]], b.model.tensors[op.outputs[0]]
    if sorted(perm) != list(range(len(x.shape))) or [x.shape[p] for p in perm] != y.shape:
        raise CompileError(f"{op.where}: permutation {perm} of {x.shape} is not {y.shape}")
    b.g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [b.value(op.inputs[0])],
                          [b.value(op.outputs[0])], {"perm": perm}, op.where))


def _concatenation(b: _Builder, op: tr.Operator):
    _same_quantisation(b, op, op.inputs)
    if op.options.get("fused_activation", 0) != 0:
        raise CompileError(f"{op.where}: a fused activation is not supported")
    y = b.model.tensors[op.outputs[0]]
    rank = len(y.shape)
    axis = int(op.options["axis"])
    shapes = [b.model.tensors[i].shape for i in op.inputs]
    if not -rank <= axis < rank or any(len(sh) != rank for sh in shapes) or \
            any(sh[:axis % rank] + sh[axis % rank + 1:] != y.shape[:axis % rank] +
                y.shape[axis % rank + 1:] for sh in shapes) or \
            sum(sh[axis % rank] for sh in shapes) != y.shape[axis % rank]:
        raise CompileError(f"{op.where}: inputs {shapes} do not concatenate to {y.shape} along "
                           f"axis {axis}")
    b.g.nodes.append(Node(data_movement.CAT.name, [b.value(i) for i in op.inputs],
                          [b.value(op.outputs[0])], {"axis": int(op.options["axis"]) % rank},
                          op.where))


def _slice_node(b: _Builder, op: tr.Operator, source: str, output: int, slices):
    """slice_copy of (first, step, length) per axis into tensor `output` (through a view when
    the output drops axes)."""
    y = b.model.tensors[output]
    lengths = [length for _, _, length in slices]
    if int(np.prod(lengths)) != int(np.prod(y.shape)):
        raise CompileError(f"{op.where}: a slice of shape {lengths} does not fill output "
                           f"{y.shape}")
    words = [v for first, step, _ in slices for v in (first, step)]
    yname = b.value(output)
    target = yname
    if lengths != list(y.shape):
        target = f"{yname}::slice"
        b.g.values[target] = Value(target, lengths, np.dtype(np.int8), scale=float(y.scale[0]),
                                   zero_point=int(y.zero_point[0]))
    b.g.nodes.append(Node(data_movement.SLICE_COPY.name, [source], [target], {"slices": words},
                          op.where))
    if target != yname:
        b.g.nodes.append(Node(data_movement.VIEW_COPY.name, [target], [yname], {}, op.where))


def _split(b: _Builder, op: tr.Operator):
    x = b.model.tensors[op.inputs[1]]
    _same_quantisation(b, op, op.inputs[1:])
    axis = int(_constant(b, op, op.inputs[0], "the axis").reshape(-1)[0]) % len(x.shape)
    outs = [b.model.tensors[o].shape for o in op.outputs]
    if any(len(sh) != len(x.shape) for sh in outs) or \
            sum(sh[axis] for sh in outs) != x.shape[axis]:
        raise CompileError(f"{op.where}: outputs {outs} do not split {x.shape} on axis {axis}")
    first = 0
    for out in op.outputs:
        _same_quantisation(b, op, [op.inputs[1]])
        size = b.model.tensors[out].shape[axis]
        slices = [(0, 1, d) for d in x.shape]
        slices[axis] = (first, 1, size)
        _slice_node(b, op, b.value(op.inputs[1]), out, slices)
        first += size


def _strided_slice(b: _Builder, op: tr.Operator):
    o = op.options
    if o["ellipsis_mask"] or o["new_axis_mask"] or o.get("offset"):
        raise CompileError(f"{op.where}: ellipsis, new-axis and offset masks are not supported")
    _same_quantisation(b, op, op.inputs[:1])
    x = b.model.tensors[op.inputs[0]]
    begin, end, strides = (_constant(b, op, i, what).reshape(-1) for i, what in
                           zip(op.inputs[1:4], ("begin", "end", "strides")))
    slices = []
    for a, size in enumerate(x.shape):
        if o["shrink_axis_mask"] >> a & 1:
            slices.append((int(begin[a]) % size, 1, 1))
            continue
        first = None if o["begin_mask"] >> a & 1 else int(begin[a])
        last = None if o["end_mask"] >> a & 1 else int(end[a])
        if int(strides[a]) < 1:
            raise CompileError(f"{op.where}: stride {int(strides[a])} on axis {a}: positive "
                               "strides are supported")
        r = range(size)[slice(first, last, int(strides[a]))]
        if len(r) == 0:
            raise CompileError(f"{op.where}: an empty slice on axis {a}")
        slices.append((r.start, r.step, len(r)))
    _slice_node(b, op, b.value(op.inputs[0]), op.outputs[0], slices)


def _pad(b: _Builder, op: tr.Operator):
    _same_quantisation(b, op, op.inputs[:1])
    pads = _constant(b, op, op.inputs[1], "the paddings").reshape(-1, 2)
    x, y = b.model.tensors[op.inputs[0]], b.model.tensors[op.outputs[0]]
    if pads.shape[0] != len(x.shape) or np.any(pads < 0) or \
            [int(d + p0 + p1) for d, (p0, p1) in zip(x.shape, pads)] != y.shape:
        raise CompileError(f"{op.where}: paddings {pads.tolist()} of {x.shape} do not give "
                           f"{y.shape} (non-negative, one pair per axis)")
    fill = int(y.zero_point[0])  # PAD: the real 0
    if op.opcode == "PADV2":
        fill = int(_constant(b, op, op.inputs[2], "the pad value").reshape(-1)[0])
        if not -128 <= fill <= 127:
            raise CompileError(f"{op.where}: pad value {fill} is not an int8 value")
    yname = b.value(op.outputs[0])
    value = b.g.add_const(f"{yname}::value", np.array([fill], np.int8))
    b.g.nodes.append(Node(data_movement.CONSTANT_PAD_ND.name, [b.value(op.inputs[0]), value],
                          [yname], {"pads": [int(p) for p in pads.reshape(-1)]}, op.where))


def _pool_window(op: tr.Operator, x, y):
    """The kernel, stride and (top, left, bottom, right) pads of a TFLite pool, checked."""
    o = op.options
    if o.get("fused_activation", 0) != 0:
        raise CompileError(f"{op.where}: a fused activation is not supported")
    if len(x.shape) != 4 or len(y.shape) != 4:
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be NHWC")
    kh, kw, sh, sw = o["filter_h"], o["filter_w"], o["stride_h"], o["stride_w"]
    if min(kh, kw, sh, sw) < 1 or max(kh, kw, sh, sw) > validate.MAX_WINDOW:
        raise CompileError(f"{op.where}: window {kh}x{kw}, stride {sh}x{sw}: each must be 1 to "
                           f"{validate.MAX_WINDOW}")
    pads = []
    for size, k, stride, out in ((x.shape[1], kh, sh, y.shape[1]),
                                 (x.shape[2], kw, sw, y.shape[2])):
        want, before = _window(o["padding"], size, k, stride)
        if want != out or want < 1:
            raise CompileError(f"{op.where}: a {k}-wide window with stride {stride} over {size} "
                               f"gives {want}, not {out}")
        total = max((want - 1) * stride + k - size, 0)
        pads.append((before, total - before))
    return [kh, kw], [sh, sw], [pads[0][0], pads[1][0], pads[0][1], pads[1][1]]


def _nchw_pool(b: _Builder, op: tr.Operator, x, y, operator: str, attrs: dict):
    """An NCHW pool kernel on TFLite's NHWC tensors: transposed there and back (two
    permute_copy per pool, counted in the compile log)."""
    n, h, w, c = x.shape
    yname = b.value(op.outputs[0])
    scale, zp = float(y.scale[0]), int(y.zero_point[0])
    nchw_in, nchw_out = f"{yname}::nchw_in", f"{yname}::nchw_out"
    for name, shape in ((nchw_in, [n, c, h, w]), (nchw_out, [n, c, y.shape[1], y.shape[2]])):
        b.g.values[name] = Value(name, shape, np.dtype(np.int8), scale=scale, zero_point=zp)
    b.g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [b.value(op.inputs[0])], [nchw_in],
                          {"perm": [0, 3, 1, 2]}, op.where))
    b.g.nodes.append(Node(operator, [nchw_in], [nchw_out], attrs, op.where))
    b.g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [nchw_out], [yname],
                          {"perm": [0, 2, 3, 1]}, op.where))
    b.transposes += 2


def _max_pool(b: _Builder, op: tr.Operator):
    """TFLite's max pool (the window clipped to the input, no requantisation) is the runtime's
    max_pool2d, which ignores padding; that kernel is NCHW, so the NHWC tensor is transposed
    there and back (two permute_copy per pool, counted in the compile log)."""
    _same_quantisation(b, op, op.inputs[:1])
    x, y = b.model.tensors[op.inputs[0]], b.model.tensors[op.outputs[0]]
    kernel, stride, pads = _pool_window(op, x, y)
    _nchw_pool(b, op, x, y, pooling.MAX_POOL2D.name,
               {"kernel": kernel, "stride": stride, "pads": pads, "ceil": 0})


def _average_pool(b: _Builder, op: tr.Operator):
    """TFLite's int8 average (the window clipped to the input, the sum of raw values divided by
    its count rounding halves away from zero, no requantisation) is the runtime's int8
    avg_pool2d without padding in the count, zero points 0 and the multiplier (2^k + 1) / 2^k:
    its division rounds halves towards +infinity, and the factor 1 + 2^-k moves every exact
    half of an average away from zero while moving no other average (at least 1 / (2 count)
    from a half, |average| <= 128) across one, since 2^k > 256 count. NCHW kernel: two
    transposes around it, as for max pooling."""
    _same_quantisation(b, op, op.inputs[:1])
    x, y = b.model.tensors[op.inputs[0]], b.model.tensors[op.outputs[0]]
    _check_int8(op, x, y)
    kernel, stride, pads = _pool_window(op, x, y)
    k = (256 * kernel[0] * kernel[1]).bit_length()
    if k > 22:
        raise CompileError(f"{op.where}: a {kernel[0]}x{kernel[1]} window is too large for an "
                           "exact int8 average (at most 16383 elements)")
    _nchw_pool(b, op, x, y, pooling.QUANTIZED_AVG_POOL2D.name,
               {"kernel": kernel, "stride": stride, "pads": pads, "ceil": 0, "include_pad": 0,
                "requant_args": {"zp_in": 0, "zp_out": 0, "m": (1 << k) + 1, "n": k}})


def _softmax(b: _Builder, op: tr.Operator):
    """TFLite's int8 softmax over the last axis: the runtime's int8 softmax with a 257-entry
    table of TFLite's fixed-point exponentials (tflite_arith.softmax_exp_table), which selects
    TFLite's sum, reciprocal and rounding (firmware/int8/tflite_rounding.h)."""
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    _check_int8(op, x, y)
    if not x.shape or list(x.shape) != list(y.shape):
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be alike")
    if float(y.scale[0]) != 1.0 / 256 or int(y.zero_point[0]) != -128:
        raise CompileError(f"{op.where}: the output must have scale 1/256 and zero point -128")
    beta = float(op.options.get("beta", 1.0))
    if not beta > 0:
        raise CompileError(f"{op.where}: beta {beta:g} is not positive")
    yname = b.value(op.outputs[0])
    table = b.g.add_const(f"{yname}::table", np.array(
        ta.softmax_exp_table(float(x.scale[0]), beta), np.int32))
    b.g.nodes.append(Node(softmax_hooks.QUANTIZED_SOFTMAX.name, [b.value(op.inputs[0]), table],
                          [yname], {"dim": len(x.shape) - 1}, op.where))


def _add(b: _Builder, op: tr.Operator, name: str = tflite_hooks.TFLITE_ADD.name):
    """TFLite's int8 ADD (broadcasting): the runtime's tflite::add.out with TFLite's
    multipliers (both inputs at twice the larger input scale, after a left shift of 20);
    SUB's operator (`name`) takes the same arguments."""
    ts = b.model.tensors
    xa, xb, y = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    _check_int8(op, xa, xb, y)
    s1, s2, so = float(xa.scale[0]), float(xb.scale[0]), float(y.scale[0])
    twice_max = 2.0 * float(max(np.float32(s1), np.float32(s2)))
    scales = (s1 / twice_max, s2 / twice_max,
              twice_max / float(np.float32((1 << 20) * np.float32(so))))
    pairs = []
    for r in scales:
        m, e = ta.quantize_multiplier(r)
        if not (m > 0 and -31 <= e <= 30):
            raise CompileError(f"{op.where}: the rescaling {r:g} is out of range")
        pairs.append((m, e))
    lo, hi = _activation_range(op, y)
    args = {"zp_a": int(xa.zero_point[0]), "m_a": pairs[0][0], "e_a": pairs[0][1],
            "zp_b": int(xb.zero_point[0]), "m_b": pairs[1][0], "e_b": pairs[1][1],
            "m_out": pairs[2][0], "e_out": pairs[2][1], "zp_out": int(y.zero_point[0]),
            "act_min": lo, "act_max": hi}
    b.g.nodes.append(Node(name, [b.value(op.inputs[0]), b.value(op.inputs[1])],
                          [b.value(op.outputs[0])], {"args": args}, op.where))


def _requant_table(op: tr.Operator, x: tr.Tensor, w: tr.Tensor, y: tr.Tensor, out_c: int,
                   rounding: int):
    """Per output channel (m, 31 - e) of TFLite's QuantizeMultiplier for s_in s_w[c] / s_out;
    `rounding` is added to the shift column (conv_hooks.TFLITE_ROUNDING selects TFLite's double
    rounding in the runtime, 0 its single rounding)."""
    ws = np.broadcast_to(w.scale.astype(np.float64), (out_c,))
    reals = np.float64(x.scale[0]) * ws / np.float64(y.scale[0])
    table = []
    for r in reals:
        m, e = ta.quantize_multiplier(float(r))
        if not (m > 0 and -31 <= e <= 30):
            raise CompileError(f"{op.where}: the requantisation scale {r:g} is out of range")
        table.append((m, (31 - e) + rounding))
    return ws, np.array(table, np.int32).reshape(-1, 2)


def _conv(b: _Builder, op: tr.Operator, depthwise: bool):
    """CONV_2D and DEPTHWISE_CONV_2D: the runtime's int8 convolution (NCHW, OIHW weights, a
    group per input channel for depthwise) between two transposes, its requantisation table
    marked for TFLite's double rounding (firmware/int8/tflite_rounding.h)."""
    ts = b.model.tensors
    x, w, y = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    bias = ts[op.inputs[2]] if len(op.inputs) > 2 and op.inputs[2] >= 0 else None
    _check_int8(op, x, y)
    if w.dtype != "int8" or w.data is None or w.scale is None or np.any(w.zero_point != 0) or \
            len(w.shape) != 4:
        raise CompileError(f"{op.where}: weights must be constant 4-D int8 with zero point 0")
    if len(x.shape) != 4 or len(y.shape) != 4:
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be NHWC")
    n, h, wd, c = x.shape
    out_c = y.shape[3]
    o = op.options
    if depthwise:
        kh, kw = w.shape[1], w.shape[2]
        if w.shape[0] != 1 or w.shape[3] != out_c or out_c % c != 0:
            raise CompileError(f"{op.where}: depthwise weights {w.shape} do not fit input "
                               f"{x.shape} and output {y.shape}")
        weights = np.ascontiguousarray(w.data.astype(np.int8)[0].transpose(2, 0, 1)[:, None])
        groups = c
    else:
        kh, kw = w.shape[1], w.shape[2]
        if w.shape[0] != out_c or w.shape[3] != c:
            raise CompileError(f"{op.where}: weights {w.shape} do not fit input {x.shape} and "
                               f"output {y.shape}")
        weights = np.ascontiguousarray(w.data.astype(np.int8).transpose(0, 3, 1, 2))
        groups = 1
    if w.scale.size not in (1, out_c):
        raise CompileError(f"{op.where}: {w.scale.size} weight scales for {out_c} channels")
    if bias is not None and (bias.dtype != "int32" or bias.data is None or
                             bias.data.size != out_c):
        raise CompileError(f"{op.where}: the bias must be a constant int32 tensor of {out_c} "
                           "values")
    sh, sw = o["stride_h"], o["stride_w"]
    dh, dw = o.get("dilation_h", 1), o.get("dilation_w", 1)
    if min(kh, kw, sh, sw, dh, dw) < 1 or max(kh, kw, sh, sw, dh, dw) > validate.MAX_WINDOW:
        raise CompileError(f"{op.where}: window {kh}x{kw}, stride {sh}x{sw}, dilation "
                           f"{dh}x{dw}: each must be 1 to {validate.MAX_WINDOW}")
    pads = []
    for size, k, stride, dil, out in ((h, kh, sh, dh, y.shape[1]), (wd, kw, sw, dw, y.shape[2])):
        eff = (k - 1) * dil + 1
        want, before = _window(o["padding"], size, eff, stride)
        if want != out or want < 1:
            raise CompileError(f"{op.where}: a {k}-wide window with stride {stride} over {size} "
                               f"gives {want}, not {out}")
        total = max((want - 1) * stride + eff - size, 0)
        pads.append((before, total - before))
    ws, table = _requant_table(op, x, w, y, out_c, conv_hooks.TFLITE_ROUNDING)
    g = b.g
    yname = b.value(op.outputs[0])
    nchw_in, nchw_out = f"{yname}::nchw_in", f"{yname}::nchw_out"
    g.values[nchw_in] = Value(nchw_in, [n, c, h, wd], np.dtype(np.int8),
                              scale=float(x.scale[0]), zero_point=int(x.zero_point[0]))
    g.values[nchw_out] = Value(nchw_out, [n, out_c, y.shape[1], y.shape[2]], np.dtype(np.int8),
                               scale=float(y.scale[0]), zero_point=int(y.zero_point[0]))
    wname = g.add_const(f"{yname}::weight", weights)
    g.values[wname].channel_scales = ws.astype(np.float32)
    bname = g.add_const(f"{yname}::bias", np.zeros(out_c, np.int32) if bias is None
                        else np.ascontiguousarray(bias.data, np.int32))
    rname = g.add_const(f"{yname}::requant", table)
    lo, hi = _bounds(op, y)
    g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [b.value(op.inputs[0])], [nchw_in],
                        {"perm": [0, 3, 1, 2]}, op.where))
    g.nodes.append(Node(conv_hooks.QUANTIZED_CONVOLUTION.name, [nchw_in, wname, bname, rname],
                        [nchw_out], {"stride": [sh, sw],
                                     "pads": [pads[0][0], pads[1][0], pads[0][1], pads[1][1]],
                                     "dilation": [dh, dw], "groups": groups,
                                     "lo": lo, "hi": hi}, op.where))
    g.nodes.append(Node(data_movement.PERMUTE_COPY.name, [nchw_out], [yname],
                        {"perm": [0, 2, 3, 1]}, op.where))
    b.transposes += 2


def _window(padding: int, size: int, k: int, stride: int):
    """(output length, padding before) of TFLite's SAME (0) or VALID (1) padding."""
    if padding == 0:
        out = (size + stride - 1) // stride
    else:
        out = (size - k + stride) // stride
    total = max((out - 1) * stride + k - size, 0)
    return out, total // 2


LOWERINGS = {
    "FULLY_CONNECTED": (_fully_connected, conv_hooks.QUANTIZED_LINEAR.name),
    "RESHAPE": (_reshape, data_movement.VIEW_COPY.name),
    "SQUEEZE": (_reshape, data_movement.VIEW_COPY.name),
    "EXPAND_DIMS": (_reshape, data_movement.VIEW_COPY.name),
    "TRANSPOSE": (_transpose, data_movement.PERMUTE_COPY.name),
    "CONCATENATION": (_concatenation, data_movement.CAT.name),
    "SPLIT": (_split, data_movement.SLICE_COPY.name),
    "STRIDED_SLICE": (_strided_slice, data_movement.SLICE_COPY.name),
    "PAD": (_pad, data_movement.CONSTANT_PAD_ND.name),
    "PADV2": (_pad, data_movement.CONSTANT_PAD_ND.name),
    "MAX_POOL_2D": (_max_pool, pooling.MAX_POOL2D.name),
    "CONV_2D": (lambda b, op: _conv(b, op, False), conv_hooks.QUANTIZED_CONVOLUTION.name),
    "DEPTHWISE_CONV_2D": (lambda b, op: _conv(b, op, True),
                          conv_hooks.QUANTIZED_CONVOLUTION.name),
    "AVERAGE_POOL_2D": (_average_pool, pooling.QUANTIZED_AVG_POOL2D.name),
    "SOFTMAX": (_softmax, softmax_hooks.QUANTIZED_SOFTMAX.name),
    "ADD": (_add, tflite_hooks.TFLITE_ADD.name),
}

WHY_NOT = "TFLite's integer rule for it has no runtime kernel yet (tflite_eval.py has it)"


def needs_table(model: tr.Model) -> str:
    """--print-ops for a TFLite model: each operator, its count and what it lowers to."""
    counts = collections.Counter(op.opcode for op in model.operators)
    rows = [("TFLite operator", "count", "runtime operators")]
    for name in sorted(counts):
        target = LOWERINGS[name][1] if name in LOWERINGS else f"NOT LOWERED: {WHY_NOT}"
        rows.append((name, str(counts[name]), target))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    lines = [f"{a:<{w0}}  {c:>{w1}}  {t}" for a, c, t in rows]
    if all(name in LOWERINGS for name in counts):
        ops = sorted({LOWERINGS[name][1] for name in counts})
        lines.append("SOCSIM_KERNEL_OPS=" + ";".join(ops))
    return "\n".join(lines)


# Operand counts (inputs at least, outputs exactly) each lowering reads.
ARITY = {"FULLY_CONNECTED": (2, 1), "MAX_POOL_2D": (1, 1), "RESHAPE": (1, 1), "SQUEEZE": (1, 1),
         "EXPAND_DIMS": (1, 1), "TRANSPOSE": (2, 1), "CONCATENATION": (1, 1), "SPLIT": (2, None),
         "STRIDED_SLICE": (4, 1), "PAD": (2, 1), "PADV2": (3, 1), "CONV_2D": (2, 1),
         "DEPTHWISE_CONV_2D": (2, 1), "AVERAGE_POOL_2D": (1, 1),
         "SOFTMAX": (1, 1), "ADD": (2, 1)}


# The operators lowered in modules of their own (element-wise, resizing, transposed
# convolution; they use this module's helpers) add their entries here.
from socsim_aot import tflite_elementwise, tflite_resize, tflite_transpose_conv  # noqa: E402
for _module in (tflite_elementwise, tflite_resize, tflite_transpose_conv):
    LOWERINGS.update(_module.LOWERINGS)
    ARITY.update(_module.ARITY)


def _check_operands(model: tr.Model, op: tr.Operator):
    least, outputs = ARITY[op.opcode]
    if len(op.inputs) < least or any(i < 0 for i in op.inputs[:least]) or not op.outputs or \
            (outputs is not None and len(op.outputs) != outputs):
        raise CompileError(f"{op.where}: {len(op.inputs)} inputs and {len(op.outputs)} outputs "
                           f"(needs at least {least} inputs"
                           f"{'' if outputs is None else f' and {outputs} output'})")
    for i in op.inputs[least:]:
        if i >= 0 and not model.tensors[i].shape and model.tensors[i].data is None:
            raise CompileError(f"{op.where}: optional input {i} has no shape")


def _check_shapes(model: tr.Model, op: tr.Operator):
    """The values a lowering wrote have the sizes the model's tensors say."""
    y = model.tensors[op.outputs[0]]
    count = int(np.prod(y.shape))
    if op.opcode in ("RESHAPE", "SQUEEZE", "EXPAND_DIMS"):
        x = model.tensors[op.inputs[0]]
        if int(np.prod(x.shape)) != count:
            raise CompileError(f"{op.where}: reshapes {x.shape} to {y.shape} (element counts "
                               "differ)")


def _inverse(p1, p2) -> bool:
    """Permutation p2 applied after p1 gives the identity."""
    return len(p1) == len(p2) and [p1[i] for i in p2] == list(range(len(p1)))


def _layout_free_adds(g: Graph, producer) -> bool:
    """Moves one tflite::add.out whose inputs (of one shape) are both transposes of NCHW values
    to the NCHW values, its NHWC output then made by a transpose after it; True if it moved
    one (elementwise without broadcasting, the add is the same on either layout)."""
    permute = data_movement.PERMUTE_COPY.name
    for k, node in enumerate(g.nodes):
        if node.op != tflite_hooks.TFLITE_ADD.name:
            continue
        firsts = [producer.get(i) for i in node.inputs]
        if any(f is None or f.op != permute for f in firsts) or \
                firsts[0].attrs["perm"] != firsts[1].attrs["perm"] or \
                g.values[node.inputs[0]].shape != g.values[node.inputs[1]].shape or \
                g.values[node.inputs[0]].shape != g.values[node.outputs[0]].shape:
            continue
        perm = firsts[0].attrs["perm"]
        inverse = [perm.index(i) for i in range(len(perm))]
        out = g.values[node.outputs[0]]
        moved = f"{out.name}::{'x'.join(map(str, inverse))}"
        g.values[moved] = Value(moved, list(g.values[firsts[0].inputs[0]].shape), out.dtype,
                                scale=out.scale, zero_point=out.zero_point)
        g.nodes.insert(k + 1, Node(permute, [moved], [out.name], {"perm": perm}, node.where))
        node.inputs = [f.inputs[0] for f in firsts]
        node.outputs = [moved]
        return True
    return False


def cancel_transposes(g: Graph) -> int:
    """Removes the transposes that undo each other: a transpose whose input is made by the
    inverse transpose is skipped (its readers read that one's input), and a transpose nobody
    reads any more goes. TFLite's ADD between NCHW kernels moves to their NCHW values first
    (_layout_free_adds). Data movement only, so results are unchanged. Returns the number of
    transposes removed less those added."""
    permute = data_movement.PERMUTE_COPY.name
    before = sum(1 for n in g.nodes if n.op == permute)
    outputs = set(g.outputs)
    changed = True
    while changed:
        changed = False
        producer = {out: node for node in g.nodes for out in node.outputs}
        for second in list(g.nodes):
            first = producer.get(second.inputs[0])
            if second.op != permute or second.outputs[0] in outputs or first is None or \
                    first.op != permute or not _inverse(first.attrs["perm"], second.attrs["perm"]):
                continue
            source, target = first.inputs[0], second.outputs[0]
            for node in g.nodes:
                node.inputs = [source if i == target else i for i in node.inputs]
            g.nodes.remove(second)
            g.values.pop(target, None)
            if not g.consumers(first.outputs[0]) and first.outputs[0] not in outputs:
                g.nodes.remove(first)
                g.values.pop(first.outputs[0], None)
            changed = True
            break
        if not changed:
            changed = _layout_free_adds(g, producer)
        read = {i for node in g.nodes for i in node.inputs} | outputs
        unread = [n for n in g.nodes if n.op == permute and n.outputs[0] not in read]
        for node in unread:  # the transposes a moved add no longer reads
            g.nodes.remove(node)
            g.values.pop(node.outputs[0], None)
        changed = changed or bool(unread)
    return before - sum(1 for n in g.nodes if n.op == permute)


def _check_uint8(model: tr.Model):
    """uint8 is compiled where a QUANTIZE converts it to or from int8 (an int8 model converted
    with uint8 input or output); any other uint8 tensor is refused by name: uint8 weights
    (TFLite's older asymmetric quantisation, a weight zero point the int8 kernels have no term
    for) or uint8 activations read or written by other operators."""
    users = collections.defaultdict(set)
    for op in model.operators:
        for i in list(op.inputs) + list(op.outputs):
            if i >= 0:
                users[i].add(op.opcode)
    uint8 = [t for t in model.tensors if t.dtype == "uint8" and t.scale is not None]
    for t in sorted(uint8, key=lambda t: t.data is None):  # weights first: the reason
        if t.data is not None:
            zp = int(t.zero_point.flat[0]) if t.zero_point is not None else 0
            raise CompileError(f"tensor {t.index} '{t.name}' is constant uint8 (weights with "
                               f"zero point {zp}): TFLite's older asymmetric uint8 "
                               "quantisation is not supported (the int8 kernels have no "
                               "weight zero point); convert the model with full-integer int8 "
                               "quantisation")
        others = sorted(users[t.index] - {"QUANTIZE"})
        if others:
            raise CompileError(f"tensor {t.index} '{t.name}' is uint8 and used by "
                               f"{', '.join(others)}: uint8 activations are supported only "
                               "through QUANTIZE to or from int8 (a model converted with "
                               "uint8 input or output); convert the model with full-integer "
                               "int8 quantisation")


def load_graph(model: tr.Model, log=None) -> Graph:
    """The IR of a TFLite model, every operator lowered, or CompileError naming those that
    cannot be."""
    if model.subgraph_count != 1:
        raise CompileError(f"{model.subgraph_count} subgraphs: only single-subgraph models "
                           "are supported")
    missing = collections.Counter(op.opcode for op in model.operators
                                  if op.opcode not in LOWERINGS)
    if missing:
        listed = ", ".join(f"{k} x{n}" for k, n in sorted(missing.items()))
        raise CompileError(f"{sum(missing.values())} operator(s) cannot be compiled yet "
                           f"({listed}): {WHY_NOT}")
    _check_uint8(model)
    b = _Builder(model)
    for i in model.inputs:
        t = model.tensors[i]
        if not (t.dtype in ("int8", "uint8") and t.scale is not None) and t.dtype != "float32":
            raise CompileError(f"input tensor {i} '{t.name}' is {t.dtype}: int8 or uint8 inputs "
                               "with their quantisation, or float32 ones, are supported")
        b.g.inputs.append(b.value(i))
    for op in model.operators:
        _check_operands(model, op)
        try:
            LOWERINGS[op.opcode][0](b, op)
        except (IndexError, ValueError, OverflowError) as e:
            raise CompileError(f"{op.where}: inconsistent operands ({e})") from None
        _check_shapes(model, op)
    for i in model.outputs:
        b.g.outputs.append(b.value(i))
    cancelled = cancel_transposes(b.g)
    if log:
        counts = collections.Counter(op.opcode for op in model.operators)
        log(f"front end: TFLite schema {model.version}, {len(model.operators)} operators "
            f"({', '.join(f'{k} {n}' for k, n in counts.most_common())})")
        if b.transposes:
            log(f"front end: {b.transposes} NHWC<->NCHW transposes added around operators whose "
                "kernels are NCHW (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, the pools), "
                f"{cancelled} of them removed in pairs that undo each other, "
                f"{b.transposes - cancelled} left")
    return b.g
