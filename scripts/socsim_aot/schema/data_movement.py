"""Operators that only move bytes: reshape, transpose (permute), concatenation.

Quantised, reshape and transpose keep the input's quantisation; concatenation requantises
every input to the output's scale first (the compiler inserts requantize operators).
"""

import numpy as np

from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.core import Arg, Operand, Operator, register


def _lower_reshape(n):
    out = n.output()
    x = n.g.value(n.inputs[0])
    if x.const is not None:  # folded: the compiler keeps the reshaped constant
        n.g.add_const(n.outputs[0], x.const.reshape(out.shape))
        return
    n.emit(VIEW_COPY.name, n.inputs[:1])


def _lower_transpose(n):
    x = n.g.value(n.inputs[0])
    if x.const is not None:
        n.g.add_const(n.outputs[0], np.transpose(x.const, n.attrs.get("perm"))
                      .reshape(n.output().shape))
        return
    n.emit(PERMUTE_COPY.name, n.inputs[:1], perm=list(n.attrs["perm"]))


def _lower_concat(n):
    rank = len(n.output().shape)
    n.emit(CAT.name, n.inputs, axis=int(n.attrs["axis"]) % rank)


def _quantize_concat(q, node):
    y = q.g.values[node.outputs[0]]
    node.inputs = [q.requantized(name, y.scale, node.where) for name in node.inputs]
    node.inputs = [q.constant(i) for i in node.inputs]


VIEW_COPY, PERMUTE_COPY, CAT = register(
    Operator("aten::view_copy.out", "view_copy", "the same bytes under a new shape",
             inputs=(Operand("x"),), dtypes=("float32", "int8", "int32"), kernel="reshape",
             onnx=("Reshape", "Flatten", "Squeeze", "Unsqueeze"), lower=_lower_reshape,
             quantize=same_scale, reference=lambda ins, a, out: ins[0].reshape(out.shape)),
    Operator("aten::permute_copy.out", "permute_copy", "out.shape[i] = x.shape[perm[i]]",
             inputs=(Operand("x"),), args=(Arg("perm", "int32[]", "one entry per axis"),),
             dtypes=("float32", "int8"), kernel="transpose", onnx=("Transpose",),
             lower=_lower_transpose, quantize=same_scale,
             arg_values=lambda g, node: dict(perm=node.attrs["perm"]),
             reference=lambda ins, a, out: np.ascontiguousarray(np.transpose(ins[0], a.perm))),
    Operator("aten::cat.out", "cat", "concatenation along one axis",
             inputs=(Operand("x", variadic=True),), args=(Arg("axis"),),
             dtypes=("float32", "int8"), kernel="concat", onnx=("Concat",), lower=_lower_concat,
             quantize=_quantize_concat, arg_values=lambda g, node: dict(axis=node.attrs["axis"]),
             reference=lambda ins, a, out: np.concatenate(ins, axis=a.axis)))
