"""The ranks of an ONNX graph's values as far as a cheap pass can tell them before shape
inference (docs/compiler.md, "Validation").

ONNX 1.12's shape inference (C++) trusts the ranks of a node's inputs: a convolution whose
weights have more axes than its data input reads the data's axes past their end (SIGSEGV).
Validation cannot leave the question to inference, so `value_ranks(graph)` walks the sorted
nodes once and gives the rank of every value whose rank follows from the ranks of its
inputs and from constant attributes or inputs, for the operators the compiler reads; a value
it cannot tell (an operator not listed, a shape computed at run time) is absent, never
guessed. Ranks come from the initializers, the graph inputs' declared shapes and Constant
nodes, then from the rules below (ONNX's operator specifications, opsets 11 to 17).
"""

from typing import Dict, List, Optional

# The output has the rank of input 0 (elementwise, normalisation, windows, reorderings).
SAME_RANK = frozenset((
    "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "AveragePool",
    "BatchNormalization", "Cast", "CastLike", "Ceil", "Celu", "Clip", "Conv", "ConvInteger",
    "ConvTranspose", "Cos", "Cosh", "CumSum", "DepthToSpace", "DequantizeLinear", "Dropout",
    "Elu", "Erf", "Exp", "Floor", "GlobalAveragePool", "GlobalLpPool", "GlobalMaxPool",
    "HardSigmoid", "HardSwish", "Hardmax", "Identity", "InstanceNormalization", "IsInf",
    "IsNaN", "LayerNormalization", "LeakyRelu", "Log", "LogSoftmax", "LpNormalization",
    "LpPool", "LRN", "MaxPool", "Neg", "Not", "Pad", "PRelu", "QLinearConv",
    "QuantizeLinear", "Reciprocal", "Relu", "Resize", "Round", "Selu", "Shrink", "Sigmoid",
    "Sign", "Sin", "Sinh", "Slice", "Softmax", "Softplus", "Softsign", "SpaceToDepth", "Sqrt",
    "Tan", "Tanh", "ThresholdedRelu", "Tile", "Transpose", "Trilu", "Upsample"))
# The output has the largest rank of the inputs (multidirectional broadcasting).
BROADCAST = frozenset((
    "Add", "And", "BitShift", "Div", "Equal", "Greater", "GreaterOrEqual", "Less",
    "LessOrEqual", "Max", "Mean", "Min", "Mod", "Mul", "Or", "Pow", "Sub", "Sum", "Where",
    "Xor"))
REDUCE = frozenset((
    "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean",
    "ReduceMin", "ReduceProd", "ReduceSum", "ReduceSumSquare", "ArgMax", "ArgMin"))


def _attribute(node, name):
    from onnx import helper
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return None


def _constants(graph) -> Dict[str, list]:
    """Small integer constants (initializers and Constant nodes of at most 64 values) by
    name: the axes, shapes and repeats a rank rule reads."""
    from onnx import numpy_helper
    tensors = [(t.name, t) for t in graph.initializer]
    for n in graph.node:
        if n.op_type == "Constant" and n.domain in ("", "ai.onnx") and n.output:
            tensors += [(n.output[0], a.t) for a in n.attribute
                        if a.name == "value" and a.HasField("t")]
    values = {}
    for name, t in tensors:
        count = 1
        for d in t.dims:
            count *= d
        if count <= 64 and t.data_type in (6, 7):  # int32, int64
            try:
                values[name] = [int(v) for v in numpy_helper.to_array(t).reshape(-1)]
            except Exception:  # noqa: BLE001 - validation names an unreadable tensor
                pass
    return values


def _length(name: str, consts: Dict[str, list], dims: Dict[str, list]) -> Optional[int]:
    """The number of values of a 1-d value (a shape, axes), if known."""
    if name in consts:
        return len(consts[name])
    shape = dims.get(name)
    return shape[0] if shape is not None and len(shape) == 1 else None


def _output_rank(node, ins: List[Optional[int]], consts: Dict[str, list],
                 dims: Dict[str, list], opset: int) -> Optional[int]:
    op = node.op_type
    x = ins[0] if ins else None
    if op in SAME_RANK or op in ("Split", "TopK", "ScatterElements", "ScatterND", "Scatter",
                                 "ReverseSequence", "RandomNormalLike", "RandomUniformLike",
                                 "Bernoulli"):
        return x
    if op == "GatherElements":
        return ins[1] if len(ins) > 1 else None
    if op == "Range":
        return 1
    if op in ("NonZero", "EyeLike"):
        return 2
    if op == "OneHot":
        return x + 1 if x is not None else None
    if op == "ConstantOfShape":
        return _length(node.input[0], consts, dims) if node.input else None
    if op in BROADCAST:
        known = [r for r in ins if r is not None]
        return max(known) if known and len(known) == len([i for i in node.input if i]) \
            else None
    if op in ("Flatten", "Gemm"):
        return 2
    if op == "Shape":
        return 1
    if op == "Size":
        return 0
    if op == "Gather" and x is not None and len(ins) > 1 and ins[1] is not None:
        return x - 1 + ins[1] if x >= 1 else None
    if op == "MatMul" and len(ins) > 1 and None not in ins[:2]:
        a, b = ins[0], ins[1]
        if a == 0 or b == 0:
            return None
        return 0 if a == b == 1 else b - 1 if a == 1 else a - 1 if b == 1 else max(a, b)
    if op == "Concat":
        known = [r for r in ins if r is not None]
        return known[0] if known else None
    if op == "Reshape" and len(node.input) > 1:
        return _length(node.input[1], consts, dims)
    if op == "Expand" and x is not None and len(node.input) > 1:
        length = _length(node.input[1], consts, dims)
        return max(x, length) if length is not None else None
    if op in ("Squeeze", "Unsqueeze") and x is not None:
        axes = _attribute(node, "axes")
        if axes is None and opset >= 13 and len(node.input) > 1 and node.input[1]:
            axes = consts.get(node.input[1])
            if axes is None:
                return None
        if axes is None:  # Squeeze without axes: every axis of size 1, if all are known
            shape = dims.get(node.input[0])
            return None if op == "Unsqueeze" or shape is None or None in shape else \
                sum(1 for d in shape if d != 1)
        count = len(set(axes))
        return x - count if op == "Squeeze" else x + count
    if op in REDUCE and x is not None:
        keep = _attribute(node, "keepdims")
        if keep is None or keep == 1:
            return x
        if op in ("ArgMax", "ArgMin"):
            return x - 1
        axes = _attribute(node, "axes")
        if axes is None and len(node.input) > 1 and node.input[1]:
            axes = consts.get(node.input[1])
            if axes is None:
                return None
        if not axes:
            return x if _attribute(node, "noop_with_empty_axes") == 1 else 0
        return x - len(set(axes))
    return None


# Elementwise operators of one input: the output has the input's shape.
SAME_SHAPE = frozenset((
    "Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cast", "Ceil", "Celu", "Clip",
    "Cos", "Cosh", "Dropout", "Elu", "Erf", "Exp", "Floor", "HardSigmoid", "HardSwish",
    "Identity", "IsInf", "IsNaN", "LeakyRelu", "Log", "Neg", "Not", "Reciprocal", "Relu",
    "Round", "Selu", "Shrink", "Sigmoid", "Sign", "Sin", "Sinh", "Softplus", "Softsign", "Sqrt",
    "Tan", "Tanh", "ThresholdedRelu"))


def _output_dims(node, ranks: Dict[str, int], consts: Dict[str, list],
                 dims: Dict[str, list]) -> Optional[list]:
    """The dimensions (an int, or None where unknown) of the node's first output, for the
    few operators that carry the length of a shape to the operator reading it."""
    op, ins = node.op_type, list(node.input)
    if op in SAME_SHAPE and ins and ins[0] in dims:
        return dims[ins[0]]
    if op == "Shape" and ins and ins[0] in ranks:
        rank = ranks[ins[0]]
        start, end = _attribute(node, "start"), _attribute(node, "end")
        start = 0 if start is None else start + rank if start < 0 else start
        end = rank if end is None else end + rank if end < 0 else end
        return [max(0, min(end, rank) - min(max(start, 0), rank))]
    if op == "Concat" and ins and all(dims.get(i) is not None and len(dims[i]) == 1
                                      for i in ins):
        lengths = [dims[i][0] for i in ins]
        return [None if None in lengths else sum(lengths)]
    if op == "Gather" and len(ins) > 1 and ins[0] in dims and ins[1] in dims:
        data, axis = dims[ins[0]], _attribute(node, "axis") or 0
        axis = axis + len(data) if axis < 0 else axis
        if 0 <= axis < len(data):
            return data[:axis] + dims[ins[1]] + data[axis + 1:]
    return None


def value_ranks(graph, opset: int) -> Dict[str, int]:
    """The rank of every value of `graph` (an onnx.GraphProto whose nodes are sorted) that
    this pass can tell; a negative result (a contradiction inference would find) is left out.
    A node output whose rank no rule gives has the rank its value_info (or graph output)
    declares, if any: inference starts from the declared types."""
    def declared(values):
        found = {}
        for vi in values:
            t = vi.type.tensor_type
            if vi.type.HasField("tensor_type") and t.HasField("shape"):
                found.setdefault(vi.name, [d.dim_value if d.HasField("dim_value") else None
                                           for d in t.shape.dim])
        return found
    dims: Dict[str, list] = {t.name: list(t.dims) for t in graph.initializer}
    for name, shape in declared(graph.input).items():
        dims.setdefault(name, shape)
    stated = declared(list(graph.value_info) + list(graph.output))
    ranks: Dict[str, int] = {name: len(shape) for name, shape in dims.items()}
    consts = _constants(graph)
    for n in graph.node:
        ours = n.domain in ("", "ai.onnx")
        if ours and n.op_type == "Constant" and n.output:
            for a in n.attribute:
                if a.name == "value" and a.HasField("t"):
                    dims[n.output[0]] = list(a.t.dims)
                elif a.name in ("value_int", "value_float", "value_ints", "value_floats"):
                    dims[n.output[0]] = [len(a.ints) if a.name == "value_ints" else
                                         len(a.floats)] if a.name.endswith("s") else []
            if n.output[0] in dims:
                ranks[n.output[0]] = len(dims[n.output[0]])
            continue
        rank = _output_rank(n, [ranks.get(i) if i else None for i in n.input], consts, dims,
                            opset) if ours else None
        shape = _output_dims(n, ranks, consts, dims) if ours else None
        if shape is not None:
            rank = len(shape)
        outputs = n.output if n.op_type == "Split" else n.output[:1]
        for o in n.output:
            if o and o in outputs and rank is not None and rank >= 0:
                ranks[o] = rank
                if shape is not None:
                    dims[o] = shape
            elif o and o in stated:
                ranks[o] = len(stated[o])
                dims[o] = stated[o]
    return ranks
