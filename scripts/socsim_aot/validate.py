"""Validation of an ONNX model before the compiler works on it (docs/compiler.md,
"Validation").

`check_model(model)` runs on the file as read, before ONNX shape inference (whose C++ code
divides by strides and block sizes): the graph exists; names are UTF-8 text and given;
every attribute has a type and a readable value; operators of the default domain are
ONNX's; every value is
assigned once (a graph input, an initializer or one node's output); every input and graph
output is produced or given; the graph is acyclic (nodes out of order are sorted); element
types are ONNX's and graph inputs the runtime's; dimensions are positive and tensors within
MAX_TENSOR_BYTES; initializers hold as many values as their dims say; each node has the
inputs, outputs and attribute types its ONNX schema gives, and window attributes
(kernel_shape, strides, dilations, pads, group, blocksize) are in range.

`check_graph(g)` runs on the front end's graph once shapes are inferred, and again after
the passes: for the operators the runtime has, the attributes against the shapes (a
convolution's channels, group and kernel against its weights, pooling windows, Gather
indices and axes, Reshape element counts, one element type per elementwise node) and the
size of every value. `check_finite(g)` refuses NaN or infinite constants for int8
quantisation.

Every problem is one line naming the node (name and ONNX operator), the attribute or value
and what is wrong; all lines are collected and raised as one ModelError.
"""

import os
from typing import Dict, List, Optional

import numpy as np

from socsim_aot.ir import CompileError

# A tensor's bytes: what the program file's verifying reader accepts (program_format.read,
# the runtime's Program::load: at most 0x7FFFFFFF bytes and elements per dimension).
MAX_TENSOR_BYTES = (1 << 31) - 1
# kernel_shape, strides, dilations and pads: at most this (as the NPU's layer descriptors
# bound each dimension, docs/hardening.md "Limits").
MAX_WINDOW = 1 << 16
# At most this many problem lines are listed; the rest are counted.
MAX_PROBLEMS = 50

# The runtime's tensor types (ONNX element types): graph inputs must be one. int64 (token
# ids, indices) is int32 at the program's boundary (docs/compiler.md).
RUNTIME_TYPES = {1: "float32", 2: "uint8", 3: "int8", 6: "int32", 7: "int64 (as int32)",
                 9: "bool (as uint8)"}
# Operators whose inputs all have one element type (ONNX's type constraint T for all).
SAME_TYPE_OPS = ("Add", "Sub", "Mul", "Div", "Sum", "Min", "Max", "Mean", "Equal", "Less",
                 "Greater", "LessOrEqual", "GreaterOrEqual", "Concat", "MatMul", "Gemm", "Mod",
                 "PRelu", "And", "Or", "Xor")


class ModelError(CompileError):
    """Problems found by validation: `problems` holds one line each."""

    def __init__(self, problems: List[str]):
        shown = problems[:MAX_PROBLEMS]
        if len(problems) > MAX_PROBLEMS:
            shown.append(f"... and {len(problems) - MAX_PROBLEMS} more problem(s)")
        super().__init__("\n".join(shown))
        self.problems = shown


def raise_if(problems: List[str]):
    if problems:
        raise ModelError(problems)


def _where(node, index: int) -> str:
    name = node.name or f"{node.op_type}_{index}"
    return f"node '{name}' (op {node.op_type})"


def _type_name(elem_type: int) -> str:
    from onnx import TensorProto
    try:
        return TensorProto.DataType.Name(elem_type)
    except ValueError:
        return str(elem_type)


def _np_type(elem_type: int) -> Optional[np.dtype]:
    from onnx import mapping
    t = mapping.TENSOR_TYPE_TO_NP_TYPE.get(elem_type)
    return None if t is None or np.dtype(t) == np.dtype(object) else np.dtype(t)


def _tensor_bytes(shape, itemsize: int) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n * itemsize


def _elements(shape) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


# ---- the file as read --------------------------------------------------------------------------

def _check_value_info(vi, kind: str, index: int, runtime_type: bool, problems: List[str]):
    """A graph input's, output's or value_info's type: `kind` says which, `index` counts
    from 1 (for a value without a name)."""
    if not vi.name:
        problems.append(f"{kind} {index} has an empty name")
        return
    where = f"{kind} '{vi.name}'"
    if not vi.type.HasField("tensor_type"):
        if runtime_type:
            problems.append(f"{where} is not a tensor")
        return
    t = vi.type.tensor_type
    if t.elem_type and _np_type(t.elem_type) is None:
        problems.append(f"{where} has element type {_type_name(t.elem_type)}, which is not a "
                        "numeric ONNX tensor type")
    elif runtime_type and t.elem_type not in RUNTIME_TYPES:
        problems.append(f"{where} has element type {_type_name(t.elem_type)}; the runtime's "
                        f"tensors are {', '.join(RUNTIME_TYPES.values())}")
    if not t.HasField("shape"):
        return
    dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
    for axis, d in enumerate(dims):
        if d is not None and d < 1:
            problems.append(f"{where}: shape {dims} has dimension {d} at axis {axis} "
                            "(dimensions are at least 1)")
            return
    if all(d is not None for d in dims):
        itemsize = (_np_type(t.elem_type) or np.dtype(np.float32)).itemsize
        if _tensor_bytes(dims, itemsize) > MAX_TENSOR_BYTES:
            problems.append(f"{where}: shape {dims} is {_elements(dims)} elements "
                            f"({_tensor_bytes(dims, itemsize)} bytes), more than the "
                            f"{MAX_TENSOR_BYTES} bytes a tensor may have")


def _stored_values(t) -> int:
    """How many values an initializer holds (raw bytes over the item size)."""
    from onnx import TensorProto
    if t.HasField("raw_data"):
        itemsize = _np_type(t.data_type).itemsize
        return len(t.raw_data) // itemsize if len(t.raw_data) % itemsize == 0 else -1
    fields = {TensorProto.FLOAT: t.float_data, TensorProto.DOUBLE: t.double_data,
              TensorProto.INT64: t.int64_data, TensorProto.UINT64: t.uint64_data,
              TensorProto.UINT32: t.uint64_data, TensorProto.COMPLEX64: t.float_data,
              TensorProto.COMPLEX128: t.double_data}
    values = fields.get(t.data_type, t.int32_data)
    if t.data_type in (TensorProto.COMPLEX64, TensorProto.COMPLEX128):
        return len(values) // 2
    return len(values)


def _check_initializer(t, problems: List[str], where: Optional[str] = None):
    """An initializer (or, `where` naming it, a Constant node's value)."""
    if not t.name and where is None:
        problems.append("an initializer has an empty name")
        return
    where = where or f"initializer '{t.name}'"
    if _np_type(t.data_type) is None:
        problems.append(f"{where} has element type {_type_name(t.data_type)}, which is not a "
                        "numeric ONNX tensor type")
        return
    if t.data_location == 1:  # EXTERNAL: onnx.load has read it into raw_data, or failed
        if not t.HasField("raw_data"):
            problems.append(f"{where}: its data is in an external file that was not read")
            return
    dims = list(t.dims)
    if any(d < 0 for d in dims):
        problems.append(f"{where}: dims {dims} has a negative dimension")
        return
    itemsize = _np_type(t.data_type).itemsize
    if _tensor_bytes(dims, itemsize) > MAX_TENSOR_BYTES:
        problems.append(f"{where}: dims {dims} are more than the {MAX_TENSOR_BYTES} bytes a "
                        "tensor may have")
        return
    stored, need = _stored_values(t), _elements(dims)
    if stored != need:
        held = "a number of bytes that is not a multiple of the element size" if stored < 0 \
            else f"{stored} values"
        problems.append(f"{where} holds {held}; its dims {dims} need {need}")


def load_external_data(model, folder: str):
    """Reads the data of tensors kept in files beside the model (ONNX's external data): only
    regular files inside the model's folder, each range inside its file and no larger than a
    tensor may be; anything else is refused before a byte is read."""
    from onnx import external_data_helper
    tensors = [t for t in external_data_helper._get_all_tensors(model) if t.data_location == 1]
    if not tensors:
        return
    problems: List[str] = []
    top = os.path.realpath(folder)
    for t in tensors:
        info = {e.key: e.value for e in t.external_data}
        where = f"tensor '{t.name}': external data '{info.get('location', '')}'"
        location = info.get("location", "")
        path = os.path.realpath(os.path.join(top, location))
        if not location or os.path.isabs(location) or \
                not path.startswith(top + os.sep) or not os.path.isfile(path):
            problems.append(f"{where} is not a regular file inside the model's folder")
            continue
        try:
            offset, length = int(info.get("offset", 0)), info.get("length")
            length = os.path.getsize(path) - offset if length is None else int(length)
        except ValueError:
            problems.append(f"{where}: offset or length is not a number")
            continue
        if offset < 0 or length < 0 or offset + length > os.path.getsize(path) or \
                length > MAX_TENSOR_BYTES:
            problems.append(f"{where}: bytes {offset} to {offset + length} are not inside the "
                            f"file of {os.path.getsize(path)} bytes (or more than a tensor "
                            "may have)")
    raise_if(problems)
    try:
        external_data_helper.load_external_data_for_model(model, top)
    except OSError as e:
        raise ModelError([f"external data: {e}"]) from None


def _check_attribute_types(node, where: str, schema, problems: List[str]):
    for a in node.attribute:
        spec = schema.attributes.get(a.name)
        if spec is None:
            problems.append(f"{where}: attribute '{a.name}' is not an attribute of ONNX "
                            f"{node.op_type} (opset {schema.since_version})")
            continue
        if int(a.type) != int(spec.type):
            from onnx import AttributeProto
            problems.append(f"{where}: attribute {a.name} is "
                            f"{AttributeProto.AttributeType.Name(a.type)}, ONNX says "
                            f"{spec.type.name}")
    given = {a.name for a in node.attribute}
    for name, spec in schema.attributes.items():
        if spec.required and name not in given:
            problems.append(f"{where}: attribute {name} is required")


def _check_attribute_values(node, where: str, problems: List[str]):
    """Every attribute has a type and a value of it (any operator, any domain)."""
    from onnx import AttributeProto, helper
    for a in node.attribute:
        if a.type == AttributeProto.UNDEFINED:
            problems.append(f"{where}: attribute '{a.name}' has no type")
            continue
        try:
            helper.get_attribute_value(a)
        except Exception as e:  # noqa: BLE001 - onnx's reader of attribute values
            problems.append(f"{where}: attribute '{a.name}' cannot be read: "
                            f"{str(e).splitlines()[0]}")
            continue
        # ONNX's own operators' string attributes are text (mode, auto_pad, direction...);
        # protobuf keeps them as bytes, which the lowerings decode
        if node.domain in ("", "ai.onnx") and a.type in (AttributeProto.STRING,
                                                         AttributeProto.STRINGS):
            for value in ([a.s] if a.type == AttributeProto.STRING else list(a.strings)):
                try:
                    value.decode("utf-8")
                except UnicodeDecodeError:
                    problems.append(f"{where}: attribute '{a.name}' = {value!r} is not UTF-8 "
                                    "text")
                    break


# ONNX operators' INT attributes that are flags (0 or 1); a pass or a kernel reading one as
# "true when not 0" and another as "== 1" would disagree on any other value.
FLAG_ATTRIBUTES = frozenset((
    "transA", "transB", "keepdims", "ceil_mode", "count_include_pad", "allowzero",
    "noop_with_empty_axes", "select_last_index", "exclusive", "reverse", "largest", "sorted",
    "upper", "exclude_outside", "linear_before_reset", "input_forget", "saturate", "periodic",
    "onesided", "inverse", "detect_negative", "detect_positive", "center_point_box",
    "new_axis", "layout"))


def _check_window_attributes(node, where: str, problems: List[str]):
    """Attributes that shape inference and the kernels divide or loop by."""
    from onnx import AttributeProto
    for a in node.attribute:
        if a.name in ("kernel_shape", "strides", "dilations", "pads", "output_padding") and \
                a.type == AttributeProto.INTS:
            values = list(a.ints)
            low = 0 if a.name in ("pads", "output_padding") else 1
            bad = [v for v in values if not low <= v <= MAX_WINDOW]
            if bad:
                problems.append(f"{where}: attribute {a.name} = {values}: each must be "
                                f"{low} to {MAX_WINDOW} (not {bad[0]})")
            if a.name == "pads" and len(values) % 2:
                problems.append(f"{where}: attribute pads = {values} has an odd count "
                                "(a begin and an end per axis)")
        elif a.name in ("group", "blocksize") and a.type == AttributeProto.INT and a.i < 1:
            problems.append(f"{where}: attribute {a.name} = {a.i} (must be at least 1)")
        elif a.name in FLAG_ATTRIBUTES and a.type == AttributeProto.INT and a.i not in (0, 1):
            problems.append(f"{where}: attribute {a.name} = {a.i} (must be 0 or 1)")


def _check_node_signature(node, where: str, opset: int, problems: List[str]):
    """Inputs, outputs and attribute types against the operator's ONNX schema."""
    import onnx.defs
    try:
        schema = onnx.defs.get_schema(node.op_type, opset, "")
    except onnx.defs.SchemaError:
        problems.append(f"{where}: {node.op_type} is not an ONNX operator (opset {opset})")
        return
    optional = onnx.defs.OpSchema.FormalParameterOption.Optional
    variadic = onnx.defs.OpSchema.FormalParameterOption.Variadic
    if not schema.min_input <= len(node.input) <= schema.max_input:
        problems.append(f"{where}: {len(node.input)} inputs; ONNX {node.op_type} takes "
                        f"{schema.min_input} to {schema.max_input}")
    for i, name in enumerate(node.input):
        formal = schema.inputs[min(i, len(schema.inputs) - 1)] if schema.inputs else None
        if not name and formal is not None and formal.option != optional and \
                not (formal.option == variadic and i > 0):
            problems.append(f"{where}: input {i + 1} ({formal.name}) has an empty name "
                            "(only optional inputs may be omitted)")
    if not schema.min_output <= len(node.output) <= schema.max_output:
        problems.append(f"{where}: {len(node.output)} outputs; ONNX {node.op_type} has "
                        f"{schema.min_output} to {schema.max_output}")
    for i, name in enumerate(node.output):
        formal = schema.outputs[min(i, len(schema.outputs) - 1)] if schema.outputs else None
        if not name and formal is not None and formal.option != optional:
            problems.append(f"{where}: output {i + 1} ({formal.name}) has an empty name")
    _check_attribute_types(node, where, schema, problems)


def _sorted_nodes(graph, given: set, problems: List[str]) -> Optional[list]:
    """The nodes in an order where each is after the producers of its inputs (Kahn's
    algorithm, stable: a sorted graph keeps its order); None and a problem on a cycle."""
    nodes = list(graph.node)
    producer: Dict[str, int] = {}
    for i, n in enumerate(nodes):
        for o in n.output:
            if o:
                producer.setdefault(o, i)
    waiting = [0] * len(nodes)
    readers: Dict[int, List[int]] = {}
    for i, n in enumerate(nodes):
        for name in set(_node_reads(n)):
            p = producer.get(name)
            if p is not None and name not in given:
                waiting[i] += 1
                readers.setdefault(p, []).append(i)
    import heapq
    ready = [i for i in range(len(nodes)) if waiting[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for r in readers.get(i, ()):
            waiting[r] -= 1
            if waiting[r] == 0:
                heapq.heappush(ready, r)
    if len(order) != len(nodes):
        stuck = [i for i in range(len(nodes)) if waiting[i]]
        names = ", ".join(_where(nodes[i], i) for i in stuck[:5])
        more = f" and {len(stuck) - 5} more" if len(stuck) > 5 else ""
        problems.append(f"the graph has a cycle: {len(stuck)} node(s) wait for each other's "
                        f"outputs: {names}{more}")
        return None
    return [nodes[i] for i in order]


def _node_reads(node) -> List[str]:
    """The values a node reads: its inputs and what its subgraphs read from outside."""
    from onnx import AttributeProto
    names = [i for i in node.input if i]
    for a in node.attribute:
        graphs = [a.g] if a.type == AttributeProto.GRAPH else \
            list(a.graphs) if a.type == AttributeProto.GRAPHS else []
        for sub in graphs:
            inner = {v.name for v in sub.input} | {t.name for t in sub.initializer} | \
                {o for n in sub.node for o in n.output}
            for n in sub.node:
                names += [i for i in _node_reads(n) if i not in inner]
    return names


def _check_text(graph, problems: List[str]):
    """Every name is text: protobuf gives bytes for a string field that is not UTF-8."""
    def bad(value):
        return not isinstance(value, str)
    for what, values in (("graph input", graph.input), ("graph output", graph.output),
                         ("value", graph.value_info), ("initializer", graph.initializer)):
        for i, v in enumerate(values):
            if bad(v.name):
                problems.append(f"{what} {i + 1}: its name {v.name!r} is not UTF-8 text")
    for index, node in enumerate(graph.node):
        fields = [("name", node.name), ("op_type", node.op_type), ("domain", node.domain)]
        fields += [(f"input {i + 1}", v) for i, v in enumerate(node.input)]
        fields += [(f"output {i + 1}", v) for i, v in enumerate(node.output)]
        fields += [(f"attribute {i + 1}", a.name) for i, a in enumerate(node.attribute)]
        for field, value in fields:
            if bad(value):
                problems.append(f"node {index + 1}: its {field} {value!r} is not UTF-8 text")


def check_model(model, opset: int):
    """Checks an onnx.ModelProto before shape inference (see the module docstring) and sorts
    its nodes; raises ModelError listing every problem."""
    problems: List[str] = []
    if not model.HasField("graph") or not (model.graph.node or model.graph.output):
        raise ModelError(["the file holds no ONNX graph (no nodes and no outputs: empty or "
                          "not an ONNX model)"])
    graph = model.graph
    _check_text(graph, problems)
    raise_if(problems)
    if not graph.output:
        problems.append("the graph has no outputs")
    # Names and types of the graph's values.
    inits = set()
    for t in graph.initializer:
        _check_initializer(t, problems)
        if t.name in inits:
            problems.append(f"initializer '{t.name}' is given twice")
        inits.add(t.name)
    inputs = set()
    for i, vi in enumerate(graph.input):
        _check_value_info(vi, "graph input", i + 1, vi.name not in inits, problems)
        if vi.name and vi.name in inputs:
            problems.append(f"graph input '{vi.name}' is listed twice")
        inputs.add(vi.name)
    for i, vi in enumerate(graph.output):
        _check_value_info(vi, "graph output", i + 1, False, problems)
    for i, vi in enumerate(graph.value_info):
        _check_value_info(vi, "value", i + 1, False, problems)
    given = (inputs | inits) - {""}
    # Single assignment: one writer per value.
    writer: Dict[str, str] = {}
    for index, node in enumerate(graph.node):
        where = _where(node, index)
        _check_attribute_values(node, where, problems)
        if node.domain in ("", "ai.onnx"):
            _check_node_signature(node, where, opset, problems)
            _check_window_attributes(node, where, problems)
            if node.op_type == "Constant":
                for a in node.attribute:
                    if a.name == "value" and a.HasField("t"):
                        _check_initializer(a.t, problems, f"{where}: attribute value")
        for o in node.output:
            if not o:
                continue
            if o in given:
                what = "graph input" if o in inputs else "initializer"
                problems.append(f"{where}: output '{o}' is also a {what} (each value is "
                                "assigned once)")
            elif o in writer:
                problems.append(f"value '{o}' is written by {writer[o]} and by {where} (each "
                                "value is assigned once)")
            else:
                writer[o] = where
    # Every value read is produced or given.
    known = given | set(writer)
    for index, node in enumerate(graph.node):
        for name in _node_reads(node):
            if name not in known:
                problems.append(f"{_where(node, index)}: input '{name}' is not produced by any "
                                "node, graph input or initializer")
    for vi in graph.output:
        if vi.name and vi.name not in known:
            problems.append(f"graph output '{vi.name}' is not produced by any node, graph input "
                            "or initializer")
    raise_if(problems)
    order = _sorted_nodes(graph, given, problems)
    raise_if(problems)
    if any(a is not b for a, b in zip(order, graph.node)):
        copies = [type(n)() for n in order]
        for c, n in zip(copies, order):
            c.CopyFrom(n)
        del graph.node[:]
        graph.node.extend(copies)
    _check_window_input_ranks(graph, opset, problems)
    raise_if(problems)


# The data input of these operators is N x C x spatial...: rank 3 or more; the index of
# their weights input, whose rank is the data input's.
_WINDOW_DATA_OPS = ("Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool",
                    "AveragePool", "LpPool")
_WEIGHTS_INPUT = {"Conv": 1, "ConvTranspose": 1, "ConvInteger": 1, "QLinearConv": 3}


def _check_window_input_ranks(graph, opset: int, problems: List[str]):
    """A convolution's or pooling's data input whose rank is known before inference (the
    ranks of `ranks.value_ranks`: graph inputs, initializers and what nodes compute from
    them) must have a batch, a channel and a spatial axis, and a convolution's weights the
    data input's rank: ONNX 1.12's inference reads the kernel's sizes past the end of the
    data input's axes when the weights have more axes, and a ConvTranspose's channels past
    the end of weights of rank below 2 (SIGSEGV)."""
    from socsim_aot import ranks as rank_pass
    ranks = rank_pass.value_ranks(graph, opset)
    for index, node in enumerate(graph.node):
        if node.op_type not in _WINDOW_DATA_OPS or node.domain not in ("", "ai.onnx") or \
                not node.input:
            continue
        x = node.input[0]
        if ranks.get(x, 3) < 3:
            problems.append(f"{_where(node, index)}: input '{x}' has rank {ranks[x]}; a "
                            f"{node.op_type}'s data input is N x C x spatial axes (rank 3 "
                            "or more)")
            continue
        w = node.input[_WEIGHTS_INPUT[node.op_type]] \
            if len(node.input) > _WEIGHTS_INPUT.get(node.op_type, len(node.input)) else ""
        if w and x in ranks and w in ranks and ranks[w] != ranks[x]:
            problems.append(f"{_where(node, index)}: weights '{w}' have rank {ranks[w]}, "
                            f"input '{x}' rank {ranks[x]}; a {node.op_type}'s weights have "
                            "the data input's rank (two axes of channels, then the kernel's)")


def for_inference(model):
    """The model as ONNX shape inference may see it: a convolution without kernel_shape
    whose weights' rank is known gets the weights' kernel as kernel_shape, so that inference
    compares its length with the input's spatial axes (without it, ONNX 1.12 reads the
    weights' kernel past the end of the input's axes when the ranks differ: SIGSEGV)."""
    graph = model.graph
    dims = {t.name: list(t.dims) for t in graph.initializer}
    for vi in list(graph.input) + list(graph.value_info):
        t = vi.type.tensor_type
        if vi.type.HasField("tensor_type") and t.HasField("shape") and \
                all(d.HasField("dim_value") for d in t.shape.dim):
            dims.setdefault(vi.name, [d.dim_value for d in t.shape.dim])
    for n in graph.node:
        if n.op_type == "Constant" and n.output:
            for a in n.attribute:
                if a.name == "value" and a.HasField("t"):
                    dims[n.output[0]] = list(a.t.dims)
    weights = _WEIGHTS_INPUT

    def needs_kernel(n):
        return n.op_type in weights and n.domain in ("", "ai.onnx") and \
            not any(a.name == "kernel_shape" for a in n.attribute) and \
            len(n.input) > weights[n.op_type] and n.input[weights[n.op_type]] in dims
    if not any(needs_kernel(n) for n in graph.node):
        return model
    import onnx
    from onnx import helper
    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    for n in copy.graph.node:
        if needs_kernel(n):
            kernel = dims[n.input[weights[n.op_type]]][2:]
            n.attribute.append(helper.make_attribute("kernel_shape", kernel))
    return copy


# ---- the front end's graph, shapes known -------------------------------------------------------

def _ints(value) -> Optional[List[int]]:
    return None if value is None else [int(v) for v in np.asarray(value).reshape(-1)]


def _check_window(g, n, problems: List[str], x, kernel, what: str):
    """Attribute lengths and the output size of a convolution or pooling window."""
    a, spatial = n.attrs, len(x) - 2
    for name, count in (("kernel_shape", spatial), ("strides", spatial),
                        ("dilations", spatial), ("pads", 2 * spatial)):
        if name in a and len(a[name]) != count:
            problems.append(f"{n.where}: attribute {name} = {list(a[name])} has "
                            f"{len(a[name])} values; the {spatial}-d {what} needs {count}")
            return
    if a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        return
    dilations = a.get("dilations", [1] * spatial)
    pads = a.get("pads", [0] * (2 * spatial))
    for i in range(spatial):
        extent = dilations[i] * (kernel[i] - 1) + 1
        if x[2 + i] + pads[i] + pads[i + spatial] < extent:
            problems.append(f"{n.where}: the {what} window {list(kernel)} (dilations "
                            f"{list(dilations)}) is larger than the padded input {list(x)}")
            return


def _check_conv(g, n, problems: List[str]):
    x, w = g.shape(n.inputs[0]), g.shape(n.inputs[1]) if len(n.inputs) > 1 else None
    if x is None or w is None:
        return
    a = n.attrs
    group = a.get("group", 1)
    if len(w) != len(x) or len(x) < 3:
        problems.append(f"{n.where}: input {x} and weights {w} must have one rank of at least "
                        "3 (N, C, spatial axes)")
        return
    if "kernel_shape" in a and list(a["kernel_shape"]) != list(w[2:]):
        problems.append(f"{n.where}: attribute kernel_shape = {list(a['kernel_shape'])} "
                        f"contradicts the weights' kernel {list(w[2:])}")
    if x[1] != w[1] * group:
        problems.append(f"{n.where}: the input has {x[1]} channels; the weights {w} with "
                        f"attribute group = {group} need {w[1] * group}")
    if w[0] % group:
        problems.append(f"{n.where}: attribute group = {group} does not divide the "
                        f"{w[0]} output channels")
    b = g.shape(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else None
    if b is not None and b != [w[0]]:
        problems.append(f"{n.where}: bias '{n.inputs[2]}' has shape {b}; the weights need "
                        f"[{w[0]}]")
    _check_window(g, n, problems, x, w[2:], "convolution")


def _check_pool(g, n, problems: List[str]):
    if n.op_type == "MaxPool" and len(n.outputs) > 1 and n.outputs[1]:
        problems.append(f"{n.where}: MaxPool's second output (Indices) is not supported")
    x = g.shape(n.inputs[0])
    if x is None:
        return
    if len(x) < 3:
        problems.append(f"{n.where}: input {x} has no spatial axes")
        return
    kernel = n.attrs.get("kernel_shape")
    if kernel is None:
        problems.append(f"{n.where}: attribute kernel_shape is required")
        return
    _check_window(g, n, problems, x, list(kernel), "pooling")
    _check_ceil_mode_rows(g, n, problems, x, list(kernel))


def _check_ceil_mode_rows(g, n, problems: List[str], x, kernel):
    """With ceil_mode, a last window that would start in the end padding is dropped (the
    kernels' window_out, as onnxruntime and torch count); ONNX 1.12's shape inference counts
    it. A model where the two differ (end padding of a window's size or more) would give the
    program one output size and its kernels another: refused."""
    from socsim_aot.schema.conv import window_out
    y = g.shape(n.outputs[0])
    a = n.attrs
    if not a.get("ceil_mode", 0) or y is None or len(y) != len(x) or \
            a.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        return
    spatial = len(x) - 2
    strides = a.get("strides", [1] * spatial)
    dilations = a.get("dilations", [1] * spatial)
    pads = a.get("pads", [0] * (2 * spatial))
    if len(strides) != spatial or len(dilations) != spatial or len(pads) != 2 * spatial:
        return
    counted = [window_out(x[2 + i], kernel[i], strides[i], pads[i], pads[i + spatial],
                          dilations[i], True) for i in range(spatial)]
    if counted != list(y[2:]):
        problems.append(f"{n.where}: with ceil_mode the last window of an axis starts in the "
                        f"end padding (pads {list(pads)}): ONNX's shape inference gives "
                        f"{list(y[2:])}, the kernels, which drop such a window as onnxruntime "
                        f"does, {counted}")


def _check_axis(n, rank: int, problems: List[str], name: str = "axis", default=None):
    axis = n.attrs.get(name, default)
    if axis is not None and not -rank <= axis < rank:
        problems.append(f"{n.where}: attribute {name} = {axis} is outside the rank-{rank} "
                        f"input (-{rank} to {rank - 1})")
        return False
    return True


def _check_gather(g, n, problems: List[str]):
    x = g.shape(n.inputs[0])
    if x is None:
        return
    if not x:
        problems.append(f"{n.where}: input '{n.inputs[0]}' is a scalar")
        return
    if not _check_axis(n, len(x), problems, default=0):
        return
    size = x[n.attrs.get("axis", 0) % len(x)]
    idx = g.const(n.inputs[1])
    if idx is None:
        return
    if not np.issubdtype(idx.dtype, np.integer):
        problems.append(f"{n.where}: indices '{n.inputs[1]}' are {idx.dtype}, not integers")
        return
    bad = idx[(idx < -size) | (idx >= size)]
    if bad.size:
        problems.append(f"{n.where}: index {int(bad.reshape(-1)[0])} is out of range for axis "
                        f"{n.attrs.get('axis', 0)} of size {size} ({bad.size} such indices)")


def _check_reshape(g, n, problems: List[str]):
    shape = g.const(n.inputs[1]) if len(n.inputs) > 1 else None
    if shape is not None and not np.issubdtype(shape.dtype, np.integer):
        problems.append(f"{n.where}: shape '{n.inputs[1]}' is {shape.dtype}, not int64")
        return
    x, target = g.shape(n.inputs[0]), _ints(shape)
    if x is None or target is None:
        return
    if not n.attrs.get("allowzero", 0):
        if any(s == 0 and i >= len(x) for i, s in enumerate(target)):
            problems.append(f"{n.where}: shape {target} copies (0) an axis the input {x} has "
                            "not")
            return
        target = [x[i] if s == 0 else s for i, s in enumerate(target)]
    count = _elements(x)
    if any(s < -1 for s in target) or target.count(-1) > 1:
        problems.append(f"{n.where}: shape {target} may have one -1 and no other negative "
                        "value")
        return
    known = _elements(s for s in target if s != -1)
    if (-1 in target and (known == 0 or count % known)) or \
            (-1 not in target and known != count):
        problems.append(f"{n.where}: cannot reshape {x} ({count} elements) to {target}")


def _check_same_types(g, n, problems: List[str]):
    names = [i for i in n.inputs if i]
    if n.op_type == "Gemm":
        names = names[:2]
    types = [(i, g.type_name(i)) for i in names]
    known = [(i, t) for i, t in types if t is not None]
    if len({t for _, t in known}) > 1:
        listed = ", ".join(f"'{i}' {t}" for i, t in known)
        problems.append(f"{n.where}: inputs of different element types: {listed}")


def _check_value_sizes(g, n, problems: List[str]):
    for o in n.outputs:
        t = g.types.get(o) if o else None
        if t is None or not t.static or t.dtype is None:
            continue
        if any(d < 0 for d in t.shape):
            problems.append(f"{n.where}: output '{o}' has shape {t.shape} with a negative "
                            "dimension")
            continue
        nbytes = _tensor_bytes(t.shape, np.dtype(t.dtype).itemsize)
        if nbytes > MAX_TENSOR_BYTES:
            problems.append(f"{n.where}: output '{o}' has shape {t.shape}: "
                            f"{_elements(t.shape)} elements, {nbytes} bytes, more than the "
                            f"{MAX_TENSOR_BYTES} bytes a tensor may have")


def _check_matmul(g, n, problems: List[str]):
    a, b = (g.shape(i) for i in n.inputs[:2])
    if a is None or b is None:
        return
    if n.op_type == "Gemm":
        if len(a) != 2 or len(b) != 2:
            problems.append(f"{n.where}: inputs {a} and {b} must be matrices (rank 2)")
            return
        k_a = a[0] if n.attrs.get("transA", 0) else a[1]
        k_b = b[1] if n.attrs.get("transB", 0) else b[0]
        m = a[1] if n.attrs.get("transA", 0) else a[0]
        cols = b[0] if n.attrs.get("transB", 0) else b[1]
        c = g.shape(n.inputs[2]) if len(n.inputs) > 2 and n.inputs[2] else None
        if c is not None and (len(c) > 2 or any(
                d not in (1, want) for d, want in zip(reversed(c), (cols, m)))):
            problems.append(f"{n.where}: C '{n.inputs[2]}' has shape {c}, which does not "
                            f"broadcast to the output [{m}, {cols}]")
    else:
        if not a or not b:
            problems.append(f"{n.where}: inputs {a} and {b}: MatMul has no scalar operands")
            return
        k_a, k_b = a[-1], (b[-2] if len(b) > 1 else b[0])
    if k_a != k_b:
        problems.append(f"{n.where}: inputs {a} and {b} do not multiply: {k_a} columns "
                        f"against {k_b} rows")


def _check_clip(g, n, problems: List[str]):
    for name, what in zip(n.inputs[1:3], ("min", "max")):
        s = g.shape(name) if name else None
        if s is not None and _elements(s) != 1:
            problems.append(f"{n.where}: {what} '{name}' has shape {s}; it must be a scalar")


def _check_global_pool(g, n, problems: List[str]):
    x = g.shape(n.inputs[0])
    if x is not None and len(x) < 3:
        problems.append(f"{n.where}: input {x} has no spatial axes (N, C, spatial...)")


def _check_batch_norm(g, n, problems: List[str]):
    x = g.shape(n.inputs[0])
    if x is None or len(x) < 2:
        return
    for name, what in zip(n.inputs[1:5], ("scale", "bias", "mean", "variance")):
        s = g.shape(name)
        if s is not None and s != [x[1]]:
            problems.append(f"{n.where}: {what} '{name}' has shape {s}; the input's {x[1]} "
                            f"channels need [{x[1]}]")


def _check_resize(g, n, problems: List[str]):
    """Resize: constant scales finite and positive (a scale of 0 or below, NaN or inf makes an
    empty, negative or unbounded output), one per axis; constant sizes positive."""
    x = g.shape(n.inputs[0]) if n.inputs else None
    for index, what in ((2, "scales"), (3, "sizes")):
        value = g.const(n.inputs[index]) if len(n.inputs) > index and n.inputs[index] else None
        if value is None or value.size == 0:
            continue
        flat = value.reshape(-1)
        if x is not None and flat.size != len(x):
            problems.append(f"{n.where}: {what} '{n.inputs[index]}' has {flat.size} values "
                            f"for the rank-{len(x)} input {x}")
            continue
        if not (np.issubdtype(flat.dtype, np.integer) or np.issubdtype(flat.dtype, np.floating)):
            problems.append(f"{n.where}: {what} '{n.inputs[index]}' are {flat.dtype}")
            continue
        with np.errstate(invalid="ignore"):
            bad = [i for i, v in enumerate(flat.tolist()) if not (np.isfinite(v) and v > 0)]
        if bad:
            i = bad[0]
            problems.append(f"{n.where}: {what} '{n.inputs[index]}' = {flat.tolist()}: axis {i} "
                            f"has {what[:-1]} {flat[i]}; each must be finite and above 0")
            continue
        if x is not None and what == "scales":
            big = [i for i, (d, v) in enumerate(zip(x, flat.tolist())) if d * v >= 2 ** 31]
            if big:
                i = big[0]
                problems.append(f"{n.where}: scales '{n.inputs[index]}' = {flat.tolist()}: "
                                f"axis {i} of size {x[i]} scaled by {flat[i]} is beyond 2^31")


CHECKS = {"Conv": _check_conv, "Gemm": _check_matmul, "MatMul": _check_matmul,
          "BatchNormalization": _check_batch_norm, "MaxPool": _check_pool,
          "AveragePool": _check_pool, "GlobalAveragePool": _check_global_pool,
          "GlobalMaxPool": _check_global_pool, "Clip": _check_clip, "Gather": _check_gather,
          "Reshape": _check_reshape, "Resize": _check_resize}
AXIS_OPS = {"Concat": None, "Softmax": -1, "LogSoftmax": -1, "Hardmax": -1, "Flatten": 1,
            "Split": 0, "LayerNormalization": -1}


def check_graph(g):
    """Checks the front end's graph once shapes are inferred (see the module docstring)."""
    problems: List[str] = []
    for n in g.nodes:
        if n.domain:
            continue
        check = CHECKS.get(n.op_type)
        if check is not None:
            check(g, n, problems)
        if n.op_type in SAME_TYPE_OPS:
            _check_same_types(g, n, problems)
        if n.op_type in AXIS_OPS and n.inputs:
            x = g.shape(n.inputs[0])
            if x is not None:
                rank = len(x) + (1 if n.op_type == "Flatten" else 0)
                _check_axis(n, rank, problems, default=AXIS_OPS[n.op_type])
        if n.op_type == "Transpose" and "perm" in n.attrs and g.shape(n.inputs[0]) is not None:
            rank = len(g.shape(n.inputs[0]))
            if sorted(n.attrs["perm"]) != list(range(rank)):
                problems.append(f"{n.where}: attribute perm = {list(n.attrs['perm'])} is not a "
                                f"permutation of the rank-{rank} input's axes")
        _check_value_sizes(g, n, problems)
    raise_if(problems)


def check_finite(g):
    """int8 quantisation: every floating-point constant a node reads is finite."""
    problems: List[str] = []
    seen = set()
    for n in g.nodes:
        for name in n.inputs:
            c = g.const(name)
            if c is None or name in seen or not np.issubdtype(c.dtype, np.floating):
                continue
            seen.add(name)
            bad = int(np.count_nonzero(~np.isfinite(c)))
            if bad:
                problems.append(f"constant '{name}' (read by {n.where}) has {bad} NaN or "
                                "infinite value(s): int8 quantisation needs finite constants")
    raise_if(problems)
