"""Which nodes of an edge program socsim's NPU takes, and the description of a partition.

`npu_nodes(ep)` picks the quantised operators the NPU runs: a supported operator (table
_ONNX below) whose tensor inputs are dequantised int8 values (or constants, or the result of
another picked operator it is fused with, such as a convolution's ReLU) and whose result is
quantised again; the dequantize nodes that read a quantize node or an int8 constant; the
quantize nodes of picked operators. The quantize of a model input and the dequantize of a
model output stay outside, so a partition's call passes int8 tensors in and out, as the NPU
delegate of socsim's compiler does.

`describe(ep)` writes the graph of a partition (the edge program ExecuTorch hands to
preprocess) as the ONNX nodes it denotes in QDQ form, with its constants: lower_npu.py
(Debian's Python) builds the ONNX graph from it and runs socsim's compiler.
"""

import json
from typing import Dict, List, Set

import numpy as np
import torch

Q = "quantized_decomposed.quantize_per_tensor.default"
DQ = "quantized_decomposed.dequantize_per_tensor.default"
DQ_CHANNEL = "quantized_decomposed.dequantize_per_channel.default"

# Edge operators the NPU runs (with their quantize/dequantize), by the ONNX node they become.
_ONNX = {
    "aten.convolution.default": "Conv",
    "aten.addmm.default": "Gemm",
    "aten.mm.default": "Gemm",
    "aten.add.Tensor": "Add",
    "aten.mul.Tensor": "Mul",
    "aten.relu.default": "Relu",
    "aten.hardtanh.default": "Clip",
    "aten.max_pool2d_with_indices.default": "MaxPool",
    "aten.avg_pool2d.default": "AveragePool",
    "aten.mean.dim": "GlobalAveragePool",
    "aten.view_copy.default": "Reshape",
    "aten.permute_copy.default": "Transpose",
}


class PartitionError(ValueError):
    """A partition this package cannot describe; the message names the node."""


def op_name(node) -> str:
    return getattr(node.target, "__name__", str(node.target))


def _is_constant(ep, node) -> bool:
    sig = ep.graph_signature
    return node.op == "placeholder" and (
        node.name in sig.inputs_to_parameters or node.name in sig.inputs_to_buffers or
        node.name in sig.inputs_to_lifted_tensor_constants)


def constant_value(ep, node) -> np.ndarray:
    sig = ep.graph_signature
    for table, store in ((sig.inputs_to_parameters, ep.state_dict),
                         (sig.inputs_to_buffers, ep.state_dict),
                         (sig.inputs_to_lifted_tensor_constants, ep.constants)):
        if node.name in table:
            return store[table[node.name]].detach().contiguous().numpy()
    raise PartitionError(f"node '{node.name}' is not a constant")


def _compute(node) -> bool:
    if node.op != "call_function":
        return False
    name = op_name(node)
    if name == "getitem":  # max_pool2d_with_indices' values (index 0)
        return node.args[1] == 0 and op_name(node.args[0]) in _ONNX
    return name in _ONNX and name != "aten.max_pool2d_with_indices.default" or \
        name == "aten.max_pool2d_with_indices.default" and \
        all(op_name(u) == "getitem" and u.args[1] == 0 for u in node.users)


def npu_nodes(ep) -> Set[torch.fx.Node]:
    """The nodes socsim's NPU takes (see the module's text)."""
    nodes = [n for n in ep.graph.nodes if n.op == "call_function"]
    picked = {n for n in nodes if _compute(n) or op_name(n) in (Q, DQ, DQ_CHANNEL)}
    changed = True
    while changed:
        changed = False
        for n in list(picked):
            name = op_name(n)
            inputs = [a for a in n.args if isinstance(a, torch.fx.Node)]
            if name == Q:
                keep = inputs[0] in picked and op_name(inputs[0]) not in (Q, DQ, DQ_CHANNEL)
            elif name in (DQ, DQ_CHANNEL):
                x = inputs[0]
                keep = (op_name(x) == Q if x.op == "call_function" else _is_constant(ep, x)) \
                    and all(u in picked for u in n.users)
            else:
                keep = all(a in picked or _is_constant(ep, a) for a in inputs) and \
                    all(u in picked for u in n.users)
            if not keep:
                picked.discard(n)
                changed = True
    return picked


# ---- the description of a partition ------------------------------------------------------------

class _Writer:
    def __init__(self, ep):
        self.ep = ep
        self.nodes: List[dict] = []
        self.arrays: Dict[str, np.ndarray] = {}
        self.alias: Dict[str, str] = {}

    def name(self, node) -> str:
        return self.alias.get(node.name, node.name)

    def const(self, stem: str, value) -> str:
        name = f"{stem}__{len(self.arrays)}"
        self.arrays[name] = np.asarray(value)
        return name

    def add(self, op_type, node, inputs, **attrs):
        self.nodes.append(dict(op_type=op_type, name=node.name, inputs=inputs,
                               outputs=[node.name], attrs=attrs))


def _ints(v) -> List[int]:
    return [int(x) for x in v]


def _pair(v, default) -> List[int]:
    v = _ints(v) if v else list(default)
    return v * 2 if len(v) == 1 else v


def describe(ep) -> (dict, Dict[str, np.ndarray]):
    """(description, constants) of a partition's edge program (lower_npu.py reads them)."""
    w = _Writer(ep)
    inputs, input_quant = [], []
    for node in ep.graph.nodes:
        if node.op == "placeholder":
            if _is_constant(ep, node):
                value = constant_value(ep, node)
                w.arrays[node.name] = value.astype(np.int8) if value.dtype == np.int8 else value
                continue
            users = [u for u in node.users if op_name(u) == DQ]
            if len(users) != len(node.users) or not users:
                raise PartitionError(f"input '{node.name}' is not read through dequantize")
            dq = users[0]
            inputs.append(dict(name=node.name, shape=list(node.meta["val"].shape)))
            input_quant.append([float(dq.args[1]), int(dq.args[2])])
        elif node.op == "call_function":
            _node(w, node)
    outputs, output_quant = [], []
    out_node = next(n for n in ep.graph.nodes if n.op == "output")
    for value in out_node.args[0]:
        if op_name(value) != Q:
            raise PartitionError(f"output '{value.name}' is not quantised")
        outputs.append(w.name(value))
        output_quant.append([float(value.args[1]), int(value.args[2])])
    description = dict(inputs=inputs, input_quant=input_quant, outputs=outputs,
                       output_quant=output_quant, nodes=w.nodes)
    return description, w.arrays


def _node(w: _Writer, node):
    name = op_name(node)
    a = node.args
    x = w.name(a[0]) if isinstance(a[0], torch.fx.Node) else None
    if name in (Q, DQ):
        s = w.const("scale", np.float32(a[1]))
        z = w.const("zero_point", np.int8(a[2]))
        w.add("QuantizeLinear" if name == Q else "DequantizeLinear", node, [x, s, z])
    elif name == DQ_CHANNEL:
        scales = constant_value(w.ep, a[1]).astype(np.float32)
        zps = constant_value(w.ep, a[2]).astype(np.int8) if a[2] is not None else \
            np.zeros_like(scales, np.int8)
        w.add("DequantizeLinear", node, [x, w.const("scales", scales), w.const("zps", zps)],
              axis=int(a[3]))
    elif name == "aten.convolution.default":
        if a[6]:
            raise PartitionError(f"node '{node.name}': transposed convolution")
        weight = a[1].meta["val"]
        ins = [x, w.name(a[1])] + ([w.name(a[2])] if a[2] is not None else [])
        pad = _pair(a[4], (0, 0))
        w.add("Conv", node, ins, strides=_pair(a[3], (1, 1)), pads=pad + pad,
              dilations=_pair(a[5], (1, 1)), group=int(a[8]),
              kernel_shape=list(weight.shape[2:]))
    elif name in ("aten.addmm.default", "aten.mm.default"):
        bias, x_in, wt = (a[0], a[1], a[2]) if name == "aten.addmm.default" else (None, a[0], a[1])
        trans = 0
        if op_name(wt) == "aten.permute_copy.default" and _ints(wt.args[1]) == [1, 0]:
            wt, trans = wt.args[0], 1
        ins = [w.name(x_in), w.name(wt)] + ([w.name(bias)] if bias is not None else [])
        w.add("Gemm", node, ins, transB=trans)
    elif name == "aten.permute_copy.default":
        if all(op_name(u) in ("aten.addmm.default", "aten.mm.default") for u in node.users):
            return  # read as Gemm's transB
        w.add("Transpose", node, [x], perm=_ints(a[1]))
    elif name in ("aten.add.Tensor", "aten.mul.Tensor"):
        if len(a) > 2 and a[2] != 1 or node.kwargs.get("alpha", 1) != 1:
            raise PartitionError(f"node '{node.name}': add with alpha != 1")
        w.add("Add" if name == "aten.add.Tensor" else "Mul", node, [x, w.name(a[1])])
    elif name == "aten.relu.default":
        users = list(node.users)
        if op_name(a[0]) in ("aten.add.Tensor", "aten.mul.Tensor") and len(users) == 1 and \
                op_name(users[0]) == Q and int(users[0].args[2]) == 0:
            # add/mul then ReLU, quantised once after the ReLU: with zero point 0 quantising
            # before the ReLU gives the same integers, so the add's result gets the ReLU's
            # quantisation (the compiler fuses the ReLU into the add's output stage instead
            # of calibrating the add's result and requantising it).
            s = w.const("scale", np.float32(users[0].args[1]))
            z = w.const("zero_point", np.int8(0))
            w.nodes.append(dict(op_type="QuantizeLinear", name=node.name + "__q",
                                inputs=[x, s, z], outputs=[x + "__q"], attrs={}))
            w.nodes.append(dict(op_type="DequantizeLinear", name=node.name + "__dq",
                                inputs=[x + "__q", s, z], outputs=[x + "__dq"], attrs={}))
            x = x + "__dq"
        w.add("Relu", node, [x])
    elif name == "aten.hardtanh.default":
        lo = a[1] if len(a) > 1 else -1.0
        hi = a[2] if len(a) > 2 else 1.0
        w.add("Clip", node, [x, w.const("min", np.float32(lo)), w.const("max", np.float32(hi))])
    elif name == "aten.max_pool2d_with_indices.default":
        kernel = _pair(a[1], ())
        pad = _pair(a[3] if len(a) > 3 else [0], (0, 0))
        w.add("MaxPool", node, [x], kernel_shape=kernel,
              strides=_pair(a[2] if len(a) > 2 else [], kernel), pads=pad + pad,
              dilations=_pair(a[4] if len(a) > 4 else [1], (1, 1)),
              ceil_mode=int(bool(a[5]) if len(a) > 5 else 0))
    elif name == "getitem":
        w.alias[node.name] = w.name(a[0])
    elif name == "aten.avg_pool2d.default":
        kernel = _pair(a[1], ())
        pad = _pair(a[3] if len(a) > 3 else [0], (0, 0))
        w.add("AveragePool", node, [x], kernel_shape=kernel,
              strides=_pair(a[2] if len(a) > 2 else [], kernel), pads=pad + pad,
              ceil_mode=int(bool(a[4]) if len(a) > 4 else 0),
              count_include_pad=int(bool(a[5]) if len(a) > 5 else 1))
    elif name == "aten.mean.dim":
        rank = len(a[0].meta["val"].shape)
        dims = sorted(d % rank for d in _ints(a[1]))
        keep = bool(a[2]) if len(a) > 2 else False
        if rank == 4 and dims == [2, 3] and keep:
            w.add("GlobalAveragePool", node, [x])
        else:
            w.add("ReduceMean", node, [x], axes=dims, keepdims=int(keep))
    elif name == "aten.view_copy.default":
        w.add("Reshape", node, [x, w.const("shape", np.array(_ints(a[1]), np.int64))])
    else:
        raise PartitionError(f"node '{node.name}': operator {name} is not an NPU operator")


def write(path: str, description: dict, arrays: Dict[str, np.ndarray]):
    blob = np.frombuffer(json.dumps(description).encode(), np.uint8)
    np.savez(path, __description__=blob, **arrays)
