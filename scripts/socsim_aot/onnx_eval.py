"""Numpy semantics of the ONNX operators the front end evaluates (opset 13 forms).

Constant folding (passes/fold_constants.py) runs a node whose inputs are all constants with
these functions; the pass tests run whole graphs with them before and after a rewrite
(`run_graph`). Each entry takes (node, inputs) and returns the list of outputs; an omitted
optional input is None. Floating-point operators compute in the inputs' dtype.
"""

import math
from typing import Callable, Dict, List

import numpy as np

from socsim_aot.onnx_graph import OnnxGraph, OnnxOp, _np_dtype

EVALUATORS: Dict[str, Callable] = {}


def evaluator(*op_types):
    def register(fn):
        for t in op_types:
            EVALUATORS[t] = fn
        return fn
    return register


def _axes(values, rank):
    return [int(a) % rank for a in np.asarray(values).reshape(-1)]


# ---- shapes and indexing ------------------------------------------------------------------------

@evaluator("Shape")
def _shape(node, ins):
    shape = np.array(ins[0].shape, np.int64)
    start, end = node.attrs.get("start", 0), node.attrs.get("end", None)
    return [shape[start:end]]


@evaluator("Size")
def _size(node, ins):
    return [np.array(ins[0].size, np.int64)]


@evaluator("Gather")
def _gather(node, ins):
    x, idx = ins
    axis = node.attrs.get("axis", 0) % x.ndim
    idx = np.where(idx < 0, idx + x.shape[axis], idx)
    return [np.take(x, idx, axis=axis)]


@evaluator("Unsqueeze")
def _unsqueeze(node, ins):
    x, axes = ins
    rank = x.ndim + np.asarray(axes).size
    shape = list(x.shape)
    for a in sorted(_axes(axes, rank)):
        shape.insert(a, 1)
    return [x.reshape(shape)]


@evaluator("Squeeze")
def _squeeze(node, ins):
    x = ins[0]
    axes = ins[1] if len(ins) > 1 and ins[1] is not None else \
        [i for i, d in enumerate(x.shape) if d == 1]
    return [np.squeeze(x, axis=tuple(_axes(axes, x.ndim)))]


@evaluator("Reshape")
def _reshape(node, ins):
    x, shape = ins
    shape = [int(s) for s in shape]
    if not node.attrs.get("allowzero", 0):
        shape = [x.shape[i] if s == 0 else s for i, s in enumerate(shape)]
    return [x.reshape(shape)]


@evaluator("Flatten")
def _flatten(node, ins):
    x = ins[0]
    axis = node.attrs.get("axis", 1) % (x.ndim + 1) if x.ndim else 0
    return [x.reshape(int(np.prod(x.shape[:axis], dtype=np.int64)), -1)]


@evaluator("Transpose")
def _transpose(node, ins):
    perm = node.attrs.get("perm")
    return [np.ascontiguousarray(np.transpose(ins[0], perm))]


@evaluator("Concat")
def _concat(node, ins):
    return [np.concatenate([i for i in ins if i is not None], axis=node.attrs["axis"])]


@evaluator("Slice")
def _slice(node, ins):
    x, starts, ends = ins[:3]
    axes = ins[3] if len(ins) > 3 and ins[3] is not None else range(len(starts))
    steps = ins[4] if len(ins) > 4 and ins[4] is not None else [1] * len(starts)
    index = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = int(a) % x.ndim
        dim = x.shape[a]
        s, e, st = int(s), int(e), int(st)
        # ONNX clamps to [0, dim] (or [-1, dim - 1] for negative steps); Python slices agree
        # once huge sentinels (INT64_MAX, -INT64_MAX) are brought into range.
        s = max(-dim - 1, min(dim, s))
        e = max(-dim - 1, min(dim, e))
        if st < 0 and e < -dim:
            e = None
        index[a] = slice(s, e, st)
    return [x[tuple(index)]]


@evaluator("Split")
def _split(node, ins):
    x = ins[0]
    axis = node.attrs.get("axis", 0) % x.ndim
    if len(ins) > 1 and ins[1] is not None:
        sizes = [int(s) for s in ins[1]]
    else:
        parts = len(node.outputs)
        sizes = [x.shape[axis] // parts] * parts
    return np.split(x, np.cumsum(sizes)[:-1], axis=axis)


@evaluator("Expand")
def _expand(node, ins):
    x, shape = ins
    out = np.broadcast_shapes(x.shape, tuple(int(s) for s in shape))
    return [np.ascontiguousarray(np.broadcast_to(x, out))]


@evaluator("Tile")
def _tile(node, ins):
    return [np.tile(ins[0], [int(r) for r in ins[1]])]


@evaluator("ConstantOfShape")
def _constant_of_shape(node, ins):
    from onnx import numpy_helper
    value = node.attrs.get("value")
    fill = numpy_helper.to_array(value).reshape(-1) if value is not None else \
        np.zeros(1, np.float32)
    return [np.full([int(s) for s in ins[0]], fill[0], fill.dtype)]


@evaluator("Range")
def _range(node, ins):
    start, limit, delta = (np.asarray(v).reshape(()) for v in ins)
    return [np.arange(start, limit, delta).astype(start.dtype)]


@evaluator("Cast")
def _cast(node, ins):
    return [ins[0].astype(_np_dtype(node.attrs["to"]))]


@evaluator("Identity", "Dropout")
def _identity(node, ins):
    out = [ins[0]]
    if len(node.outputs) > 1:  # Dropout's mask: everything kept at inference
        out.append(np.ones(ins[0].shape, bool))
    return out


@evaluator("Where")
def _where(node, ins):
    return [np.where(*ins)]


@evaluator("Trilu")
def _trilu(node, ins):
    """The upper (upper=1, the default) or lower triangle of the last two axes from diagonal
    k (the optional second input), the rest 0: how causal masks are made."""
    k = int(np.asarray(ins[1]).reshape(-1)[0]) if len(ins) > 1 and ins[1] is not None else 0
    upper = node.attrs.get("upper", 1)
    return [np.triu(ins[0], k) if upper else np.tril(ins[0], k)]


@evaluator("Pad")
def _pad(node, ins):
    x, pads = ins[0], [int(p) for p in ins[1]]
    value = ins[2].reshape(()) if len(ins) > 2 and ins[2] is not None else 0
    mode = node.attrs.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    rank = x.ndim
    widths = [(pads[i], pads[i + rank]) for i in range(rank)]
    if mode == "constant":
        return [np.pad(x, widths, constant_values=value)]
    return [np.pad(x, widths, mode={"reflect": "reflect", "edge": "edge"}[mode])]


# ---- elementwise --------------------------------------------------------------------------------

def _same_dtype(fn):
    def run(node, ins):
        return [np.asarray(fn(*ins)).astype(ins[0].dtype)]
    return run


def _int_div(a, b):
    if np.issubdtype(a.dtype, np.integer):
        q = np.abs(a) // np.abs(b)
        return np.where((a < 0) != (b < 0), -q, q)  # ONNX (C) integer division truncates
    return a / b


UNARY = ("Neg", "Abs", "Sqrt", "Exp", "Log", "Floor", "Ceil", "Reciprocal", "Tanh", "Relu",
         "Sigmoid", "Erf", "Not")
# Operators whose inputs broadcast to their output's shape.
BROADCASTING = ("Add", "Sub", "Mul", "Div", "Pow", "Mod", "Equal", "Less", "Greater",
                "LessOrEqual", "GreaterOrEqual", "And", "Or", "Where", "Min", "Max", "Sum",
                "Mean")

for _name, _fn in {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": _int_div,
                   "Pow": np.power, "Neg": np.negative, "Abs": np.abs, "Sqrt": np.sqrt,
                   "Exp": np.exp, "Log": np.log, "Floor": np.floor, "Ceil": np.ceil,
                   "Reciprocal": lambda x: 1 / x, "Tanh": np.tanh,
                   "Relu": lambda x: np.maximum(x, 0),
                   "Sigmoid": lambda x: 1 / (1 + np.exp(-x)),
                   "Erf": np.vectorize(math.erf, otypes=[np.float64]),
                   "Mod": np.fmod}.items():
    EVALUATORS[_name] = _same_dtype(_fn)

for _name, _fn in {"Equal": np.equal, "Less": np.less, "Greater": np.greater,
                   "LessOrEqual": np.less_equal, "GreaterOrEqual": np.greater_equal,
                   "Not": np.logical_not, "And": np.logical_and, "Or": np.logical_or}.items():
    EVALUATORS[_name] = (lambda fn: lambda node, ins: [fn(*ins)])(_fn)


@evaluator("Min", "Max", "Sum", "Mean")
def _variadic(node, ins):
    fn = {"Min": np.minimum, "Max": np.maximum, "Sum": np.add, "Mean": np.add}[node.op_type]
    out = ins[0]
    for x in ins[1:]:
        out = fn(out, x)
    if node.op_type == "Mean":
        out = out / len(ins)
    return [np.asarray(out).astype(ins[0].dtype)]


@evaluator("Clip")
def _clip(node, ins):
    x = ins[0]
    lo = ins[1] if len(ins) > 1 and ins[1] is not None else node.attrs.get("min")
    hi = ins[2] if len(ins) > 2 and ins[2] is not None else node.attrs.get("max")
    if lo is not None:
        x = np.maximum(x, lo)
    if hi is not None:
        x = np.minimum(x, hi)
    return [x.astype(ins[0].dtype)]


@evaluator("HardSigmoid")
def _hard_sigmoid(node, ins):
    a, b = node.attrs.get("alpha", 0.2), node.attrs.get("beta", 0.5)
    return [np.clip(a * ins[0] + b, 0, 1).astype(ins[0].dtype)]


@evaluator("HardSwish")
def _hard_swish(node, ins):
    x = ins[0]
    return [(x * np.clip(x / 6 + 0.5, 0, 1)).astype(x.dtype)]


# ---- reductions and linear algebra --------------------------------------------------------------

@evaluator("ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd")
def _reduce(node, ins):
    x = ins[0]
    axes = node.attrs.get("axes")
    if node.op_type == "ReduceSum" and len(ins) > 1 and ins[1] is not None:
        axes = ins[1]
    keep = bool(node.attrs.get("keepdims", 1))
    axes = tuple(_axes(axes, x.ndim)) if axes is not None and np.size(axes) else None
    fn = {"ReduceMean": np.mean, "ReduceSum": np.sum, "ReduceMax": np.max,
          "ReduceMin": np.min, "ReduceProd": np.prod}[node.op_type]
    return [np.asarray(fn(x, axis=axes, keepdims=keep)).astype(x.dtype)]


@evaluator("MatMul")
def _matmul(node, ins):
    return [np.matmul(*ins).astype(ins[0].dtype)]


@evaluator("Gemm")
def _gemm(node, ins):
    a, b = ins[0], ins[1]
    if node.attrs.get("transA", 0):
        a = a.T
    if node.attrs.get("transB", 0):
        b = b.T
    out = node.attrs.get("alpha", 1.0) * (a @ b)
    if len(ins) > 2 and ins[2] is not None:
        out = out + node.attrs.get("beta", 1.0) * ins[2]
    return [out.astype(ins[0].dtype)]


@evaluator("MaskedSoftmax")
def _masked_softmax(node, ins):
    """The fused attention softmax (passes/mask_softmax.py): positions with a nonzero mask
    excluded, coming out 0; a line excluded whole all 0."""
    x, mask = ins[0], ins[1] != 0
    axis = node.attrs["dim"]
    kept = np.where(mask, -np.inf, x.astype(np.float64))
    top = kept.max(axis=axis, keepdims=True)
    e = np.where(mask, 0.0, np.exp(kept - np.where(np.isfinite(top), top, 0.0)))
    total = e.sum(axis=axis, keepdims=True)
    return [np.where(total > 0, e / np.where(total > 0, total, 1.0), 0.0).astype(x.dtype)]


@evaluator("Softmax")
def _softmax(node, ins):
    x = ins[0]
    axis = node.attrs.get("axis", -1)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return [(e / e.sum(axis=axis, keepdims=True)).astype(x.dtype)]


@evaluator("Conv")
def _conv(node, ins):
    from socsim_aot.schema.conv import conv2d_nchw
    x, w = ins[0], ins[1]
    a = node.attrs
    pt, pl, pb, pr = a.get("pads", [0, 0, 0, 0])
    out = conv2d_nchw(x, w, tuple(a.get("strides", [1, 1])), (pt, pl, pb, pr),
                      tuple(a.get("dilations", [1, 1])), a.get("group", 1), np.float64)
    if len(ins) > 2 and ins[2] is not None:
        out = out + ins[2][None, :, None, None]
    return [out.astype(x.dtype)]


@evaluator("BatchNormalization")
def _batch_norm(node, ins):
    x, s, b, m, v = ins[:5]
    shape = (1, -1) + (1,) * (x.ndim - 2)
    k = s / np.sqrt(v + node.attrs.get("epsilon", 1e-5))
    return [((x - m.reshape(shape)) * k.reshape(shape) + b.reshape(shape)).astype(x.dtype)]


@evaluator("LayerNormalization")
def _layer_norm(node, ins):
    x = ins[0]
    axis = node.attrs.get("axis", -1) % x.ndim
    axes = tuple(range(axis, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x - mean) / np.sqrt(var + node.attrs.get("epsilon", 1e-5))
    if len(ins) > 1 and ins[1] is not None:
        y = y * ins[1]
    if len(ins) > 2 and ins[2] is not None:
        y = y + ins[2]
    return [y.astype(x.dtype)]


@evaluator("GlobalAveragePool")
def _global_average_pool(node, ins):
    x = ins[0]
    return [x.mean(axis=tuple(range(2, x.ndim)), keepdims=True).astype(x.dtype)]


# ---- the socsim domain: operators the fusion passes create ------------------------------------

@evaluator("SiLU")
def _silu(node, ins):
    x = ins[0]
    return [(x / (1 + np.exp(-x))).astype(x.dtype)]


@evaluator("GELU")
def _gelu(node, ins):
    x = ins[0]
    erf = np.vectorize(math.erf, otypes=[np.float64])(x.astype(np.float64) / math.sqrt(2))
    return [(0.5 * x * (1 + erf)).astype(x.dtype)]


@evaluator("GLU")
def _glu(node, ins):
    a, b = np.split(ins[0], 2, axis=node.attrs.get("axis", -1))
    return [(a / (1 + np.exp(-b))).astype(ins[0].dtype)]


# ---- running nodes and graphs -----------------------------------------------------------------

def can_evaluate(node: OnnxOp) -> bool:
    return node.op_type in EVALUATORS


def evaluate(node: OnnxOp, inputs: List) -> List[np.ndarray]:
    """The outputs of one node (inputs in order, None for omitted ones). Overflow and
    division by zero give inf and nan, as in ONNX runtimes."""
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        return [np.asarray(o) for o in EVALUATORS[node.op_type](node, inputs)]


def run_graph(g: OnnxGraph, feeds: Dict[str, np.ndarray]) -> List[np.ndarray]:
    """Runs a whole graph (nodes in order) on `feeds`; returns the graph outputs."""
    values = dict(g.consts)
    values.update(feeds)
    for node in g.nodes:
        ins = [values[i] if i else None for i in node.inputs]
        for name, v in zip(node.outputs, evaluate(node, ins)):
            values[name] = v
    return [values[o] for o in g.outputs]
