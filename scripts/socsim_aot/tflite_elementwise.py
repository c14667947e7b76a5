"""TFLite front end, the element-wise operators: MUL and SUB with TFLite's integer rules, and
every int8 operator of one input that maps each value on its own as a 256-entry table of
TFLite's integer rule (tflite_eval.py evaluated at the 256 int8 values).

- SUB (int8, broadcasting, fused activation) -> `tflite::sub.out`: ADD's multipliers (both
  inputs at twice the larger scale after a left shift of 20), the second scaled input
  subtracted, the double rounding throughout.
- MUL (int8, broadcasting, fused activation) -> `tflite::mul.out`: (a - zp_a)(b - zp_b)
  scaled once by QuantizeMultiplier(s_a s_b / s_out) with the double rounding.
- LOGISTIC, TANH, HARD_SWISH -> the int8 lookups `quantized_decomposed::sigmoid.out`,
  `tanh.out`, `hardswish.out` (the NPU's lookup unit runs them with --delegate npu); RELU,
  RELU6, LEAKY_RELU and an int8-to-int8 QUANTIZE -> `tflite::lookup.out` (CPU). TFLite's
  reference kernels compute LOGISTIC and TANH of int8 through such a table themselves; for
  the others the table holds, per input value, what TFLite's arithmetic gives for it (a
  requantisation with the double rounding, then the clamp), so the lookup is that rule.
- QUANTIZE between uint8 and int8 (uint8 model inputs and outputs) ->
  `tflite::lookup_bytes.out`, the table of TFLite's requantisation at the 256 input values.
- QUANTIZE from float32 -> `tflite::quantize.out` (float32 division, halves rounded away from
  zero); DEQUANTIZE to float32 -> `quantized_decomposed::dequantize_per_tensor.out`.
- MEAN (int8) -> `tflite::mean.out`: sum(x - zp_in) over the axes, scaled once by
  QuantizeMultiplier(s_in / (count s_out)) with the double rounding, plus zp_out.
"""

import numpy as np

from socsim_aot import tflite_eval
from socsim_aot import tflite_arith as ta
from socsim_aot import tflite_frontend as tf
from socsim_aot import tflite_reader as tr
from socsim_aot.ir import CompileError, Node
from socsim_aot.schema import activations, quantization
from socsim_aot.schema import tflite as tflite_hooks


def _sub(b, op: tr.Operator):
    tf._add(b, op, tflite_hooks.TFLITE_SUB.name)


def _mul(b, op: tr.Operator):
    ts = b.model.tensors
    xa, xb, y = ts[op.inputs[0]], ts[op.inputs[1]], ts[op.outputs[0]]
    tf._check_int8(op, xa, xb, y)
    real = float(np.float64(xa.scale[0]) * np.float64(xb.scale[0]) / np.float64(y.scale[0]))
    m, e = ta.quantize_multiplier(real)
    if not (m > 0 and -31 <= e <= 30):
        raise CompileError(f"{op.where}: the rescaling {real:g} is out of range")
    lo, hi = tf._activation_range(op, y)
    args = {"zp_a": int(xa.zero_point[0]), "zp_b": int(xb.zero_point[0]), "m": m, "e": e,
            "zp_out": int(y.zero_point[0]), "act_min": lo, "act_max": hi}
    b.g.nodes.append(Node(tflite_hooks.TFLITE_MUL.name,
                          [b.value(op.inputs[0]), b.value(op.inputs[1])],
                          [b.value(op.outputs[0])], {"args": args}, op.where))


# TFLite operator -> the lookup operator its table runs as
TABLE_OPERATORS = {
    "LOGISTIC": activations.QUANTIZED_SIGMOID.name,
    "TANH": activations.QUANTIZED_TANH.name,
    "HARD_SWISH": activations.QUANTIZED_HARDSWISH.name,
    "RELU": tflite_hooks.TFLITE_LOOKUP.name,
    "RELU6": tflite_hooks.TFLITE_LOOKUP.name,
    "LEAKY_RELU": tflite_hooks.TFLITE_LOOKUP.name,
    "QUANTIZE": tflite_hooks.TFLITE_LOOKUP.name,
}


def rule_table(model: tr.Model, op: tr.Operator) -> np.ndarray:
    """TFLite's int8 output for each int8 input value -128..127 of a one-input operator
    (tflite_eval's rule, the one the fixtures check against the reference interpreter)."""
    values = np.arange(-128, 128, dtype=np.int64).astype(np.int8)
    try:
        out = tflite_eval._dispatch(op, model.tensors, [values])[0]
    except tflite_eval.UnsupportedOperator as e:
        raise CompileError(str(e)) from None
    return np.ascontiguousarray(np.asarray(out).reshape(256).astype(np.int8))


def _table(b, op: tr.Operator):
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    if op.opcode == "QUANTIZE" and x.dtype == "float32":
        _quantize_float(b, op)
        return
    if op.opcode == "QUANTIZE" and "uint8" in (x.dtype, y.dtype):
        _quantize_uint8(b, op)
        return
    if op.opcode == "QUANTIZE" and x.dtype != "int8":
        raise CompileError(f"{op.where}: QUANTIZE from {x.dtype}: from float32, int8 or uint8 "
                           "is supported")
    tf._check_int8(op, x, y)
    if list(x.shape) != list(y.shape):
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be alike")
    yname = b.value(op.outputs[0])
    table = b.g.add_const(f"{yname}::table", rule_table(b.model, op))
    b.g.nodes.append(Node(TABLE_OPERATORS[op.opcode], [b.value(op.inputs[0]), table], [yname],
                          {}, op.where))


def _quantize_uint8(b, op: tr.Operator):
    """QUANTIZE between uint8 and int8 (a model converted with uint8 input or output:
    inference_input_type / inference_output_type uint8) -> `tflite::lookup_bytes.out`, the
    table of TFLite's requantisation (the double rounding, then the output type's clamp) at
    each of the 256 input values; the model's input or output stays uint8."""
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    for t in (x, y):
        if t.dtype not in ("int8", "uint8") or t.scale is None or t.per_axis:
            raise CompileError(f"{op.where}: tensor {t.index} '{t.name}' is {t.dtype}"
                               f"{'' if t.scale is not None else ' without quantisation'}; "
                               "QUANTIZE between int8 and uint8 with one scale and zero point "
                               "each is supported")
    if list(x.shape) != list(y.shape):
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be alike")
    first = -128 if x.dtype == "int8" else 0
    values = np.arange(first, first + 256, dtype=np.int64).astype(tf.NUMPY_TYPES[x.dtype])
    try:
        out = tflite_eval._dispatch(op, b.model.tensors, [values])[0]
    except tflite_eval.UnsupportedOperator as e:
        raise CompileError(str(e)) from None
    table = np.ascontiguousarray(np.asarray(out).reshape(256).astype(tf.NUMPY_TYPES[y.dtype])
                                 .view(np.uint8))
    yname = b.value(op.outputs[0])
    tname = b.g.add_const(f"{yname}::table", table)
    b.g.nodes.append(Node(tflite_hooks.TFLITE_LOOKUP_BYTES.name, [b.value(op.inputs[0]), tname],
                          [yname], {}, op.where))


def _mean(b, op: tr.Operator):
    """TFLite's int8 MEAN: tflite::mean.out, sum(x - zp_in) over the axes scaled by
    QuantizeMultiplier(s_in / (count s_out)) (float32 operands, as TFLite computes it)."""
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    tf._check_int8(op, x, y)
    axes = sorted({int(a) % len(x.shape) for a in
                   tf._constant(b, op, op.inputs[1], "the axes").reshape(-1)})
    keep = bool(op.options.get("keep_dims", False))
    kept = [1 if a in axes else d for a, d in enumerate(x.shape)]
    dropped = [d for a, d in enumerate(x.shape) if a not in axes]
    if not axes or list(y.shape) not in (kept, dropped) or \
            (keep and list(y.shape) != kept):
        raise CompileError(f"{op.where}: a mean of {x.shape} over axes {axes} is not {y.shape}")
    count = int(np.prod([x.shape[a] for a in axes]))
    if count > 1 << 23:
        raise CompileError(f"{op.where}: {count} elements per mean: at most 2^23 are supported")
    real = float(np.float32(x.scale[0]) / (np.float32(count) * np.float32(y.scale[0])))
    m, e = ta.quantize_multiplier(real)
    if not (m > 0 and -31 <= e <= 30):
        raise CompileError(f"{op.where}: the rescaling {real:g} is out of range")
    args = {"zp_in": int(x.zero_point[0]), "zp_out": int(y.zero_point[0]), "m": m, "e": e,
            "reduce": [1 if a in axes else 0 for a in range(len(x.shape))]}
    b.g.nodes.append(Node(tflite_hooks.TFLITE_MEAN.name, [b.value(op.inputs[0])],
                          [b.value(op.outputs[0])], {"args": args}, op.where))


def _quantize_float(b, op: tr.Operator):
    """QUANTIZE float32 -> int8: tflite::quantize.out (TFLite's float32 division and its
    rounding of halves away from zero)."""
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    tf._check_int8(op, y)
    if list(x.shape) != list(y.shape):
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be alike")
    args = {"scale": float(y.scale[0]), "zero_point": int(y.zero_point[0])}
    b.g.nodes.append(Node(tflite_hooks.TFLITE_QUANTIZE.name, [b.value(op.inputs[0])],
                          [b.value(op.outputs[0])], {"args": args}, op.where))


def _dequantize(b, op: tr.Operator):
    """DEQUANTIZE int8 -> float32: the runtime's dequantize_per_tensor, float32(x - zp) s in
    one float32 multiply, which is TFLite's float(double(s) (x - zp)): the product of a float32
    and an integer of 9 bits is exact in double, so both round it once to float32."""
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    tf._check_int8(op, x)
    if y.dtype != "float32" or list(x.shape) != list(y.shape):
        raise CompileError(f"{op.where}: DEQUANTIZE to {y.dtype} {y.shape}: float32 of the "
                           "input's shape is supported")
    b.g.nodes.append(Node(quantization.DEQUANTIZE.name, [b.value(op.inputs[0])],
                          [b.value(op.outputs[0])], {}, op.where))


LOWERINGS = {
    "DEQUANTIZE": (_dequantize, quantization.DEQUANTIZE.name),
    "MEAN": (_mean, tflite_hooks.TFLITE_MEAN.name),
    "SUB": (_sub, tflite_hooks.TFLITE_SUB.name),
    "MUL": (_mul, tflite_hooks.TFLITE_MUL.name),
}
LOWERINGS.update({name: (_table, target) for name, target in TABLE_OPERATORS.items()})

ARITY = {name: (1, 1) for name in TABLE_OPERATORS}
ARITY.update({"SUB": (2, 1), "MUL": (2, 1), "MEAN": (2, 1), "DEQUANTIZE": (1, 1)})
