"""ONNX -> socsim program file.

Pipeline: read the ONNX graph into a small IR of runtime operators (constant inputs folded,
Conv/Gemm followed by Relu/Clip fused), optionally quantise it to int8 (per-tensor symmetric
activations calibrated on sample inputs, per-channel symmetric weights, int32 biases,
fixed-point requantisation), optionally move operators to a delegate backend, plan memory
(tensor lifetimes, best-fit offsets in one planned buffer) and write the program file
(docs/program-format.md). The arithmetic is described in docs/runtime.md.
"""

import argparse
import dataclasses
import math
import struct
import sys
from typing import Dict, List, Optional

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import program_format as pf
from socsim_aot import reference

INF = float("inf")


class CompileError(Exception):
    """A model the compiler cannot translate; the message names the node and operator."""


@dataclasses.dataclass
class Value:
    name: str
    shape: List[int]
    dtype: np.dtype
    const: Optional[np.ndarray] = None
    scale: float = 0.0  # int8 activations: per-tensor scale (zero point is 0: symmetric)
    zero_point: int = 0
    channel_scales: Optional[np.ndarray] = None  # int8 weights: per output channel


@dataclasses.dataclass
class Node:
    op: str  # runtime operator name
    inputs: List[str]
    outputs: List[str]
    attrs: dict
    where: str  # "node 'NAME' (op TYPE)" for messages


SUPPORTED_ONNX = ("Add", "Sub", "Mul", "Relu", "Clip", "Conv", "Gemm", "MatMul", "MaxPool",
                  "AveragePool", "GlobalAveragePool", "Softmax", "Reshape", "Flatten",
                  "Squeeze", "Unsqueeze", "Transpose", "Concat", "Identity", "Dropout",
                  "Constant", "BatchNormalization")


class Graph:
    def __init__(self):
        self.values: Dict[str, Value] = {}
        self.nodes: List[Node] = []
        self.inputs: List[str] = []
        self.outputs: List[str] = []
        self.alias: Dict[str, str] = {}
        self.use_count: Dict[str, int] = {}  # ONNX consumers of each value

    def resolve(self, name):
        while name in self.alias:
            name = self.alias[name]
        return name

    def value(self, name) -> Value:
        return self.values[self.resolve(name)]

    def add_const(self, name, array):
        array = np.ascontiguousarray(array)
        self.values[name] = Value(name, list(array.shape), array.dtype, const=array)
        return name

    def consumers(self, name):
        return [n for n in self.nodes if name in n.inputs]


# ---- ONNX import ---------------------------------------------------------------------------

def _attrs(node):
    import onnx
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _np_dtype(elem_type, where):
    import onnx
    mapping = {onnx.TensorProto.FLOAT: np.float32, onnx.TensorProto.INT8: np.int8,
               onnx.TensorProto.INT32: np.int32, onnx.TensorProto.INT64: np.int64,
               onnx.TensorProto.UINT8: np.uint8}
    if elem_type not in mapping:
        raise CompileError(f"{where}: element type {elem_type} is not supported")
    return np.dtype(mapping[elem_type])


def _shape_of(vi, where):
    dims = []
    for d in vi.type.tensor_type.shape.dim:
        if not d.HasField("dim_value"):
            raise CompileError(f"{where}: value '{vi.name}' has a dynamic dimension; export "
                               "with fixed shapes")
        dims.append(int(d.dim_value))
    return dims


def load_onnx(path) -> Graph:
    """Reads an ONNX file into the IR (float32 or plain-int8 graphs)."""
    import onnx
    from onnx import numpy_helper
    try:
        model = onnx.load(path)
        model = onnx.shape_inference.infer_shapes(model)
    except Exception as e:  # protobuf decode errors and shape inference failures
        raise CompileError(f"cannot read ONNX model: {e}") from None
    g = Graph()
    onnx_graph = model.graph
    for init in onnx_graph.initializer:
        g.add_const(init.name, numpy_helper.to_array(init))
    infos = {vi.name: vi for vi in list(onnx_graph.value_info) + list(onnx_graph.input) +
             list(onnx_graph.output)}
    for vi in onnx_graph.input:
        if vi.name in g.values:
            continue
        g.values[vi.name] = Value(vi.name, _shape_of(vi, "graph input"),
                                  _np_dtype(vi.type.tensor_type.elem_type, "graph input"))
        g.inputs.append(vi.name)
    g.outputs = [o.name for o in onnx_graph.output]  # resolved through aliases below
    for node in onnx_graph.node:
        for name in node.input:
            g.use_count[name] = g.use_count.get(name, 0) + 1
    for index, node in enumerate(onnx_graph.node):
        where = f"node '{node.name or index}' (op {node.op_type})"
        if node.op_type not in SUPPORTED_ONNX:
            raise CompileError(f"{where}: operator not supported (supported: "
                               f"{', '.join(SUPPORTED_ONNX)})")
        for out in node.output:
            if out in infos and out not in g.values:
                vi = infos[out]
                g.values[out] = Value(out, _shape_of(vi, where),
                                      _np_dtype(vi.type.tensor_type.elem_type, where))
        _import_node(g, node, _attrs(node), where)
    g.outputs = [g.resolve(o.name) for o in onnx_graph.output]
    return g


def _const(g, name, where, what):
    v = g.value(name)
    if v.const is None:
        raise CompileError(f"{where}: {what} must be a constant")
    return v.const


def _import_node(g: Graph, node, a, where):
    op = node.op_type
    ins = [g.resolve(i) for i in node.input]
    outs = list(node.output)

    def emit(ir_op, inputs, **attrs):
        g.nodes.append(Node(ir_op, inputs, outs[:1], attrs, where))

    if op == "Constant":
        if "value" not in a:
            raise CompileError(f"{where}: only tensor-valued Constant is supported")
        from onnx import numpy_helper
        g.add_const(outs[0], numpy_helper.to_array(a["value"]))
        return
    if op in ("Identity", "Dropout"):
        g.alias[outs[0]] = ins[0]
        return
    # Fold nodes whose inputs are all constants with the reference executor's semantics.
    if all(g.value(i).const is not None for i in ins if i) and op in (
            "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose"):
        out = g.values[outs[0]]
        data = g.value(ins[0]).const
        if op == "Transpose":
            data = np.transpose(data, a.get("perm"))
        g.add_const(outs[0], data.reshape(out.shape))
        return
    if op in ("Add", "Sub", "Mul"):
        emit(op.lower(), ins[:2])
    elif op == "Relu":
        emit("relu", ins[:1])
    elif op == "Clip":
        lo, hi = a.get("min", -INF), a.get("max", INF)
        if len(ins) > 1 and ins[1]:
            lo = float(_const(g, ins[1], where, "min"))
        if len(ins) > 2 and ins[2]:
            hi = float(_const(g, ins[2], where, "max"))
        emit("clip", ins[:1], lo=lo, hi=hi)
    elif op == "Conv":
        if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            raise CompileError(f"{where}: auto_pad is not supported; export explicit pads")
        w = _const(g, ins[1], where, "the weight")
        if w.ndim != 4:
            raise CompileError(f"{where}: only 2-D convolution is supported")
        if len(ins) < 3 or not ins[2]:
            ins = ins[:2] + [g.add_const(outs[0] + "::bias", np.zeros(w.shape[0], np.float32))]
        pads = list(a.get("pads", [0, 0, 0, 0]))
        emit("conv2d", ins[:3], stride=list(a.get("strides", [1, 1])), pads=pads,
             dilation=list(a.get("dilations", [1, 1])), groups=int(a.get("group", 1)),
             lo=-INF, hi=INF)
    elif op in ("Gemm", "MatMul"):
        w = _const(g, ins[1], where, "the weight (B)")
        if op == "Gemm":
            if a.get("transA", 0) or a.get("alpha", 1.0) != 1.0 or a.get("beta", 1.0) != 1.0:
                raise CompileError(f"{where}: only Gemm with alpha=beta=1, transA=0")
            if not a.get("transB", 0):
                w = w.T
        else:
            if w.ndim != 2:
                raise CompileError(f"{where}: MatMul needs a 2-D constant right operand")
            w = w.T
        wname = g.add_const(outs[0] + "::weight", np.ascontiguousarray(w, np.float32))
        if op == "Gemm" and len(ins) > 2 and ins[2]:
            b = _const(g, ins[2], where, "the bias (C)").reshape(-1)
            if b.size == 1:
                b = np.full(w.shape[0], b[0], np.float32)
        else:
            b = np.zeros(w.shape[0], np.float32)
        bname = g.add_const(outs[0] + "::bias", b.astype(np.float32))
        emit("linear", [ins[0], wname, bname], lo=-INF, hi=INF)
    elif op in ("MaxPool", "AveragePool"):
        if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
            raise CompileError(f"{where}: auto_pad is not supported; export explicit pads")
        if any(d != 1 for d in a.get("dilations", [1, 1])):
            raise CompileError(f"{where}: dilated pooling is not supported")
        kernel = list(a["kernel_shape"])
        if len(kernel) != 2:
            raise CompileError(f"{where}: only 2-D pooling is supported")
        attrs = dict(kernel=kernel, stride=list(a.get("strides", [1, 1])),
                     pads=list(a.get("pads", [0, 0, 0, 0])), ceil=int(a.get("ceil_mode", 0)))
        if op == "AveragePool":
            attrs["include_pad"] = int(a.get("count_include_pad", 0))
        emit("max_pool2d" if op == "MaxPool" else "avg_pool2d", ins[:1], **attrs)
    elif op == "GlobalAveragePool":
        emit("global_avg_pool2d", ins[:1])
    elif op == "Softmax":
        rank = len(g.value(ins[0]).shape)
        axis = a.get("axis", -1)
        if axis % rank != rank - 1:
            raise CompileError(f"{where}: softmax is supported over the last axis only")
        emit("softmax", ins[:1])
    elif op in ("Reshape", "Flatten", "Squeeze", "Unsqueeze"):
        emit("reshape", ins[:1])
    elif op == "Transpose":
        emit("transpose", ins[:1], perm=list(a["perm"]))
    elif op == "Concat":
        rank = len(g.values[outs[0]].shape)
        emit("concat", ins, axis=int(a["axis"]) % rank)
    elif op == "BatchNormalization":
        _fold_batch_norm(g, ins, outs, a, where)


def _fold_batch_norm(g, ins, outs, a, where):
    producer = [n for n in g.nodes if n.outputs[0] == ins[0] and n.op == "conv2d"]
    if not producer or g.use_count.get(ins[0], 0) != 1 or ins[0] in g.outputs:
        raise CompileError(f"{where}: BatchNormalization is supported only right after a Conv")
    conv = producer[0]
    scale, bias, mean, var = (_const(g, i, where, "BN parameters") for i in ins[1:5])
    k = scale / np.sqrt(var + a.get("epsilon", 1e-5))
    w = g.value(conv.inputs[1]).const * k[:, None, None, None]
    b = (g.value(conv.inputs[2]).const - mean) * k + bias
    conv.inputs[1] = g.add_const(outs[0] + "::weight", w.astype(np.float32))
    conv.inputs[2] = g.add_const(outs[0] + "::bias", b.astype(np.float32))
    g.alias[outs[0]] = conv.outputs[0]


# ---- graph passes --------------------------------------------------------------------------

def fuse_activations(g: Graph):
    """Conv/Linear followed by Relu or Clip (sole consumer, not an output) -> fused bounds."""
    for node in list(g.nodes):
        if node.op not in ("conv2d", "linear"):
            continue
        out = node.outputs[0]
        users = g.consumers(out)
        if len(users) != 1 or out in g.outputs or users[0].op not in ("relu", "clip"):
            continue
        act = users[0]
        lo, hi = (0.0, INF) if act.op == "relu" else (act.attrs["lo"], act.attrs["hi"])
        node.attrs["lo"] = max(node.attrs["lo"], lo)
        node.attrs["hi"] = min(node.attrs["hi"], hi)
        node.outputs = act.outputs
        g.nodes.remove(act)


def check_types(g: Graph):
    """Plain (unquantised) integer graphs support only wrapping int8 arithmetic and data
    movement; everything else must be float32."""
    for node in g.nodes:
        dtypes = {g.value(i).dtype for i in node.inputs if g.value(i).const is None}
        for dt in dtypes:
            if dt == np.float32:
                continue
            if dt == np.int8 and node.op in ("add", "sub", "mul", "reshape", "transpose",
                                             "concat", "relu", "max_pool2d"):
                continue
            raise CompileError(f"{node.where}: {node.op} on {dt} tensors is not supported "
                               "(integer graphs support int8 add/sub/mul and data movement)")


def delegate_cpu_packed(g: Graph) -> int:
    """Marks int8 wrapping adds of equal shapes for the cpu-packed backend."""
    count = 0
    for node in g.nodes:
        if node.op != "add" or g.values[node.outputs[0]].scale > 0:
            continue
        a, b, y = (g.value(n) for n in node.inputs + node.outputs)
        if a.dtype == b.dtype == y.dtype == np.int8 and a.shape == b.shape == y.shape and \
                a.const is None and b.const is None:
            node.attrs["delegate"] = "cpu-packed"
            count += 1
    return count


# ---- quantisation --------------------------------------------------------------------------

SAME_SCALE_OPS = ("relu", "max_pool2d", "reshape", "transpose", "clip")


def _scale_from_range(absmax):
    return float(absmax) / 127.0 if absmax > 0 else 1.0


def quantize_graph(g: Graph, ranges: Dict[str, float]):
    """Turns a calibrated float graph into an int8 graph with float32 inputs and outputs."""
    for name in list(g.values):
        v = g.values[name]
        if v.const is None and v.dtype == np.float32:
            v.scale = _scale_from_range(ranges.get(name, 0.0))
    new_nodes = []
    # Inputs: quantize right after entry.
    renames = {}
    for name in g.inputs:
        v = g.values[name]
        q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale)
        g.values[q.name] = q
        new_nodes.append(Node("quantize", [name], [q.name], {}, f"graph input '{name}'"))
        renames[name] = q.name
    for node in g.nodes:
        node.inputs = [renames.get(i, i) for i in node.inputs]
        x = g.values[node.inputs[0]]
        y = g.values[node.outputs[0]]
        if node.op in SAME_SCALE_OPS:
            y.scale = x.scale  # output shares the input's quantisation
        elif node.op == "softmax":
            y.scale, y.zero_point = 1.0 / 256.0, -128
            node.inputs = node.inputs[:1] + [
                g.add_const(node.outputs[0] + "::table", fx.softmax_table(x.scale))]
        elif node.op == "concat":
            fixed = []
            for i, name in enumerate(node.inputs):
                src = g.values[name]
                if src.scale != y.scale:
                    r = Value(f"{name}::rq{len(new_nodes)}", src.shape, np.dtype(np.int8),
                              scale=y.scale)
                    g.values[r.name] = r
                    new_nodes.append(Node("requantize", [name], [r.name], {}, node.where))
                    name = r.name
                fixed.append(name)
            node.inputs = fixed
        if node.op in ("add", "sub", "mul", "concat"):
            node.inputs = [_quantize_constant(g, i) for i in node.inputs]
        if node.op in ("conv2d", "linear"):
            _quantize_weights(g, node)
        if y.dtype == np.float32:
            y.dtype = np.dtype(np.int8)
        new_nodes.append(node)
    # Outputs: dequantize back to float32 under the original names.
    final_outputs = []
    for name in g.outputs:
        v = g.values[name]
        q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale,
                  zero_point=v.zero_point)
        g.values[q.name] = q
        for node in new_nodes:
            node.inputs = [q.name if i == name else i for i in node.inputs]
            node.outputs = [q.name if o == name else o for o in node.outputs]
        f = Value(name, v.shape, np.dtype(np.float32))
        g.values[name] = f
        new_nodes.append(Node("dequantize", [q.name], [name], {}, f"graph output '{name}'"))
        final_outputs.append(name)
    g.nodes = new_nodes
    g.outputs = final_outputs


def _quantize_constant(g, name):
    """A float constant operand of an elementwise op becomes a per-tensor int8 constant."""
    v = g.values[name]
    if v.const is None or v.dtype != np.float32:
        return name
    scale = _scale_from_range(np.abs(v.const).max(initial=0.0))
    qname = name + "::q8"
    g.add_const(qname, fx.quantize_f32(v.const, scale, 0))
    g.values[qname].scale = scale
    return qname


def _quantize_weights(g, node):
    x = g.values[node.inputs[0]]
    y = g.values[node.outputs[0]]
    w = g.values[node.inputs[1]].const.astype(np.float64)
    b = g.values[node.inputs[2]].const.astype(np.float64)
    absmax = np.abs(w.reshape(w.shape[0], -1)).max(axis=1)
    ws = np.where(absmax > 0, absmax / 127.0, 1.0)
    shape = (-1,) + (1,) * (w.ndim - 1)
    wq = np.clip(np.floor(w / ws.reshape(shape) + 0.5), -127, 127).astype(np.int8)
    bq = np.floor(b / (x.scale * ws) + 0.5)
    if np.any(np.abs(bq) > 2 ** 30):
        raise CompileError(f"{node.where}: quantised bias does not fit int32")
    k = int(np.prod(w.shape[1:]))
    if k * 255 * 127 + np.abs(bq).max(initial=0) >= 2 ** 31:
        raise CompileError(f"{node.where}: int32 accumulator could overflow ({k} products)")
    rq = np.array([fx.quantize_multiplier(float(x.scale * s / y.scale)) for s in ws], np.int32)
    wname, bname, rname = (node.outputs[0] + suffix for suffix in ("::wq", "::bq", "::rq"))
    g.add_const(wname, wq)
    g.values[wname].channel_scales = ws.astype(np.float32)
    g.add_const(bname, bq.astype(np.int32))
    g.add_const(rname, rq.reshape(-1, 2))
    node.inputs = [node.inputs[0], wname, bname, rname]


def _act_bounds_q(lo, hi, v):
    qlo = -128 if lo == -INF else max(-128, int(math.floor(lo / v.scale + 0.5)) + v.zero_point)
    qhi = 127 if hi == INF else min(127, int(math.floor(hi / v.scale + 0.5)) + v.zero_point)
    return qlo, qhi


# ---- lowering to program instructions ------------------------------------------------------

def _args(g: Graph, node: Node) -> List[int]:
    """The operator's argument list (docs/runtime.md, "Operators")."""
    a = node.attrs
    x = g.values[node.inputs[0]]
    y = g.values[node.outputs[0]]
    quant = y.dtype == np.int8 and y.scale > 0 and x.scale > 0 or \
        (node.op == "quantize") or (node.op == "dequantize")
    fb = pf.float_bits
    if node.op in ("add", "sub"):
        if not quant:
            return []
        b = g.values[node.inputs[1]]
        big = max(x.scale, b.scale) / y.scale
        _, n = fx.quantize_multiplier(big)
        return [x.zero_point, fx.multiplier_at_shift(x.scale / y.scale, n), b.zero_point,
                fx.multiplier_at_shift(b.scale / y.scale, n), n, y.zero_point, -128, 127]
    if node.op == "mul":
        if not quant:
            return []
        b = g.values[node.inputs[1]]
        m, n = fx.quantize_multiplier(x.scale * b.scale / y.scale)
        return [x.zero_point, b.zero_point, m, n, y.zero_point, -128, 127]
    if node.op == "relu":
        return [y.zero_point] if x.dtype == np.int8 else []
    if node.op == "clip":
        if x.dtype == np.int8:
            return list(_act_bounds_q(a["lo"], a["hi"], y))
        return [fb(a["lo"]), fb(a["hi"])]
    if node.op == "conv2d":
        pt, pl, pb, pr = a["pads"]
        geo = [a["stride"][0], a["stride"][1], pt, pl, pb, pr, a["dilation"][0],
               a["dilation"][1], a["groups"]]
        if quant:
            return geo + [x.zero_point, y.zero_point, *_act_bounds_q(a["lo"], a["hi"], y)]
        return geo + [fb(a["lo"]), fb(a["hi"])]
    if node.op == "linear":
        if quant:
            return [x.zero_point, y.zero_point, *_act_bounds_q(a["lo"], a["hi"], y)]
        return [fb(a["lo"]), fb(a["hi"])]
    if node.op in ("max_pool2d", "avg_pool2d"):
        pt, pl, pb, pr = a["pads"]
        geo = [a["kernel"][0], a["kernel"][1], a["stride"][0], a["stride"][1], pt, pl, pb, pr,
               a["ceil"]]
        if node.op == "max_pool2d":
            return geo
        if quant:
            m, n = fx.quantize_multiplier(x.scale / y.scale, bits=23, max_shift=30)
            return geo + [a["include_pad"], x.zero_point, y.zero_point, m, n]
        return geo + [a["include_pad"]]
    if node.op == "global_avg_pool2d":
        if quant:
            m, n = fx.quantize_multiplier(x.scale / y.scale, bits=23, max_shift=30)
            return [x.zero_point, y.zero_point, m, n]
        return []
    if node.op in ("softmax", "reshape"):
        return []
    if node.op == "transpose":
        return list(a["perm"])
    if node.op == "concat":
        return [a["axis"]]
    if node.op == "quantize":
        return [fb(y.scale), y.zero_point]
    if node.op == "dequantize":
        return [fb(x.scale), x.zero_point]
    if node.op == "requantize":
        m, n = fx.quantize_multiplier(x.scale / y.scale)
        return [x.zero_point, y.zero_point, m, n]
    raise CompileError(f"{node.where}: no lowering for {node.op}")


def plan_memory(sizes: Dict[int, int], lifetimes: Dict[int, tuple]):
    """Best-fit offsets for tensors whose lifetimes overlap.

    Tensors are placed largest first; each goes into the smallest gap between already
    placed tensors that are alive at the same time, or after them. Returns (offsets, size).
    """
    offsets: Dict[int, int] = {}
    order = sorted(sizes, key=lambda t: (-sizes[t], t))
    for t in order:
        size = (sizes[t] + 15) // 16 * 16
        first, last = lifetimes[t]
        busy = sorted((offsets[o], offsets[o] + (sizes[o] + 15) // 16 * 16) for o in offsets
                      if not (lifetimes[o][1] < first or last < lifetimes[o][0]))
        best, best_gap, cursor = None, None, 0
        for start, end in busy:
            gap = start - cursor
            if gap >= size and (best_gap is None or gap < best_gap):
                best, best_gap = cursor, gap
            cursor = max(cursor, end)
        offsets[t] = best if best is not None else cursor
    total = max((offsets[t] + (sizes[t] + 15) // 16 * 16 for t in offsets), default=0)
    return offsets, total


def emit_program(g: Graph) -> pf.Program:
    ids: Dict[str, int] = {}
    tensors: List[pf.Tensor] = []

    def tid(name):
        name = g.resolve(name)
        if name not in ids:
            v = g.values[name]
            t = pf.Tensor(dtype=pf.dtype_code(v.dtype), shape=list(v.shape), name=name)
            if v.const is not None:
                t.constant = v.const
            if v.channel_scales is not None:
                t.quant, t.axis, t.scales = pf.QUANT_PER_CHANNEL, 0, v.channel_scales
                t.zero_points = np.zeros(len(v.channel_scales), np.int32)
            elif v.scale > 0 and v.dtype == np.int8:
                t.quant, t.scale, t.zero_point = pf.QUANT_PER_TENSOR, v.scale, v.zero_point
            ids[name] = len(tensors)
            tensors.append(t)
        return ids[name]

    inputs = [tid(n) for n in g.inputs]
    instructions, delegates = [], []
    for node in g.nodes:
        ins = [tid(i) for i in node.inputs]
        outs = [tid(o) for o in node.outputs]
        if node.attrs.get("delegate") == "cpu-packed":
            n = int(np.prod(g.values[node.outputs[0]].shape))
            blob = struct.pack("<4sIII", b"CPK1", 1, 1, n)
            delegates.append(pf.Delegate("cpu-packed", blob))
            instructions.append(pf.Instruction("", ins, outs, [], len(delegates) - 1))
        else:
            instructions.append(pf.Instruction(node.op, ins, outs, _args(g, node)))
    outputs = [tid(n) for n in g.outputs]
    for o in outputs:
        if tensors[o].is_constant:
            raise CompileError(f"graph output '{tensors[o].name}' is a constant")
    # Lifetimes in instruction steps; inputs and outputs live for the whole program so that
    # repeated executions and reading outputs afterwards are safe.
    end = len(instructions)
    life: Dict[int, list] = {}
    for t in inputs:
        life[t] = [0, end]
    for step, ins in enumerate(instructions):
        for t in ins.inputs + ins.outputs:
            if not tensors[t].is_constant:
                span = life.setdefault(t, [step, step])
                span[0], span[1] = min(span[0], step), max(span[1], step)
    for t in outputs:
        life[t][1] = end
    offsets, total = plan_memory({t: tensors[t].nbytes for t in life},
                                 {t: tuple(v) for t, v in life.items()})
    for t, off in offsets.items():
        tensors[t].buffer, tensors[t].offset = 0, off
    return pf.Program(tensors, instructions, [total], delegates, inputs, outputs)


# ---- driver --------------------------------------------------------------------------------

def calibrate(g: Graph, samples: List[List[np.ndarray]]) -> Dict[str, float]:
    """Runs the float program on each sample and returns max |value| per IR value."""
    program = emit_program(g)
    names = {i: t.name for i, t in enumerate(program.tensors)}
    ranges: Dict[str, float] = {}
    for sample in samples:
        trace = {}
        reference.run(program, sample, trace)
        for i, value in trace.items():
            if program.tensors[i].is_constant:
                continue
            m = float(np.abs(value).max()) if value.size else 0.0
            ranges[names[i]] = max(ranges.get(names[i], 0.0), m)
    return ranges


def compile_graph(g: Graph, quantize: Optional[str] = None, samples=None,
                  delegate: Optional[str] = None) -> pf.Program:
    fuse_activations(g)
    check_types(g)
    if quantize == "int8":
        if any(g.values[i].dtype != np.float32 for i in g.inputs):
            raise CompileError("int8 quantisation needs a float32 model")
        if not samples:
            raise CompileError("int8 quantisation needs calibration samples")
        quantize_graph(g, calibrate(g, samples))
    if delegate == "cpu-packed":
        delegate_cpu_packed(g)
    elif delegate is not None:
        raise CompileError(f"unknown delegate '{delegate}' (known: cpu-packed)")
    return emit_program(g)


def random_samples(g: Graph, count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return [[rng.standard_normal(g.values[i].shape).astype(np.float32) for i in g.inputs]
            for _ in range(count)]


def operator_list(program: pf.Program) -> List[str]:
    return sorted({ins.name for ins in program.instructions if ins.name})


def compile_file(model_path, out_path, quantize=None, calibration=None, delegate=None,
                 samples_count=8, seed=0) -> pf.Program:
    g = load_onnx(model_path)
    samples = None
    if quantize == "int8":
        if calibration:
            data = np.load(calibration)
            arrays = [data[k] for k in sorted(data.files)]
            samples = [[a[i] for a in arrays] for i in range(len(arrays[0]))]
        else:
            samples = random_samples(g, samples_count, seed)
    program = compile_graph(g, quantize, samples, delegate)
    data = pf.write(program)
    pf.read(data)  # the file must verify exactly as the firmware will
    with open(out_path, "wb") as f:
        f.write(data)
    return program


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Compile an ONNX model into a socsim program file: operators lowered to "
                    "the runtime's kernels, optional int8 quantisation, optional delegation, "
                    "ahead-of-time memory plan. The file format is in docs/program-format.md, "
                    "the operators and their integer arithmetic in docs/runtime.md.",
        epilog="Examples:\n  compile_model.py add8.onnx -o add8.prog --delegate cpu-packed\n"
               "  compile_model.py net.onnx -o net_int8.prog --quantize int8 "
               "--calibration samples.npz\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", help="ONNX model with fixed input shapes")
    parser.add_argument("-o", "--output", help="program file to write")
    parser.add_argument("--quantize", choices=["int8"],
                        help="quantise a float32 model: int8 activations (per-tensor, "
                             "symmetric), int8 weights (per output channel, symmetric), "
                             "int32 biases; inputs and outputs stay float32")
    parser.add_argument("--calibration", metavar="NPZ",
                        help="calibration inputs: an .npz whose arrays (sorted by name, one "
                             "per model input) hold samples along axis 0; default: random "
                             "normal samples")
    parser.add_argument("--samples", type=int, default=8,
                        help="number of random calibration samples (default 8)")
    parser.add_argument("--delegate", choices=["cpu-packed"],
                        help="move supported operators to a delegate backend (cpu-packed: "
                             "int8 elementwise add, four bytes per word)")
    parser.add_argument("--print-ops", action="store_true",
                        help="print the operators the program needs, as a SOCSIM_KERNEL_OPS "
                             "list for a selective firmware build")
    args = parser.parse_args(argv)
    if not args.output and not args.print_ops:
        parser.error("give -o/--output and/or --print-ops")
    try:
        if args.output:
            program = compile_file(args.model, args.output, args.quantize, args.calibration,
                                   args.delegate, args.samples)
        else:
            g = load_onnx(args.model)
            samples = random_samples(g, 1) if args.quantize else None
            program = compile_graph(g, args.quantize, samples, args.delegate)
    except CompileError as e:
        print(f"compile_model: {args.model}: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"compile_model: {e}", file=sys.stderr)
        return 1
    if args.print_ops:
        print(";".join(operator_list(program)))
    if args.output:
        kernels = sum(1 for i in program.instructions if i.name)
        print(f"compile_model: wrote {args.output}: {len(program.tensors)} tensors, "
              f"{kernels} kernel calls, {len(program.delegates)} delegate calls, "
              f"planned memory {program.buffers[0]} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
