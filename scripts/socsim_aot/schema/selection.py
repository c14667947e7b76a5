"""The compiler's hooks for the selection family (socsim_schema/selection.py): TopK, the
comparisons and Where on run-time tensors."""

import numpy as np

from socsim_aot import ir
from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.hooks import hooks

_COMPARISONS = {"Equal": "aten::eq.Tensor_out", "Less": "aten::lt.Tensor_out",
                "Greater": "aten::gt.Tensor_out", "LessOrEqual": "aten::le.Tensor_out",
                "GreaterOrEqual": "aten::ge.Tensor_out"}
_NUMPY = {"aten::eq.Tensor_out": np.equal, "aten::lt.Tensor_out": np.less,
          "aten::gt.Tensor_out": np.greater, "aten::le.Tensor_out": np.less_equal,
          "aten::ge.Tensor_out": np.greater_equal}


# ---- TopK ---------------------------------------------------------------------------------

def _lower_topk(n):
    x = n.g.value(n.inputs[0])
    if not x.shape:
        n.fail("TopK of a scalar")
    if len(n.inputs) < 2 or not n.inputs[1]:
        n.fail("TopK needs K (input 1)")
    k = n.const(n.inputs[1], "K").reshape(-1)
    dim = int(n.attrs.get("axis", -1)) % len(x.shape)
    if k.size != 1 or not 1 <= int(k[0]) <= x.shape[dim]:
        n.fail(f"K {k.tolist()} is not one value in [1, {x.shape[dim]}]")
    args = dict(k=int(k[0]), dim=dim, largest=int(n.attrs.get("largest", 1)) != 0)
    # sorted=0 leaves the order to the backend: the kernel always sorts.
    n.emit(TOPK_VALUES.name, n.inputs[:1], **args)
    if len(n.outputs) > 1 and n.outputs[1]:
        n.emit_to(TOPK_INDICES.name, n.inputs[:1], n.outputs[1], **args)


def topk_order(x, k, dim, largest):
    """Indices of the k best elements along dim, best first, ties by the lower index."""
    key = -x.astype(np.float64) if largest else x.astype(np.float64)
    order = np.argsort(key, axis=dim, kind="stable")
    return np.take(order, np.arange(k), axis=dim)


def _topk_args(g, node):
    return dict(k=node.attrs["k"], dim=node.attrs["dim"], largest=node.attrs["largest"])


def _topk_values(ins, a, out):
    idx = topk_order(ins[0], a.k, a.dim, a.largest)
    return np.take_along_axis(ins[0], idx, axis=a.dim).reshape(out.shape)


def _topk_indices(ins, a, out):
    return topk_order(ins[0], a.k, a.dim, a.largest).astype(np.int32).reshape(out.shape)


# ---- comparisons and Where ----------------------------------------------------------------

def _same_type(n, names):
    """Operands of one element type: a constant takes the run-time operand's type (an int64
    constant compared with int64 ids, which are int32 at run time)."""
    values = [n.g.value(i) for i in names]
    runtime = [v.dtype for v in values if v.const is None]
    if not runtime:  # int64 constants chosen at run time: int32, as int64 values are
        runtime = [np.dtype(np.int32) if values[0].dtype == np.int64 else values[0].dtype]
    out = []
    for name, v in zip(names, values):
        if v.const is not None and v.dtype != runtime[0]:
            cast = v.const.astype(runtime[0])
            if not np.array_equal(cast.astype(v.const.dtype), v.const):
                n.fail(f"the constant '{name}' does not fit {runtime[0]}")
            name = n.g.add_const(f"{n.outputs[0]}::{len(out)}", cast)
        out.append(name)
    if len({n.g.value(i).dtype for i in out}) != 1:
        n.fail(f"{n.op_type} of {' and '.join(str(n.g.value(i).dtype) for i in out)}")
    return out


def _lower_compare(n):
    n.emit(_COMPARISONS[n.op_type], _same_type(n, n.inputs[:2]))


def _quantize_compare(q, node):
    """Quantised operands compare as int8 codes at one scale and zero point: b is
    requantised to a's (a float constant is quantised at a's scale)."""
    a, b = (q.g.values[i] for i in node.inputs)
    if a.quantized or b.quantized:
        if not a.quantized:
            raise ir.CompileError(f"{node.where}: a comparison of a constant with a quantised "
                                  "activation needs the activation first")
        node.inputs = [node.inputs[0],
                       q.requantized(node.inputs[1], a.scale, node.where, a.zero_point)]


def _compare_reference(op):
    def reference(ins, a, out):
        return _NUMPY[op](ins[0], ins[1]).astype(np.uint8).reshape(out.shape)
    return reference


def _lower_where(n):
    cond = n.g.value(n.inputs[0])
    x, y = _same_type(n, n.inputs[1:3])
    c = n.inputs[0]
    if cond.const is not None:
        c = n.g.add_const(n.outputs[0] + "::condition", cond.const.astype(np.uint8))
    elif cond.dtype != np.uint8:
        n.fail(f"Where's condition is {cond.dtype}, not a mask (bool)")
    n.emit(WHERE.name, [x, c, y])


def _quantize_where(q, node):
    """x and y requantised to the output's scale (a choice moves values, as a Concat)."""
    y = q.g.values[node.outputs[0]]
    if y.dtype != np.float32 and not y.quantized:
        return
    x_name, cond, y_name = node.inputs
    node.inputs = [q.requantized(x_name, y.scale, node.where, y.zero_point), cond,
                   q.requantized(y_name, y.scale, node.where, y.zero_point)]


def _where(ins, a, out):
    x, cond, y = ins
    return np.where(cond != 0, x, y).astype(x.dtype).reshape(out.shape)


TOPK_VALUES, TOPK_INDICES = (
    hooks("aten::topk.values", lower=_lower_topk, quantize=same_scale, arg_values=_topk_args,
          reference=_topk_values),
    hooks("aten::topk_indices.out", quantize=lambda q, node: None, arg_values=_topk_args,
          reference=_topk_indices))
EQ, LT, GT, LE, GE = (
    hooks(op, **({"lower": _lower_compare} if op == "aten::eq.Tensor_out" else {}),
          quantize=_quantize_compare, reference=_compare_reference(op))
    for op in _NUMPY)
WHERE = hooks("aten::where.self_out", lower=_lower_where, quantize=_quantize_where,
              reference=_where)


# ---- And, Or, Xor, Not on masks -----------------------------------------------------------

_LOGICAL = {"And": "aten::logical_and.out", "Or": "aten::logical_or.out",
            "Xor": "aten::logical_xor.out", "Not": "aten::logical_not.out"}
_LOGICAL_NUMPY = {"aten::logical_and.out": np.logical_and, "aten::logical_or.out": np.logical_or,
                  "aten::logical_xor.out": np.logical_xor}


def _lower_logical(n):
    op = _LOGICAL[n.op_type]
    names = n.inputs[:1 if n.op_type == "Not" else 2]
    values = [n.g.value(i) for i in names]
    if all(v.const is not None for v in values):
        fn = np.logical_not if n.op_type == "Not" else _LOGICAL_NUMPY[op]
        n.g.add_const(n.outputs[0], np.asarray(fn(*[v.const for v in values]))
                      .reshape(n.output().shape))
        return
    names = [n.g.add_const(f"{n.outputs[0]}::{k}", v.const.astype(np.uint8))
             if v.const is not None else name for k, (name, v) in enumerate(zip(names, values))]
    n.emit(op, names)


def _logical_reference(op):
    def reference(ins, a, out):
        if op == "aten::logical_not.out":
            return (ins[0] == 0).astype(np.uint8).reshape(out.shape)
        return _LOGICAL_NUMPY[op](ins[0] != 0, ins[1] != 0).astype(np.uint8).reshape(out.shape)
    return reference


LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR, LOGICAL_NOT = (
    hooks(op, **({"lower": _lower_logical} if op == "aten::logical_and.out" else {}),
          quantize=lambda q, node: None, reference=_logical_reference(op))
    for op in ("aten::logical_and.out", "aten::logical_or.out", "aten::logical_xor.out",
               "aten::logical_not.out"))
