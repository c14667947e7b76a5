"""The compiler's hooks for the indexing family (socsim_schema/indexing.py): ArgMax, ArgMin
and Cast."""

import numpy as np

from socsim_aot import ir
from socsim_aot.schema.hooks import hooks

# ONNX element types (TensorProto) the runtime has; int64 is int32 at run time.
_CAST_TYPES = {1: np.float32, 2: np.uint8, 3: np.int8, 6: np.int32, 7: np.int32}


def _lower_arg(n):
    x = n.g.value(n.inputs[0])
    if not x.shape:
        n.fail(f"{n.op_type} of a scalar")
    if n.attrs.get("select_last_index", 0):
        n.fail(f"{n.op_type} with select_last_index=1 is not supported")
    dim = int(n.attrs.get("axis", 0)) % len(x.shape)
    n.emit(ARGMAX.name if n.op_type == "ArgMax" else ARGMIN.name, n.inputs[:1], dim=dim)


def _lower_cast(n):
    to = int(n.attrs["to"])
    if to not in _CAST_TYPES:
        n.fail(f"Cast to ONNX element type {to}: the runtime's types are float32, int32 "
               "(and int64 as int32), int8 and uint8")
    x = n.g.value(n.inputs[0])
    if x.const is not None:
        n.g.add_const(n.outputs[0], np.asarray(_cast(x.const, _CAST_TYPES[to])).reshape(
            n.output().shape))
        return
    n.emit(TO_COPY.name, n.inputs[:1])


def _quantize_cast(q, node):
    x, y = q.g.values[node.inputs[0]], q.g.values[node.outputs[0]]
    if x.quantized or y.dtype == np.float32:
        raise ir.CompileError(f"{node.where}: Cast between a quantised activation and an "
                              "integer tensor is not supported in int8 programs")


def _arg(fn):
    def reference(ins, a, out):
        return fn(ins[0], axis=a.dim).astype(np.int32).reshape(out.shape)
    return reference


def _cast(x, dtype):
    """numpy's conversion with the kernel's rules: truncation towards zero, saturation,
    NaN to 0."""
    dtype = np.dtype(dtype)
    if dtype == np.float32:
        return x.astype(np.float32)
    info = np.iinfo(dtype)
    if x.dtype == np.float32:
        v = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0))
        return np.clip(v, info.min, info.max).astype(dtype)
    return np.clip(x.astype(np.int64), info.min, info.max).astype(dtype)


def _to_copy(ins, a, out):
    from socsim_aot import program_format as pf  # `out` is the program's tensor record
    return _cast(ins[0], pf.DTYPES[out.dtype]).reshape(out.shape)


ARGMAX, ARGMIN, TO_COPY = (
    hooks("aten::argmax.out", lower=_lower_arg, quantize=lambda q, node: None,
          arg_values=lambda g, node: dict(dim=node.attrs["dim"]), reference=_arg(np.argmax)),
    hooks("aten::argmin.out", quantize=lambda q, node: None,
          arg_values=lambda g, node: dict(dim=node.attrs["dim"]), reference=_arg(np.argmin)),
    hooks("aten::_to_copy.out", lower=_lower_cast, quantize=_quantize_cast,
          reference=_to_copy))


def _int64_to_float(ins, a, out):
    x = np.ascontiguousarray(ins[0]).view("<i8").reshape(ins[0].shape[:-1])
    return x.astype(np.float32).reshape(out.shape)


(INT64_TO_FLOAT,) = (hooks("aten::_to_copy.int64_out", reference=_int64_to_float),)
