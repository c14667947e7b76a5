"""ONNX -> socsim program file.

Pipeline (docs/compiler.md): the front end reads the ONNX graph (socsim_aot/onnx_graph.py)
and runs the graph passes on it (socsim_aot/passes/: constant and shape folding, no-op
removal, BatchNormalization folding, fusions); lowering turns each node into operators of
the schema (every node that cannot be lowered is reported at once); Conv/Gemm followed by
Relu/Clip are fused; then the IR is optionally quantised to int8 (per-tensor symmetric
activations calibrated on sample inputs, per-channel symmetric weights, int32 biases,
fixed-point requantisation), optionally move operators to a delegate backend, plan memory
(tensor lifetimes, best-fit offsets in one planned buffer) and write the program file
(docs/program-format.md). The arithmetic is described in docs/runtime.md.

What is particular to an operator (which ONNX nodes lower to it, how it is quantised, its
argument values) is in its schema entry (socsim_aot/schema/); this module drives them.
"""

import argparse
import dataclasses
import functools
import os
import sys
import zipfile
from typing import Dict, List, Optional

import numpy as np

from socsim_aot import npu_partition, onnx_graph, passes
from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_aot import reference, tflite_frontend, validate
from socsim_aot import schema
from socsim_aot.ir import (INF, CompileError, Graph, Node, OnnxNode, Quantizer,  # noqa: F401
                           Value, scale_from_range)
from socsim_aot.passes import fuse_gelu, fuse_glu, fuse_silu, mask_softmax
from socsim_aot.schema import activations, conv
from socsim_schema import layouts

# Operators the fusion passes create that ONNX has no operator for (domain "socsim"), by
# the schema operator they lower to (one node, no attributes beyond the pass's).
FUSED_OPERATORS = {"SiLU": fuse_silu.SILU, "GLU": fuse_glu.GLU, "GELU": fuse_gelu.GELU,
                   "MaskedSoftmax": mask_softmax.MASKED_SOFTMAX}
# The runtime's tensors; other element types may only be constants (shapes, indices).
ACTIVATION_DTYPES = (np.float32, np.int8, np.uint8, np.int32)
DEFAULT_NPU_CONFIG = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "configs", "npu", "rk3588-like.yaml"))


# ---- front end: ONNX graph, folding, passes --------------------------------------------------

def front_end(model, options: Optional[passes.Options] = None, log=None) -> onnx_graph.OnnxGraph:
    """Reads an ONNX file (or takes an OnnxGraph) and runs the front-end passes on it:
    constant folding and shape inference, no-op removal, BatchNormalization folding, the
    graph optimisations (socsim_aot/passes/). `log` receives the compile log's lines."""
    og = onnx_graph.read(model) if isinstance(model, (str, os.PathLike)) else model
    if log:
        log(f"front end: opset {og.file_opset}, {len(og.nodes)} nodes "
            f"({_counts(onnx_graph.op_counts(og.nodes))})")
    try:
        passes.run_all(og, options or passes.Options(), log)
    except ValueError as e:
        raise CompileError(str(e)) from None
    og.infer_types()
    validate.check_graph(og)  # again: the passes made values and shapes the file had not
    if (options or passes.Options()).quantize:
        validate.check_finite(og)
    onnx_graph.normalize_softmax(og)
    if log:
        log(f"front end: {len(og.nodes)} nodes left ({_counts(onnx_graph.op_counts(og.nodes))})")
    return og


def _counts(counts: Dict[str, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


@dataclasses.dataclass
class Lowering:
    """What lowering the front end's graph gave: the IR, the schema operators each ONNX
    operator became, and every node that could not be lowered (its message)."""
    graph: Graph
    operators: Dict[str, List[str]]
    problems: List[tuple]  # (OnnxOp, message)

    def check(self):
        """Raises one CompileError that lists every node that could not be lowered."""
        if not self.problems:
            return
        lines = [f"  {message}" for _, message in self.problems]
        raise CompileError(
            f"{len(self.problems)} node(s) cannot be compiled:\n" + "\n".join(lines) +
            "\n(the runtime's operators: compile_model.py --list-operators; what the model "
            "needs: --print-ops)")


def _value(og: onnx_graph.OnnxGraph, name: str, where: str) -> Value:
    t = og.types.get(name)
    if t is None or t.shape is None:
        raise CompileError(f"{where}: the shape of value '{name}' is unknown")
    if not t.static:
        raise CompileError(f"{where}: value '{name}' has a dynamic dimension {t.shape}; "
                           "export with fixed shapes")
    if any(d == 0 for d in t.shape):
        raise CompileError(f"{where}: value '{name}' is empty (shape {list(t.shape)}); the "
                           "runtime's tensors have at least one element")
    if t.dtype == np.int64:  # token ids, positions: int32 at run time (docs/compiler.md)
        return Value(name, list(t.shape), np.dtype(np.int32))
    if t.dtype == np.bool_:  # masks: uint8 0 or 1 at run time (docs/compiler.md)
        return Value(name, list(t.shape), np.dtype(np.uint8))
    if t.dtype is None or t.dtype not in [np.dtype(d) for d in ACTIVATION_DTYPES]:
        raise CompileError(f"{where}: value '{name}' is {t.dtype}, which is not a tensor type "
                           "of the runtime (float32, int8, uint8, int32; int64 as int32, bool as uint8)")
    return Value(name, list(t.shape), np.dtype(t.dtype))


def _lowering_target(node: onnx_graph.OnnxOp):
    """The schema operator an ONNX node lowers to, or a CompileError saying why none."""
    table = schema.onnx_operators()
    if node.domain == onnx_graph.DOMAIN and node.op_type in FUSED_OPERATORS:
        op = schema.find(FUSED_OPERATORS[node.op_type])
        if op is None:
            raise CompileError(f"{node.where}: the schema has no {FUSED_OPERATORS[node.op_type]}")
        return op
    if node.domain not in ("", onnx_graph.DOMAIN):
        raise CompileError(f"{node.where}: not supported: operators of domain "
                           f"'{node.domain}' are not ONNX operators")
    if node.op_type not in table:
        raise CompileError(f"{node.where}: " + (node.note or "not supported: no runtime "
                           f"operator lowers ONNX {node.op_type}"))
    return table[node.op_type]


def lower(og: onnx_graph.OnnxGraph) -> Lowering:
    """The IR of the front end's graph: each ONNX node through its schema operator's
    `lower` hook. Nodes that cannot be lowered are collected, not raised (Lowering.check)."""
    g = Graph()
    result = Lowering(g, {}, [])
    used = set(og.outputs)
    for node in og.nodes:
        used.update(i for i in node.inputs if i)
        for name in node.inputs:
            g.use_count[name] = g.use_count.get(name, 0) + 1
    for name, array in og.consts.items():
        if name in used:
            g.add_const(name, array)
    for name in og.inputs:
        try:
            g.values[name] = _value(og, name, "graph input")
        except CompileError as e:
            result.problems.append((None, str(e)))
        g.inputs.append(name)
    for node in og.nodes:
        before = len(g.nodes)
        try:
            if any(i and g.resolve(i) not in g.values for i in node.inputs):
                _lowering_target(node)  # after a node that failed: only whether it could lower
                continue
            for out in node.outputs:
                if out and out not in g.values:
                    g.values[out] = _value(og, out, node.where)
            target = _lowering_target(node)
            ins = [g.resolve(i) for i in node.inputs]
            onnx_node = OnnxNode(g, node.op_type, dict(node.attrs), ins, list(node.outputs),
                                 node.where)
            if node.op_type in FUSED_OPERATORS:
                onnx_node.emit(target.name, ins[:len(target.inputs)], **node.attrs)
            elif target.lower is not None:
                target.lower(onnx_node)
            else:
                onnx_node.emit(target.name, ins)
        except CompileError as e:
            result.problems.append((node, str(e)))
            del g.nodes[before:]
            continue
        names = result.operators.setdefault(node.op_type, [])
        for n in g.nodes[before:]:
            if n.op not in names:
                names.append(n.op)
    g.outputs = [g.resolve(o) for o in og.outputs]
    g.model_quantization = og.quantization
    return result


def load_onnx(model, options: Optional[passes.Options] = None, log=None) -> Graph:
    """An ONNX file through the front end and lowering into the IR; every node that cannot
    be compiled is named in one CompileError."""
    lowering = lower(front_end(model, options, log))
    lowering.check()
    return lowering.graph


def needs_table(og: onnx_graph.OnnxGraph, lowering: Lowering) -> str:
    """--print-ops: every ONNX operator the folded graph still has, how many nodes, and the
    runtime operators it lowers to, or why it cannot be lowered."""
    failed: Dict[str, List[str]] = {}
    for node, message in lowering.problems:
        failed.setdefault(node.op_type if node is not None else "(graph input)", []).append(
            message)
    rows = [("ONNX operator", "nodes", "runtime operators")]
    counts = onnx_graph.op_counts(og.nodes)
    for op_type in sorted(set(counts) | set(failed)):
        ok = ", ".join(lowering.operators.get(op_type, [])) or "-"
        if op_type in failed:
            bad = failed[op_type]
            why = bad[0].split(": ", 1)[-1]
            more = f" and {len(bad) - 1} more" if len(bad) > 1 else ""
            ok = (ok + "; " if op_type in lowering.operators else "") + \
                f"NOT LOWERED: {len(bad)} node(s): {why}{more}"
        rows.append((op_type, str(counts.get(op_type, len(failed.get(op_type, [])))), ok))
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    return "\n".join(f"{r[0]:<{width[0]}}  {r[1]:>{width[1]}}  {r[2]}" for r in rows)


# ---- graph passes --------------------------------------------------------------------------

FUSING_OPS = (conv.CONVOLUTION.name, conv.LINEAR.name)
ACTIVATIONS = (activations.RELU.name, activations.CLAMP.name)


def fuse_activations(g: Graph):
    """Conv/Linear followed by Relu or Clip (sole consumer, not an output) -> fused bounds;
    a chain of them (torch's ReLU6 exports as Relu then Clip) fuses whole."""
    for node in list(g.nodes):
        if node.op not in FUSING_OPS:
            continue
        while True:
            out = node.outputs[0]
            users = g.consumers(out)
            if len(users) != 1 or out in g.outputs or users[0].op not in ACTIVATIONS:
                break
            act = users[0]
            lo, hi = (0.0, INF) if act.op == activations.RELU.name else \
                (act.attrs["lo"], act.attrs["hi"])
            node.attrs["lo"] = max(node.attrs["lo"], lo)
            node.attrs["hi"] = min(node.attrs["hi"], hi)
            node.outputs = act.outputs
            g.nodes.remove(act)


DTYPE_NAMES = ("float32", "int8", "int32", "uint8")


def check_types(g: Graph):
    """Plain (unquantised) integer graphs support only the operators whose schema entry has a
    kernel for the type (wrapping int8 arithmetic, data movement); everything else must be
    float32."""
    for node in g.nodes:
        op = schema.get(node.op)
        # An operand of a named type (Where's uint8 condition) is the wrapper's to check.
        named = [o.dtype in DTYPE_NAMES for o in op.inputs] if op.inputs else []
        dtypes = {g.value(i).dtype for k, i in enumerate(node.inputs)
                  if g.value(i).const is None and not (named and named[min(k, len(named) - 1)])}
        for dt in dtypes:
            if dt == np.float32 or np.dtype(dt).name in op.dtypes:
                continue
            raise CompileError(f"{node.where}: {node.op} on {dt} tensors is not supported "
                               "(integer graphs support int8 add/sub/mul and data movement)")


def delegate_cpu_packed(g: Graph) -> int:
    """Marks int8 wrapping adds of equal shapes for the cpu-packed backend."""
    count = 0
    for node in g.nodes:
        if node.op != schema.elementwise.ADD.name or g.values[node.outputs[0]].scale > 0:
            continue
        a, b, y = (g.value(n) for n in node.inputs + node.outputs)
        if a.dtype == b.dtype == y.dtype == np.int8 and a.shape == b.shape == y.shape and \
                a.const is None and b.const is None:
            node.attrs["delegate"] = "cpu-packed"
            count += 1
    return count


# ---- quantisation --------------------------------------------------------------------------

@dataclasses.dataclass
class IoTypes:
    """The element types of a quantised program's inputs and outputs (--input-type, --mean,
    --std, --output-type). With an integer input type the program reads the integer image q
    (uint8 0..255 or int8) and the float model's input is (q - mean[c]) / std[c], per channel
    c (axis 1) or one value for all."""
    input_type: str = "float32"   # "float32" | "uint8" | "int8"
    mean: tuple = (0.0,)
    std: tuple = (1.0,)
    output_type: str = "float32"  # "float32" | "int8"
    int8_io: tuple = ()           # (name, scale) pairs: int8 at the boundary at that scale


def _per_channel(values, channels: int, what: str) -> np.ndarray:
    values = np.asarray(values, np.float64).reshape(-1)
    if values.size == 1:
        values = np.repeat(values, channels)
    if values.size != channels:
        raise CompileError(f"--{what} has {values.size} values; the input has {channels} "
                           "channels (give one value or one per channel)")
    return values


def _integer_input(g: Graph, quantizer: Quantizer, name: str, io: IoTypes) -> str:
    """The integer input `name` converted to the int8 activations the float input would have
    been quantised to: a depthwise 1x1 convolution of the integer image with weights 1/std[c]
    and biases -mean[c]/std[c] (the input's zero point 0, scale 1), requantised to the
    calibrated input scale. Exact up to its rounding, no padding involved; on the NPU it is
    the first layer (the input conversion). Returns the int8 value's name."""
    v = g.values[name]
    where = f"graph input '{name}'"
    if len(v.shape) != 4:
        raise CompileError(f"{where}: --input-type {io.input_type} needs an NCHW image input; "
                           f"the input has shape {v.shape}")
    channels = v.shape[1]
    mean = _per_channel(io.mean, channels, "mean")
    std = _per_channel(io.std, channels, "std")
    if np.any(std <= 0) or not np.all(np.isfinite(std)) or not np.all(np.isfinite(mean)):
        raise CompileError(f"{where}: --std must be positive and --mean finite")
    q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale, zero_point=v.zero_point)
    g.values[q.name] = q
    g.values[name] = Value(name, v.shape, np.dtype(io.input_type), scale=1.0)
    w = g.add_const(name + "::norm_w", (1.0 / std).reshape(channels, 1, 1, 1))
    b = g.add_const(name + "::norm_b", -mean / std)
    node = Node(conv.QUANTIZED_CONVOLUTION.name, [name, w, b], [q.name],
                dict(stride=[1, 1], pads=[0, 0, 0, 0], dilation=[1, 1], groups=channels,
                     lo=-INF, hi=INF), f"{where} (--input-type {io.input_type})")
    quantizer.weights(node)
    quantizer.new_nodes.append(node)
    return q.name


def share_concat_scales(g: Graph) -> int:
    """A concatenation's inputs written by convolutions or fully connected layers (read by
    nothing else) take the concatenation's scale, as in TFLite: the layer requantises to it
    and no requantize runs before the concatenation (which output placement then removes).
    Returns how many inputs changed scale."""
    count = 0
    for node in g.nodes:
        if node.op != schema.data_movement.CAT.name:
            continue
        y = g.values[node.outputs[0]]
        for name in (g.resolve(i) for i in node.inputs):
            producers = [n for n in g.nodes if name in n.outputs]
            v = g.values[name]
            if len(producers) == 1 and producers[0].op in FUSING_OPS and v.scale != y.scale \
                    and len(g.consumers(name)) == 1 and name not in g.outputs:
                v.scale = y.scale
                count += 1
    return count


def _to_model_quantization(g: Graph, node: Node, quantization) -> Node:
    """A requantize node after `node`, whose output quantisation its operator fixes (a
    copy such as max_pool2d or relu keeps its input's; softmax writes 1/256), to the one a
    pre-quantised model gives that value: `node` then writes an intermediate value."""
    y = g.values[node.outputs[0]]
    own = Value(y.name + "::own", y.shape, np.dtype(np.int8), scale=y.scale,
                zero_point=y.zero_point)
    g.values[own.name] = own
    node.outputs = [own.name] + node.outputs[1:]
    y.scale, y.zero_point = quantization
    return Node(schema.quantization.REQUANTIZE.name, [own.name], [y.name], {},
                f"{node.where} (the model's quantisation of its output)")


def quantize_graph(g: Graph, ranges: Dict[str, float], io: Optional[IoTypes] = None):
    """Turns a calibrated float graph into an int8 graph with float32 inputs and outputs, or
    those `io` gives. A pre-quantised model's values keep the model's scale and zero point
    (`ranges` covers the others)."""
    io = io or IoTypes()
    given = g.model_quantization.activations if g.model_quantization is not None else {}
    for name in list(g.values):
        v = g.values[name]
        if v.const is None and v.dtype == np.float32:
            if name in given:
                v.scale, v.zero_point = given[name]
            else:
                v.scale = scale_from_range(ranges.get(name, 0.0))
    if not given:
        share_concat_scales(g)
    new_nodes = []
    quantizer = Quantizer(g, new_nodes)
    fixed = _fixed_io(g, io)
    # Inputs: quantize right after entry (integer inputs: converted by a first layer).
    renames = {}
    for name in g.inputs:
        v = g.values[name]
        if v.dtype != np.float32:  # integer inputs (token ids) stay as they are
            continue
        if name in fixed:  # int8 state (a KV cache): read as it is, at its given scale
            v.dtype, v.scale, v.zero_point = np.dtype(np.int8), fixed[name], 0
            continue
        if io.input_type != "float32":
            renames[name] = _integer_input(g, quantizer, name, io)
            continue
        q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale,
                  zero_point=v.zero_point)
        g.values[q.name] = q
        new_nodes.append(Node(schema.quantization.QUANTIZE.name, [name], [q.name], {},
                              f"graph input '{name}'"))
        renames[name] = q.name
    for node in g.nodes:
        node.inputs = [renames.get(i, i) for i in node.inputs]
        op = schema.get(node.op)
        if op.quantize is not None:
            try:
                op.quantize(quantizer, node)
            except ValueError as e:  # fixed_point: a scale ratio no int32 multiplier holds
                raise CompileError(f"{node.where}: cannot be quantised: {e} (weights, "
                                   "constants or calibrated ranges out of proportion)") from None
        y = g.values[node.outputs[0]]
        if y.dtype == np.float32:
            y.dtype = np.dtype(np.int8)
        if op.quantized:
            node.op = op.quantized
        new_nodes.append(node)
        if y.name in given and (y.scale, y.zero_point) != tuple(given[y.name]):
            new_nodes.append(_to_model_quantization(g, node, given[y.name]))
    # Outputs: dequantize back to float32 under the original names (--output-type int8: the
    # int8 values themselves, their scale and zero point in the program file).
    final_outputs = []
    for name in g.outputs:
        if name in final_outputs:  # one value given as two graph outputs: dequantized once
            final_outputs.append(name)
            continue
        v = g.values[name]
        if name in fixed:
            _requantize_output(g, new_nodes, name, fixed[name])
            final_outputs.append(name)
            continue
        if io.output_type == "int8" or v.dtype == np.int32:  # int32: indices (ArgMax)
            final_outputs.append(name)
            continue
        q = Value(name + "::q", v.shape, np.dtype(np.int8), scale=v.scale,
                  zero_point=v.zero_point)
        g.values[q.name] = q
        for node in new_nodes:
            node.inputs = [q.name if i == name else i for i in node.inputs]
            node.outputs = [q.name if o == name else o for o in node.outputs]
        f = Value(name, v.shape, np.dtype(np.float32))
        g.values[name] = f
        new_nodes.append(Node(schema.quantization.DEQUANTIZE.name, [q.name], [name], {},
                              f"graph output '{name}'"))
        final_outputs.append(name)
    g.nodes = new_nodes
    g.outputs = final_outputs


def _fixed_io(g: Graph, io: IoTypes) -> Dict[str, float]:
    """--int8-io NAME=SCALE: inputs and outputs kept int8 at a given scale (zero point 0), so
    that state one execution writes (a KV cache row) is read as it is by the next, or by
    another program compiled with the same scale."""
    fixed = {}
    for name, scale in io.int8_io:
        if name not in g.inputs and name not in g.outputs:
            raise CompileError(f"--int8-io {name}={scale}: the model has no input or output "
                               f"'{name}' (inputs: {', '.join(g.inputs)}; outputs: "
                               f"{', '.join(g.outputs)})")
        if not (np.isfinite(scale) and scale > 0):
            raise CompileError(f"--int8-io {name}={scale}: the scale must be positive")
        if g.values[name].dtype != np.float32:
            raise CompileError(f"--int8-io {name}: a float32 value is needed, '{name}' is "
                               f"{g.values[name].dtype}")
        fixed[name] = float(scale)
    return fixed


def _requantize_output(g: Graph, new_nodes: List[Node], name: str, scale: float):
    """The int8 output `name` at `scale`: its producer writes an intermediate value at the
    calibrated scale, a requantize writes `name` (nothing when the scales agree)."""
    v = g.values[name]
    if v.scale == scale and v.zero_point == 0:
        return
    own = Value(name + "::own", v.shape, np.dtype(np.int8), scale=v.scale,
                zero_point=v.zero_point)
    g.values[own.name] = own
    for node in new_nodes:
        node.inputs = [own.name if i == name else i for i in node.inputs]
        node.outputs = [own.name if o == name else o for o in node.outputs]
    v.scale, v.zero_point = scale, 0
    new_nodes.append(Node(schema.quantization.REQUANTIZE.name, [own.name], [name], {},
                          f"graph output '{name}' (--int8-io)"))


# ---- lowering to program instructions ------------------------------------------------------

def kernel_args(g: Graph, node: Node) -> List[int]:
    """The argument words of a node (its schema entry computes the values by name)."""
    op = schema.get(node.op)
    try:
        values = op.arg_values(g, node) if op.arg_values is not None else {}
        return schema.pack_args(op, values)
    except ValueError as e:  # an argument out of its range, a multiplier out of int32
        raise CompileError(f"{node.where}: {e}") from None


def plan_memory(sizes: Dict[int, int], lifetimes: Dict[int, tuple]):
    """Best-fit offsets for tensors whose lifetimes overlap.

    Tensors are placed largest first; each goes into the smallest gap between already
    placed tensors that are alive at the same time, or after them. Returns (offsets, size).
    The placed tensors alive at each step are indexed by step, so finding those a tensor
    overlaps costs its lifetime's steps, not all placed tensors (a 20,000-node chain).
    """
    offsets: Dict[int, int] = {}
    alive_at: Dict[int, List[int]] = {}  # step -> placed tensors alive at it
    order = sorted(sizes, key=lambda t: (-sizes[t], t))
    for t in order:
        size = (sizes[t] + 15) // 16 * 16
        first, last = lifetimes[t]
        overlapping = set()
        for step in range(first, last + 1):
            overlapping.update(alive_at.get(step, ()))
        busy = sorted((offsets[o], offsets[o] + (sizes[o] + 15) // 16 * 16)
                      for o in overlapping)
        best, best_gap, cursor = None, None, 0
        for start, end in busy:
            gap = start - cursor
            if gap >= size and (best_gap is None or gap < best_gap):
                best, best_gap = cursor, gap
            cursor = max(cursor, end)
        offsets[t] = best if best is not None else cursor
        for step in range(first, last + 1):
            alive_at.setdefault(step, []).append(t)
    total = max((offsets[t] + (sizes[t] + 15) // 16 * 16 for t in offsets), default=0)
    return offsets, total


DATA_ALIGNMENT = 16  # planned offsets (the runtime's kDataAlignment)
MAX_PLANNED_BYTES = (1 << 32) - 1  # a planned buffer's size is a 32-bit field


def _nbytes(v: Value) -> int:
    return int(np.prod(v.shape, dtype=np.int64)) * np.dtype(v.dtype).itemsize


def concat_placements(g: Graph, sliced: Dict[str, tuple] = None) -> Dict[str, tuple]:
    """Concatenation as output placement: the inputs of a concatenation along an axis with
    only 1s before it are consecutive blocks of its output, so their producers can write
    them there and the copy disappears (an NPU writes its layers' outputs into the slices,
    RKNN guide 5.2.4). Returns {input value: (concatenation output, byte offset)} for the
    concatenations where every input is an activation written by one node (not a program
    input or output, placed nowhere else, of the output's dtype and quantisation) and every
    block starts at a planned-memory alignment. Values in `sliced` (slice_placements) already
    live inside another and are not placed again."""
    placed: Dict[str, tuple] = dict(sliced or {})
    produced = {o for n in g.nodes for o in n.outputs}
    for node in g.nodes:
        if node.op != schema.data_movement.CAT.name or "npu_segment" in node.attrs:
            continue
        y = g.values[node.outputs[0]]
        ins = [g.resolve(i) for i in node.inputs]
        if any(d != 1 for d in y.shape[:node.attrs["axis"]]) or len(set(ins)) != len(ins) or \
                y.name in placed:
            continue
        blocks, offset = {}, 0
        for name in ins:
            v = g.values[name]
            if v.const is not None or name not in produced or name in g.inputs or \
                    name in g.outputs or name in placed or offset % DATA_ALIGNMENT or \
                    (v.dtype, v.scale, v.zero_point) != (y.dtype, y.scale, y.zero_point):
                break
            blocks[name] = (y.name, offset)
            offset += _nbytes(v)
        else:
            placed.update(blocks)
            node.attrs["placed"] = True
    return {name: where for name, where in placed.items() if name not in (sliced or {})}


def slice_block(shape, out_shape, slices) -> Optional[int]:
    """The element offset of a slice that is one contiguous block of its input (the axes
    before the first one not taken whole have length 1, those after it are whole, and it
    steps by 1), else None. `slices` = first index and step of every axis."""
    rank = len(shape)
    firsts, steps = slices[0::2], slices[1::2]

    def whole(i):
        return out_shape[i] == shape[i] and firsts[i] == 0 and (steps[i] == 1 or shape[i] == 1)
    axis = next((i for i in range(rank) if not whole(i)), rank)
    if axis == rank:
        return 0
    if any(shape[i] != 1 for i in range(axis)) or \
            not all(whole(i) for i in range(axis + 1, rank)) or \
            (steps[axis] != 1 and out_shape[axis] != 1):
        return None
    return firsts[axis] * int(np.prod(shape[axis + 1:], dtype=np.int64))


def slice_placements(g: Graph) -> Dict[str, tuple]:
    """Slices as input placement: a slice that is one contiguous block of its input (ONNX
    Split and Slice on the channels of a batch-1 NCHW tensor, ShuffleNetV2's channel split) is
    that block, so its output is placed inside its input and the copy disappears; its readers,
    CPU kernels or NPU layers, read the block where it is. Returns {slice output: (input, byte
    offset)} for the slices of a planned activation (not a program input or output, not a
    constant) whose block starts at a planned-memory alignment."""
    placed: Dict[str, tuple] = {}
    for node in g.nodes:
        if node.op != schema.data_movement.SLICE_COPY.name or "npu_segment" in node.attrs:
            continue
        x, y = g.resolve(node.inputs[0]), g.resolve(node.outputs[0])
        xv, yv = g.values[x], g.values[y]
        if xv.const is not None or x in g.inputs or y in g.outputs or x in g.outputs:
            continue
        at = slice_block(list(xv.shape), list(yv.shape), list(node.attrs["slices"]))
        if at is None or at * np.dtype(xv.dtype).itemsize % DATA_ALIGNMENT:
            continue
        placed[y] = (x, at * np.dtype(xv.dtype).itemsize)
        node.attrs["placed"] = True
    return placed


def emit_program(g: Graph, place_concats: bool = True) -> pf.Program:
    """The program file of the IR: tensors, instructions, delegate calls and the memory plan
    (with `place_concats`, slices and concatenations as placement: slice_placements,
    concat_placements)."""
    placed = {}
    if place_concats:
        placed = slice_placements(g)
        for name, where in concat_placements(g, placed).items():
            placed[name] = where
    ids: Dict[str, int] = {}
    tensors: List[pf.Tensor] = []

    def tid(name):
        name = g.resolve(name)
        if name not in ids:
            v = g.values[name]
            try:
                code = pf.dtype_code(v.dtype)
            except ValueError:
                raise CompileError(f"value '{name}' is {np.dtype(v.dtype).name}: a program "
                                   "holds float32, int8, uint8 and int32 tensors") from None
            t = pf.Tensor(dtype=code, shape=list(v.shape), name=name)
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
    npu_emitted = set()
    for node in g.nodes:
        if place_concats and node.attrs.get("placed"):
            continue  # its inputs were written into its output
        segment = node.attrs.get("npu_segment")
        if segment is not None:  # one delegate call per NPU segment (npu_partition.py)
            if segment not in npu_emitted:
                npu_emitted.add(segment)
                ins, outs, blob = npu_partition.segment_call(
                    g, g.npu_segments[segment], tid, lambda n: kernel_args(g, n))
                delegates.append(pf.Delegate(npu_partition.BACKEND_ID, blob))
                instructions.append(pf.Instruction("", ins, outs, [], len(delegates) - 1))
            continue
        ins = [tid(i) for i in node.inputs]
        outs = [tid(o) for o in node.outputs]
        if node.attrs.get("delegate") == "cpu-packed":
            n = int(np.prod(g.values[node.outputs[0]].shape))
            blob = layouts.CPU_PACKED_BLOB.pack(
                magic=layouts.CPU_PACKED_MAGIC, version=layouts.CPU_PACKED_VERSION,
                op=layouts.CPU_PACKED_OP_ADD, elements=n)
            delegates.append(pf.Delegate("cpu-packed", blob))
            instructions.append(pf.Instruction("", ins, outs, [], len(delegates) - 1))
        else:
            instructions.append(pf.Instruction(node.op, ins, outs, kernel_args(g, node)))
    for name in g.outputs:
        if g.value(name).const is not None:
            raise CompileError(f"graph output '{g.resolve(name)}' is a constant")
    outputs = [tid(n) for n in g.outputs]
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
    for t in outputs:  # (a placed concatenation's output has no instruction of its own)
        life.setdefault(t, [end, end])[1] = end
    # A placed value lives in its concatenation's output, which lives as long as all of them.
    def root(name):
        offset = 0
        while name in placed:
            name, at = placed[name]
            offset += at
        return name, offset
    for name in placed:
        if name in ids and ids[name] in life:
            top = tid(root(name)[0])
            span = life.pop(ids[name])
            whole = life.setdefault(top, list(span))
            whole[0], whole[1] = min(whole[0], span[0]), max(whole[1], span[1])
    offsets, total = plan_memory({t: tensors[t].nbytes for t in life},
                                 {t: tuple(v) for t, v in life.items()})
    if total > MAX_PLANNED_BYTES:
        raise CompileError(f"the planned memory is {total} bytes, more than the program "
                           f"file's 32-bit buffer sizes ({MAX_PLANNED_BYTES} bytes)")
    for t, off in offsets.items():
        tensors[t].buffer, tensors[t].offset = 0, off
    for name in placed:
        if name in ids:
            top, at = root(name)
            tensors[ids[name]].buffer = 0
            tensors[ids[name]].offset = tensors[ids[top]].offset + at
    return pf.Program(tensors, instructions, [total], delegates, inputs, outputs)


# ---- driver --------------------------------------------------------------------------------

# Calibration (calibrate, after the samples are drawn or read) holds at its peak: the
# samples; the reference executor's planned memory of the float program (at most every value
# at its own place, each rounded up to 16 bytes); and for the instruction running, the
# executor's copy of each of its non-constant inputs, the operator's own converted or padded
# copy of each input, its output and up to three more arrays of the output's size (the
# steps of an element-wise expression, a bias added, a clamp, a cast). Drawing a random
# sample holds numpy's float64 (or int64) draw of one chunk of an input. No value is kept
# once its range is taken (calibrate), and ranges are taken in chunks. Samples are drawn
# only once the float program has been emitted, so a model that cannot be compiled costs
# none.
# check_calibration_memory counts all of it against this cap, before anything is allocated
# (docs/compiler.md, "Limits").
MAX_CALIBRATION_BYTES = 1 << 30
CALIBRATION_OUTPUT_ARRAYS = 4  # an instruction's output and three temporaries of its size
CALIBRATION_CHUNK = 1 << 20    # elements of a value whose |max| is taken at once
# --samples: random calibration samples.
MAX_SAMPLES = 10000


def calibration_memory(g: Graph, samples: int, drawn: bool) -> Dict[str, int]:
    """The bytes calibration of `samples` samples allocates at most, by part (see
    MAX_CALIBRATION_BYTES): samples, draw (random samples only: one chunk of numpy's 8-byte
    draw), planned, instruction (the largest instruction's), and total = samples +
    max(draw, planned + instruction)."""
    def size(name):
        return _nbytes(g.values[name]) if name else 0
    sample_bytes = samples * sum(size(i) for i in g.inputs)
    draw = max((8 * min(int(np.prod(g.values[i].shape, dtype=np.int64)), CALIBRATION_CHUNK)
                for i in g.inputs), default=0) if drawn else 0
    planned = sum((_nbytes(v) + 15) // 16 * 16 for v in g.values.values() if v.const is None)
    instruction = 0
    for n in g.nodes:
        ins = [i for i in n.inputs if i]
        copies = sum(size(i) for i in ins if g.values[i].const is None)
        need = copies + sum(size(i) for i in ins) + \
            CALIBRATION_OUTPUT_ARRAYS * sum(size(o) for o in n.outputs if o)
        instruction = max(instruction, need)
    return {"samples": sample_bytes, "draw": draw, "planned": planned,
            "instruction": instruction,
            "total": sample_bytes + max(draw, planned + instruction)}


def check_calibration_memory(g: Graph, samples: int, drawn: bool = True):
    """Refuses a calibration that would allocate more than MAX_CALIBRATION_BYTES
    (calibration_memory), before anything is allocated for it."""
    need = calibration_memory(g, samples, drawn)
    if need["total"] > MAX_CALIBRATION_BYTES:
        values = [v for v in g.values.values() if v.const is None]
        largest = max(values, key=_nbytes)
        raise CompileError(
            f"calibration needs {need['total']} bytes ({samples} sample(s) of the inputs: "
            f"{need['samples']}; the float program's values: {need['planned']}; its largest "
            f"instruction's inputs, output and temporaries: {need['instruction']}; the "
            f"largest value, '{largest.name}' {list(largest.shape)}, has {_nbytes(largest)}), "
            f"more than the cap of {MAX_CALIBRATION_BYTES} bytes")


def _max_abs(value: np.ndarray) -> float:
    """max |value| (NaN if it holds one, 0 if empty), CALIBRATION_CHUNK elements at a time:
    no temporary of the value's size."""
    flat = value.reshape(-1)
    if flat.size == 0:
        return 0.0
    return float(np.max([np.abs(flat[i:i + CALIBRATION_CHUNK]).max()
                         for i in range(0, flat.size, CALIBRATION_CHUNK)]))


def calibrate(g: Graph, samples) -> Dict[str, float]:
    """Runs the float program on each sample and returns max |value| per IR value, taken as
    each value is written (none is kept). `samples` may be a function that returns them:
    it is called once the float program has been emitted (and so checked)."""
    program = emit_program(g, place_concats=False)  # every value in the trace
    if callable(samples):
        samples = samples()
    names = {i: t.name for i, t in enumerate(program.tensors)}
    ranges: Dict[str, float] = {}

    def observe(i, value):
        if not program.tensors[i].is_constant:
            ranges[names[i]] = max(ranges.get(names[i], 0.0), _max_abs(value))
    for k, sample in enumerate(samples):
        try:
            reference.run(program, sample, observe=observe)
        except reference.ReferenceError as e:
            # e.g. a Gather at run-time indices the random samples (0 and 1) do not fit
            raise CompileError(f"calibration sample {k + 1}: {e} (calibrate with inputs the "
                               "model accepts: --calibration FILE.npz)") from None
    return ranges


@dataclasses.dataclass
class CompileOptions:
    """Everything compile_model.py's options say (the command line's names)."""
    quantize: Optional[str] = None        # "int8"
    calibration: Optional[str] = None     # .npz of calibration inputs
    samples: int = 8                      # random calibration samples without one
    seed: int = 0
    delegate: Optional[str] = None        # "cpu-packed" | "npu"
    npu_config: Optional[str] = None      # default DEFAULT_NPU_CONFIG with delegate "npu"
    disabled_passes: tuple = ()
    input_type: str = "float32"           # "uint8" | "int8": integer image inputs
    mean: tuple = (0.0,)                  # the integer input's normalisation
    std: tuple = (1.0,)
    output_type: str = "float32"          # "int8": quantised outputs
    int8_io: tuple = ()                   # (name, scale): int8 state inputs/outputs

    def io_types(self) -> IoTypes:
        return IoTypes(self.input_type, tuple(self.mean), tuple(self.std), self.output_type,
                       tuple(self.int8_io))

    def pass_options(self, npu_operators) -> passes.Options:
        return passes.Options(npu_operators=npu_operators, quantize=self.quantize,
                              disabled=tuple(self.disabled_passes))


def npu_operators(options: CompileOptions, log=None) -> Optional[set]:
    """The operator classes of the NPU preset (--delegate npu), or None."""
    if options.delegate != "npu":
        return None
    path = options.npu_config or DEFAULT_NPU_CONFIG
    if log and not options.npu_config:
        log(f"NPU preset {os.path.relpath(path)} (the default; --npu-config to choose)")
    try:
        return npu_partition.load_npu_operators(path)
    except npu_partition.NpuConfigError as e:
        raise CompileError(str(e)) from None


def model_quantization_samples(g: Graph, samples, log=None):
    """The calibration samples of a pre-quantised model: [None] when the model quantises
    every value (nothing is calibrated), else `samples` (--calibration) or 8 random ones for
    the values it leaves without quantisation (a float operator between two quantised
    ones)."""
    given = g.model_quantization.activations
    missing = [n for n, v in g.values.items()
               if v.const is None and v.dtype == np.float32 and n not in given]
    if not missing:
        return [None]
    if log:
        log(f"pre-quantised model: {len(missing)} value(s) without the model's quantisation "
            f"(first '{missing[0]}'), calibrated")
    return samples or functools.partial(checked_random_samples, g, 8)


def compile_graph(g: Graph, quantize: Optional[str] = None, samples=None,
                  delegate: Optional[str] = None, npu_ops: Optional[set] = None,
                  io: Optional[IoTypes] = None, log=None) -> pf.Program:
    """The IR through activation fusion, quantisation, delegation and memory planning."""
    io = io or IoTypes()
    fuse_activations(g)
    check_types(g)
    if g.model_quantization is not None:
        quantize = "int8"  # a pre-quantised model: its own quantisation (import_qdq)
        samples = model_quantization_samples(g, samples, log)
    if quantize != "int8" and (io.input_type != "float32" or io.output_type != "float32"):
        raise CompileError("--input-type and --output-type are those of a quantised program: "
                           "add --quantize int8")
    if quantize != "int8" and io.int8_io:
        raise CompileError("--int8-io keeps values of a quantised program int8: add "
                           "--quantize int8")
    if quantize == "int8":
        if any(g.values[i].dtype not in (np.float32, np.int32, np.int8, np.uint8)
               for i in g.inputs):
            raise CompileError("int8 quantisation needs a float32 model (integer inputs: "
                               "int32 or int64 indices such as token ids, bool masks)")
        if not samples:
            raise CompileError("int8 quantisation needs calibration samples")
        ranges = calibrate(g, samples) if samples != [None] else {}
        quantize_graph(g, ranges, io)
    if delegate == "cpu-packed":
        delegate_cpu_packed(g)
    elif delegate == "npu":
        # (a model quantised already, a TFLite one, may take float32 inputs and quantise them)
        if quantize != "int8" and all(g.values[i].dtype == np.float32 for i in g.inputs) and \
                not any(v.dtype == np.int8 for v in g.values.values()):
            raise CompileError("--delegate npu runs int8 operators: quantise the float32 model "
                               "with --quantize int8")
        g.npu_segments = npu_partition.partition(g, npu_ops or set())
    elif delegate is not None:
        raise CompileError(f"unknown delegate '{delegate}' (known: cpu-packed, npu)")
    return emit_program(g)


def checked_random_samples(g: Graph, count: int, seed: int = 0):
    """random_samples after check_calibration_memory."""
    check_calibration_memory(g, count)
    return random_samples(g, count, seed)


def random_samples(g: Graph, count: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return [[_random_input(rng, g.values[i]) for i in g.inputs] for _ in range(count)]


def _random_input(rng, v: Value) -> np.ndarray:
    """Standard normal floats; an integer input (token ids) gets 0s and 1s, valid indices
    for any table (calibrate with --calibration to see the real ids). Drawn
    CALIBRATION_CHUNK elements at a time (numpy draws float64 and int64): the same values
    as one draw of the whole shape, without a temporary of twice its size."""
    out = np.empty(v.shape, v.dtype)
    flat = out.reshape(-1)
    for i in range(0, flat.size, CALIBRATION_CHUNK):
        n = min(CALIBRATION_CHUNK, flat.size - i)
        flat[i:i + n] = rng.standard_normal(n) if v.dtype == np.float32 else \
            rng.integers(0, 2, n)
    return out


def calibration_samples(g: Graph, options: CompileOptions):
    if options.quantize != "int8":
        return None
    if not options.calibration:
        if not 1 <= options.samples <= MAX_SAMPLES:
            raise CompileError(f"--samples {options.samples}: give 1 to {MAX_SAMPLES}")
        return checked_random_samples(g, options.samples, options.seed)
    where = f"--calibration {options.calibration}"
    try:
        data = np.load(options.calibration, allow_pickle=False)
        if not hasattr(data, "files"):
            raise CompileError(f"{where}: not an .npz archive of arrays")
        names = sorted(data.files)
        if len(names) != len(g.inputs):
            raise CompileError(f"{where}: {len(names)} arrays; the model has "
                               f"{len(g.inputs)} input(s) (one array each, sorted by name)")
        arrays = []
        for name, input_name in zip(names, g.inputs):
            want = list(g.values[input_name].shape)
            # The header says the shape before the data is read (zip members are lazy).
            a = data[name]
            if a.ndim < 1 or list(a.shape[1:]) != want or a.shape[0] < 1 or \
                    not np.issubdtype(a.dtype, np.number):
                raise CompileError(f"{where}: array '{name}' is {a.dtype} {list(a.shape)}; "
                                   f"input '{input_name}' needs samples of shape {want} along "
                                   "axis 0")
            arrays.append(a.astype(g.values[input_name].dtype))
    except CompileError:
        raise
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as e:
        raise CompileError(f"{where}: cannot read: {e}") from None
    count = len(arrays[0])
    if any(len(a) != count for a in arrays):
        raise CompileError(f"{where}: the arrays hold different numbers of samples")
    check_calibration_memory(g, count, drawn=False)
    return [[a[i] for a in arrays] for i in range(count)]


def operator_list(program: pf.Program) -> List[str]:
    return sorted({ins.name for ins in program.instructions if ins.name})


def compile_model(model, options: CompileOptions, log=None) -> pf.Program:
    """An ONNX file (or front-end graph) to a program, as the command line does."""
    npu_ops = npu_operators(options, log)
    if isinstance(model, str) and tflite_frontend.is_tflite_file(model):
        return compile_tflite(model, options, npu_ops, log)
    g = load_onnx(model, options.pass_options(npu_ops), log)
    # (drawn or read only once the float program is known to compile: calibrate)
    samples = functools.partial(calibration_samples, g, options) \
        if options.quantize == "int8" else None
    return compile_graph(g, options.quantize, samples, options.delegate, npu_ops,
                         options.io_types(), log)


def compile_tflite(path: str, options: CompileOptions, npu_ops, log=None) -> pf.Program:
    """A `.tflite` int8 model, its own quantisation kept (docs/compiler.md, "TensorFlow Lite
    models"): options that quantise or convert inputs do not apply."""
    if options.quantize or options.calibration or options.input_type != "float32" or \
            options.output_type != "float32":
        raise CompileError("a .tflite model is already quantised: leave out --quantize, "
                           "--calibration, --input-type and --output-type")
    g = tflite_frontend.load_graph(tflite_frontend.read_model(path), log)
    return compile_graph(g, None, None, options.delegate, npu_ops)


FORMATS = ("pte", "prog")


def legacy_refused(out_path: str) -> str:
    """Why a .prog output is refused, and what to write instead."""
    return ("the compiler writes ExecuTorch's .pte, socsim's one program format; the legacy "
            ".prog format is still read by the runtime but no longer written "
            f"(docs/program-format.md): write {os.path.splitext(str(out_path))[0]}.pte")


def output_format(out_path: str, given: Optional[str] = None) -> str:
    """The file format to write: ExecuTorch's `.pte` (docs/program-format.md). A path ending
    in .prog is refused (CompileError) unless `given` is "prog": the legacy writer is kept
    for what reads only that format (the language-model bundle's runner) and for the tests
    that compare the two formats."""
    if given:
        return given
    if str(out_path).endswith(".prog"):
        raise CompileError(f"{out_path}: {legacy_refused(out_path)}")
    return "pte"


def serialise(program: pf.Program, fmt: str) -> bytes:
    """The bytes of `program` in format `fmt`, verified by the format's reader as the
    firmware will read them."""
    if fmt == "prog":
        data = pf.write(program)
        pf.read(data)
        return data
    data = pte_format.write(program)
    pte_format.read(data)
    return data


def compile_file(model_path, out_path, log=None, file_format=None, **options) -> pf.Program:
    """Compiles `model_path` and writes the program file (`.pte`; the legacy format only with
    `file_format` "prog": output_format); keyword arguments are the fields of
    CompileOptions."""
    fmt = output_format(out_path, file_format)
    program = compile_model(model_path, CompileOptions(**options), log)
    data = serialise(program, fmt)
    with open(out_path, "wb") as f:
        f.write(data)
    return program


def _print_ops(args, options: CompileOptions, log) -> int:
    """--print-ops: what the model needs, listed from the front end's graph before anything
    is quantised or delegated; then, if every node lowers, the kernels of the program."""
    if tflite_frontend.is_tflite_file(args.model):
        print(tflite_frontend.needs_table(tflite_frontend.read_model(args.model)))
        return 0
    og = front_end(args.model, options.pass_options(npu_operators(options, log)), log)
    lowering = lower(og)
    print(needs_table(og, lowering))
    lowering.check()
    g = lowering.graph
    samples = functools.partial(checked_random_samples, g, 1) if options.quantize else None
    program = compile_graph(g, options.quantize, samples, options.delegate,
                            npu_operators(options), options.io_types())
    print("SOCSIM_KERNEL_OPS=" + ";".join(operator_list(program)))
    return 0


def _floats(text: str) -> tuple:
    try:
        return tuple(float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of numbers")


def _name_scale(text: str) -> tuple:
    name, _, scale = text.rpartition("=")
    try:
        if name:
            return name, float(scale)
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"'{text}' is not NAME=SCALE")


def _sample_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"'{text}' is not a count from 1 to {MAX_SAMPLES}")
    return count


# Exit statuses (docs/compiler.md, "Exit status").
EXIT_MODEL = 1     # the model cannot be compiled (one line per cause), or a file error
EXIT_USAGE = 2     # bad options (argparse)
EXIT_INTERNAL = 70  # a defect of the compiler itself (EX_SOFTWARE)


@functools.lru_cache(maxsize=None)
def argument_parser() -> argparse.ArgumentParser:
    """compile_model.py's options (made once: a program that calls main many times, such as
    the fuzz target compile_model, does not build it again each time)."""
    parser = argparse.ArgumentParser(
        description="Compile an ONNX model into a socsim program file: a front end that folds "
                    "constants and shapes and optimises the graph, operators lowered to the "
                    "runtime's kernels, optional int8 quantisation, optional delegation, "
                    "ahead-of-time memory plan. The file format is in docs/program-format.md, "
                    "the operators and their integer arithmetic in docs/runtime.md, the front "
                    "end and its passes in docs/compiler.md.",
        epilog="Examples:\n  compile_model.py add8.onnx -o add8.pte --delegate cpu-packed\n"
               "  compile_model.py net.onnx -o net_int8.pte --quantize int8 "
               "--calibration samples.npz\n"
               "  compile_model.py net.onnx --print-ops\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", nargs="?", help="ONNX model with fixed input shapes "
                        f"(opsets {onnx_graph.MIN_OPSET}-{onnx_graph.MAX_OPSET}), or an int8 "
                        "TensorFlow Lite model (.tflite, recognised by its TFL3 identifier; "
                        "its own quantisation is kept: docs/compiler.md)")
    parser.add_argument("-o", "--output", help="program file to write, in ExecuTorch's .pte "
                        "format, socsim's one program format (docs/program-format.md; a name "
                        "ending in .prog is refused: the runtime still reads that legacy "
                        "format, the compiler no longer writes it)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="pte (the only format written; `prog` is refused with the "
                             "reason)")
    parser.add_argument("--quantize", choices=["int8"],
                        help="quantise a float32 model: int8 activations (per-tensor, "
                             "symmetric), int8 weights (per output channel, symmetric), "
                             "int32 biases; inputs and outputs stay float32")
    parser.add_argument("--calibration", metavar="NPZ",
                        help="calibration inputs: an .npz whose arrays (sorted by name, one "
                             "per model input) hold samples along axis 0; default: random "
                             "normal samples")
    parser.add_argument("--samples", type=_sample_count, default=8,
                        help="number of random calibration samples (default 8, at most "
                             f"{MAX_SAMPLES})")
    parser.add_argument("--delegate", choices=["cpu-packed", "npu"],
                        help="move supported operators to a delegate backend (cpu-packed: "
                             "int8 elementwise add, four bytes per word; npu: the int8 "
                             "operators the --npu-config preset lists, as layer descriptors "
                             "for the NPU, docs/npu.md; needs --quantize int8)")
    parser.add_argument("--input-type", choices=["float32", "uint8", "int8"],
                        default="float32",
                        help="element type of the quantised program's inputs (default "
                             "float32): with uint8/int8 the program reads the integer image q "
                             "and the model's float input is (q - mean) / std per channel, "
                             "computed by a first int8 layer (on the NPU with --delegate npu) "
                             "instead of a float quantise on the CPU; needs --quantize int8 "
                             "and NCHW inputs")
    parser.add_argument("--mean", type=_floats, default=(0.0,), metavar="M[,M...]",
                        help="the integer input's mean, one value or one per channel "
                             "(e.g. 123.675,116.28,103.53; default 0)")
    parser.add_argument("--std", type=_floats, default=(1.0,), metavar="S[,S...]",
                        help="the integer input's standard deviation, one value or one per "
                             "channel (e.g. 58.395,57.12,57.375; default 1)")
    parser.add_argument("--output-type", choices=["float32", "int8"], default="float32",
                        help="element type of the quantised program's outputs (default "
                             "float32: dequantised on the CPU); int8 leaves them quantised, "
                             "their scale and zero point in the program file")
    parser.add_argument("--int8-io", type=_name_scale, action="append", default=[],
                        metavar="NAME=SCALE",
                        help="keep the quantised program's input or output NAME int8 at "
                             "scale SCALE (zero point 0), neither quantised nor dequantised: "
                             "state that one execution writes and the next reads, such as a "
                             "KV cache (repeatable; needs --quantize int8)")
    parser.add_argument("--npu-config", metavar="PRESET",
                        help="NPU preset (configs/npu/*.yaml) whose operator list decides "
                             "what --delegate npu moves to the NPU (default "
                             "configs/npu/rk3588-like.yaml)")
    parser.add_argument("--no-pass", action="append", default=[], metavar="NAME",
                        help="do not run the front-end pass NAME (repeatable; passes: "
                             f"{', '.join(passes.names())})")
    parser.add_argument("--print-ops", action="store_true",
                        help="print what the model needs: each ONNX operator left after the "
                             "front end, its node count and the runtime operators it lowers to "
                             "or why it cannot be lowered (every such node); then, if all "
                             "lower, the program's operators as a SOCSIM_KERNEL_OPS list for a "
                             "selective firmware build")
    parser.add_argument("--list-operators", action="store_true",
                        help="print every operator of the runtime (the operator schema): "
                             "kernel dtypes, inputs, arguments, ONNX operators, NPU layer")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no compile log on stderr (the front end's and each pass's line)")
    return parser


def main(argv=None, legacy_prog=False) -> int:
    """The command line. `legacy_prog`: write the legacy .prog format for -o NAME.prog or
    --format prog (the tests that compare the two formats; the command line refuses it)."""
    parser = argument_parser()
    args = parser.parse_args(argv)
    if args.output and not legacy_prog and \
            (args.format == "prog" or (not args.format and args.output.endswith(".prog"))):
        parser.error(f"-o {args.output}" + (" --format prog" if args.format else "") +
                     f": {legacy_refused(args.output)}")
    file_format = args.format or ("prog" if legacy_prog and args.output and
                                  args.output.endswith(".prog") else None)
    if args.list_operators:
        print(schema.operator_table())
        return 0
    if not args.model:
        parser.error("give an ONNX model (or --list-operators)")
    if not args.output and not args.print_ops:
        parser.error("give -o/--output and/or --print-ops")
    if args.delegate == "npu" and args.quantize != "int8" and \
            not tflite_frontend.is_tflite_file(args.model):
        parser.error("--delegate npu runs int8 operators: add --quantize int8")
    options = CompileOptions(quantize=args.quantize, calibration=args.calibration,
                             samples=args.samples, delegate=args.delegate,
                             npu_config=args.npu_config, disabled_passes=tuple(args.no_pass),
                             input_type=args.input_type, mean=args.mean, std=args.std,
                             output_type=args.output_type, int8_io=tuple(args.int8_io))

    def log(line):
        if not args.quiet:
            print(f"compile_model: {line}", file=sys.stderr)
    try:
        if args.print_ops:
            _print_ops(args, options, log)
        if args.output:
            program = compile_file(args.model, args.output, log, file_format=file_format,
                                   **dataclasses.asdict(options))
    except validate.ModelError as e:
        for problem in e.problems:
            print(f"compile_model: {args.model}: {problem}", file=sys.stderr)
        return EXIT_MODEL
    except CompileError as e:
        print(f"compile_model: {args.model}: {e}", file=sys.stderr)
        return EXIT_MODEL
    except OSError as e:
        print(f"compile_model: {e}", file=sys.stderr)
        return EXIT_MODEL
    except MemoryError:
        print(f"compile_model: {args.model}: out of memory (a limit of docs/compiler.md does "
              "not cover this model: please report it)", file=sys.stderr)
        return EXIT_INTERNAL
    except Exception as e:  # noqa: BLE001 - the last resort: a defect, never a traceback
        print(f"compile_model: {args.model}: internal error: {type(e).__name__}: {e}",
              file=sys.stderr)
        return EXIT_INTERNAL
    if args.output:
        kernels = sum(1 for i in program.instructions if i.name)
        print(f"compile_model: wrote {args.output}: {len(program.tensors)} tensors, "
              f"{kernels} kernel calls, {len(program.delegates)} delegate calls, "
              f"planned memory {program.buffers[0]} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
