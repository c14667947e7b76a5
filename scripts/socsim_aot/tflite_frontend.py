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

Convolutions, pooling, ADD and the non-linear operators round twice in TFLite (a rounding
doubling high multiply, then a rounding shift) or follow rules of their own
(tflite_eval.py has every one of them); they wait for kernels with those rules.
"""

import collections
from typing import Dict, List

import numpy as np

from socsim_aot import ir
from socsim_aot import tflite_arith as ta
from socsim_aot import tflite_reader as tr
from socsim_aot.ir import CompileError, Graph, Node, Value
from socsim_aot.schema import conv as conv_hooks
from socsim_aot.schema import data_movement

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
    out_c, features = w.shape
    if bias is not None and (bias.dtype != "int32" or bias.data is None):
        raise CompileError(f"{op.where}: the bias must be a constant int32 tensor")
    ws = np.broadcast_to(w.scale.astype(np.float64), (out_c,))
    reals = np.float64(x.scale[0]) * ws / np.float64(y.scale[0])
    table = []
    for r in reals:
        m, e = ta.quantize_multiplier(float(r))
        if not (m > 0 and -31 <= e <= 30):
            raise CompileError(f"{op.where}: the requantisation scale {r:g} is out of range")
        table.append((m, 31 - e))
    g = b.g
    xname, yname = b.value(op.inputs[0]), b.value(op.outputs[0])
    where = f"{op.where}"
    rows = int(np.prod(x.shape)) // features
    if list(x.shape[-1:]) != [features]:
        flat = f"{yname}::rows"
        g.values[flat] = Value(flat, [rows, features], np.dtype(np.int8),
                               scale=float(x.scale[0]), zero_point=int(x.zero_point[0]))
        g.nodes.append(Node(data_movement.VIEW_COPY.name, [xname], [flat], {}, where))
        xname = flat
    wname = g.add_const(f"{yname}::weight", np.ascontiguousarray(w.data, np.int8))
    g.values[wname].channel_scales = ws.astype(np.float32)
    bname = g.add_const(f"{yname}::bias", np.zeros(out_c, np.int32) if bias is None
                        else np.ascontiguousarray(bias.data, np.int32))
    rname = g.add_const(f"{yname}::requant", np.array(table, np.int32).reshape(-1, 2))
    lo, hi = _bounds(op, y)
    g.nodes.append(Node(conv_hooks.QUANTIZED_LINEAR.name, [xname, wname, bname, rname], [yname],
                        {"lo": lo, "hi": hi}, where))


def _reshape(b: _Builder, op: tr.Operator):
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    if x.dtype != y.dtype or (x.scale is not None and y.scale is not None and
                              (float(x.scale[0]), int(x.zero_point[0])) !=
                              (float(y.scale[0]), int(y.zero_point[0]))):
        raise CompileError(f"{op.where}: input and output are quantised differently")
    b.g.nodes.append(Node(data_movement.VIEW_COPY.name, [b.value(op.inputs[0])],
                          [b.value(op.outputs[0])], {}, op.where))


LOWERINGS = {
    "FULLY_CONNECTED": (_fully_connected, conv_hooks.QUANTIZED_LINEAR.name),
    "RESHAPE": (_reshape, data_movement.VIEW_COPY.name),
    "SQUEEZE": (_reshape, data_movement.VIEW_COPY.name),
    "EXPAND_DIMS": (_reshape, data_movement.VIEW_COPY.name),
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
    b = _Builder(model)
    for i in model.inputs:
        t = model.tensors[i]
        if t.dtype not in ("int8",) or t.scale is None:
            raise CompileError(f"input tensor {i} '{t.name}' is {t.dtype}: int8 inputs with "
                               "their quantisation are supported")
        b.g.inputs.append(b.value(i))
    for op in model.operators:
        LOWERINGS[op.opcode][0](b, op)
    for i in model.outputs:
        b.g.outputs.append(b.value(i))
    if log:
        counts = collections.Counter(op.opcode for op in model.operators)
        log(f"front end: TFLite schema {model.version}, {len(model.operators)} operators "
            f"({', '.join(f'{k} {n}' for k, n in counts.most_common())})")
    return b.g
