"""NPU partitioning: moves runs of NPU-capable int8 operators into NPU delegate segments.

After quantisation, every operator the NPU preset lists (configs/npu/*.yaml, `operators`)
becomes a layer descriptor (docs/npu.md); an add or mul whose first input is a per-channel
operand takes its inputs the other way round; a following ReLU is fused into an elementwise add
(convolutions and fully connected layers already carry their fused ReLU/Clip bounds); a table
lookup (sigmoid, SiLU, HardSwish, ...) that is the only reader of a convolution's, fully
connected layer's, add's or mul's output becomes that layer's post-op (its lookup stage,
the table in the descriptor's table slot). Each
maximal run of consecutive NPU layers becomes one delegate call of backend "npu": its inputs
are the tensors the run reads from outside (activations and constants: weights, biases,
requantisation tables), its outputs every tensor the run writes, so the memory planner gives
intermediate results their place. Everything else stays with the CPU kernels.

The blob of a segment: its header (layouts.NPU_BLOB_HEADER: magic "NPU1", version, layer
count, descriptor size), then the descriptors (layouts.NPU_DESCRIPTOR), whose address fields
hold indices into the delegate call's tensor list (inputs, then outputs; NPU_NO_TENSOR when
unused). The firmware backend replaces them with the tensors' addresses at execution. Which
operator runs as which NPU layer, its operands' address slots and the argument list all come
from the operator schema (socsim_schema/; the hooks in socsim_aot/schema/).
"""

import os
from typing import Dict, List, Optional

import numpy as np

from socsim_aot import ir, schema
from socsim_schema import layouts
from socsim_aot.schema.activations import RELU, is_lookup

BACKEND_ID = "npu"
HEADER = layouts.NPU_BLOB_HEADER
DESCRIPTOR = layouts.NPU_DESCRIPTOR
SLOTS = layouts.NPU_SLOTS


class NpuConfigError(Exception):
    """An NPU preset the compiler cannot use; the message names the file and key."""


_PRESET_OPERATORS = {}  # (path, size, mtime) -> frozenset: a compilation reads its preset often


def load_npu_operators(path: str) -> set:
    """The operator classes an NPU preset lists (the simulator checks the rest of the file).
    A file read before and not changed since (same size and modification time) is not read
    again."""
    import yaml
    try:
        st = os.stat(path)
        key = (os.path.abspath(path), st.st_size, st.st_mtime_ns)
        if key in _PRESET_OPERATORS:
            return set(_PRESET_OPERATORS[key])
        with open(path) as f:
            data = yaml.safe_load(f)
    except OSError as e:
        raise NpuConfigError(f"{path}: cannot read NPU preset: {e.strerror}") from None
    except yaml.YAMLError as e:
        raise NpuConfigError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("operators"), list):
        raise NpuConfigError(f"{path}: key 'operators' must be a list of operator classes")
    operators = set(data["operators"])
    _PRESET_OPERATORS[key] = frozenset(operators)
    return operators


def operator_class(g, node) -> Optional[str]:
    """The preset's class name of a node ("conv2d", "depthwise_conv2d", ...), or None when
    the NPU cannot run it (float, plain integer arithmetic, not an NPU operator)."""
    op = schema.get(node.op)
    if op.npu is None:
        return None
    y = g.values[node.outputs[0]]
    x = g.value(node.inputs[0])
    if y.dtype != np.int8 or y.scale <= 0 or np.dtype(x.dtype).name not in op.dtypes or \
            np.dtype(x.dtype) not in (np.int8, np.uint8):
        return None
    return op.npu_accepts(g, node) if op.npu_accepts is not None else op.npu.classes[0]


def _fuse_add_relu(g, nodes):
    """add followed by its only consumer relu: the relu's bound goes into the add."""
    for node in list(nodes):
        if node.op != schema.elementwise.QUANTIZED_ADD.name or node not in g.nodes:
            continue
        out = node.outputs[0]
        users = g.consumers(out)
        if len(users) != 1 or out in g.outputs or \
                users[0].op not in (RELU.name, RELU.quantized):
            continue
        node.attrs["fused_relu"] = True
        node.outputs = users[0].outputs
        g.nodes.remove(users[0])


def _per_channel_operand_second(g) -> int:
    """A quantised add or mul whose first input is the per-channel operand (torchvision's
    squeeze-and-excitation computes `scale * x`) takes its inputs the other way round: both
    operators are commutative, their arguments follow the inputs' order, and the NPU's
    per-channel operand is the second input. Returns how many were turned."""
    count = 0
    binary = (schema.elementwise.QUANTIZED_ADD.name, schema.elementwise.QUANTIZED_MUL.name)
    for node in g.nodes:
        if node.op in binary and schema.elementwise.per_channel_operand(
                g.value(node.inputs[1]).shape, g.value(node.inputs[0]).shape):
            node.inputs = [node.inputs[1], node.inputs[0]]
            count += 1
    return count


# Layers with a requantised output stage, which a lookup stage can follow.
_POST_OP_HOSTS = (schema.conv.QUANTIZED_CONVOLUTION.name, schema.conv.QUANTIZED_LINEAR.name,
                  schema.elementwise.QUANTIZED_ADD.name, schema.elementwise.QUANTIZED_MUL.name)


def _fuse_lookup(g, nodes, operators: set) -> int:
    """A lookup whose input only a host layer (_POST_OP_HOSTS) on the NPU writes and only it
    reads becomes the layer's post-op: the layer requantises to the lookup's input
    quantisation (`requantised_output`), its table is the lookup's (the CPU kernel's, one
    table), its output the lookup's. Returns how many were fused."""
    count = 0
    for node in list(nodes):
        if node.op not in _POST_OP_HOSTS or node not in g.nodes or "post_op" in node.attrs:
            continue
        out = node.outputs[0]
        users = g.consumers(out)
        if len(users) != 1 or out in g.outputs or users[0].inputs[0] != out or \
                not is_lookup(schema.get(users[0].op)) or \
                operator_class(g, users[0]) not in operators:
            continue
        lookup = users[0]
        node.attrs["post_op"] = lookup.op
        node.attrs["requantised_output"] = out
        node.inputs = node.inputs + [lookup.inputs[1]]  # the table, after the operator's own
        node.outputs = lookup.outputs
        g.nodes.remove(lookup)
        count += 1
    return count


def _node_name(node) -> str:
    where = node.where
    if "'" in where:
        where = where.split("'")[1]
    return where[:layouts.NPU_NAME_SIZE - 1]


def _shapes(g, node):
    """The descriptor's input, second-operand and output shapes (4-D)."""
    op = schema.get(node.op)
    if op.npu_shapes is not None:
        return op.npu_shapes(g, node)
    in1 = [0, 0, 0, 0]
    for i, operand in enumerate(op.inputs):
        if operand.npu_slot == "weights":
            in1 = ir.shape4(g.value(node.inputs[i]).shape)
    return (ir.shape4(g.value(node.inputs[0]).shape), in1,
            ir.shape4(g.values[node.outputs[0]].shape))


def descriptor(g, node, args: List[int], slots: List[int]) -> bytes:
    """One layer descriptor; `slots` = tensor indices per address slot (NPU_NO_TENSOR when
    unused)."""
    op = schema.get(node.op)
    in_shape, in1_shape, out_shape = _shapes(g, node)
    if len(args) > layouts.NPU_MAX_ARGS:
        raise ValueError(f"{node.where}: {len(args)} arguments do not fit a descriptor")
    name = _node_name(node).encode("ascii", "replace")[:layouts.NPU_NAME_SIZE - 1]
    dtype = np.dtype(g.value(node.inputs[0]).dtype).name  # int8, or uint8 for a model input
    post_op = schema.get(node.attrs["post_op"]).npu.opcode if "post_op" in node.attrs else 0
    return DESCRIPTOR.pack(op=op.npu.opcode, dtype=layouts.DTYPE_CODES[dtype], post_op=post_op,
                           arg_count=len(args), addr=slots, in_shape=in_shape,
                           in1_shape=in1_shape, out_shape=out_shape, args=args, name=name)


def _flatten_into_linear(g, operators: set) -> int:
    """A reshape between two NPU layers that only feeds fully connected layers (the
    classifier's flatten after the global average pool) goes: a fully connected layer reads
    its rows x features from the bytes as they are, so the layers read the reshape's input and
    one delegate call runs both (no CPU copy between two calls). Returns how many went."""
    count = 0
    for node in list(g.nodes):
        if node.op != schema.data_movement.VIEW_COPY.name:
            continue
        x, y = g.resolve(node.inputs[0]), node.outputs[0]
        users = g.consumers(y)
        producers = [n for n in g.nodes if x in n.outputs]
        if y in g.outputs or x in g.inputs or not users or len(producers) != 1 or \
                operator_class(g, producers[0]) not in operators or len(g.consumers(x)) != 1:
            continue
        features = [g.value(u.inputs[1]).shape[1] if u.op == schema.conv.QUANTIZED_LINEAR.name
                    else None for u in users]
        rows = int(np.prod(g.values[y].shape[:-1], dtype=np.int64))
        if any(f is None or operator_class(g, u) not in operators or u.inputs[0] != y
               for f, u in zip(features, users)) or \
                any(rows * f != int(np.prod(g.values[x].shape, dtype=np.int64))
                    for f in features):
            continue
        for u in users:
            u.inputs[0] = x
        g.nodes.remove(node)
        count += 1
    return count


def partition(g, operators: set) -> List[List]:
    """Marks NPU-capable nodes and returns the segments (lists of consecutive nodes)."""
    _flatten_into_linear(g, operators)
    _per_channel_operand_second(g)
    capable = [n for n in g.nodes if operator_class(g, n) in operators]
    _fuse_add_relu(g, capable)
    _fuse_lookup(g, capable, operators)
    segments, current = [], []
    for node in g.nodes:
        if operator_class(g, node) in operators:
            current.append(node)
        elif current:
            segments.append(current)
            current = []
    if current:
        segments.append(current)
    segments = [part for seg in segments for part in _split_to_fit(g, seg)]
    for index, seg in enumerate(segments):
        for node in seg:
            node.attrs["npu_segment"] = index
    return segments


# A delegate call's tensors: the instruction record counts inputs and outputs in a u8 each.
MAX_CALL_TENSORS = (1 << 8 * layouts.INSTRUCTION_RECORD.field("input_count").size) - 1


def _call_tensors(g, seg):
    """The inputs and outputs of a segment's delegate call (value names, in order)."""
    produced = [g.resolve(o) for node in seg for o in node.outputs]
    inputs: List[str] = []
    for node in seg:
        for name in node.inputs:
            name = g.resolve(name)
            if name not in produced and name not in inputs:
                inputs.append(name)
    return inputs, produced


def _split_to_fit(g, seg) -> List[List]:
    """A segment cut into consecutive parts whose calls each have at most MAX_CALL_TENSORS
    inputs and outputs (a whole EfficientNet on the NPU reads ~300 weight, bias,
    requantisation and table tensors)."""
    parts, current, inputs, produced = [], [], set(), set()
    for node in seg:
        outs = {g.resolve(o) for o in node.outputs}
        ins = {g.resolve(i) for i in node.inputs} - produced - outs
        if current and max(len(inputs | ins), len(produced | outs)) > MAX_CALL_TENSORS:
            parts.append(current)
            current, inputs, produced = [], set(), set()
            ins = {g.resolve(i) for i in node.inputs} - outs
        current.append(node)
        inputs |= ins
        produced |= outs
    return parts + [current] if current else parts


def segment_call(g, seg, tid, args_of) -> (List[int], List[int], bytes):
    """The delegate call of a segment: input tensor ids, output tensor ids and the blob.
    `tid(name)` gives a value's tensor id, `args_of(node)` a node's CPU-kernel arguments."""
    inputs, outputs = _call_tensors(g, seg)
    index: Dict[str, int] = {}
    for i, name in enumerate(inputs + outputs):
        index[name] = i
    blob = HEADER.pack(magic=layouts.NPU_BLOB_MAGIC, version=layouts.NPU_BLOB_VERSION,
                       layer_count=len(seg), descriptor_size=DESCRIPTOR.size)
    for node in seg:
        op = schema.get(node.op)
        slots = [layouts.NPU_NO_TENSOR] * len(SLOTS)
        for operand, name in zip(op.inputs, node.inputs):
            slots[SLOTS.index(operand.npu_slot)] = index[g.resolve(name)]
        slots[SLOTS.index(op.outputs[0].npu_slot)] = index[g.resolve(node.outputs[0])]
        if "post_op" in node.attrs:
            slots[SLOTS.index("table")] = index[g.resolve(node.inputs[len(op.inputs)])]
        blob += descriptor(g, node, list(args_of(node)), slots)
    return [tid(n) for n in inputs], [tid(n) for n in outputs], blob


# ---- reference execution of a blob (numpy), for tests and the reference executor -------------

def descriptor_where(k: int, d: dict) -> str:
    """`npu descriptor K (layer name)`, for messages."""
    name = d["name"].split(b"\0")[0].decode("ascii", "replace")
    return f"npu descriptor {k} ({name})" if name else f"npu descriptor {k}"


def _check_window(op, args, ins, shape, where):
    """A sliding-window layer (convolution, pooling): the output its arguments give must be
    the layer's output, checked before it runs (changed pads or strides would otherwise have
    the reference make an output of the size they say)."""
    from socsim_aot.schema.conv import as_nchw, window_out
    try:
        a = schema.unpack_args(op, args)
    except ValueError as e:
        raise ValueError(f"{where}: arg_count: {e}") from None
    if not hasattr(a, "stride_h"):
        return
    kh, kw = (a.kernel_h, a.kernel_w) if hasattr(a, "kernel_h") else ins[1].shape[-2:]
    dh, dw = getattr(a, "dilation_h", 1), getattr(a, "dilation_w", 1)
    if min(kh, kw, a.stride_h, a.stride_w, dh, dw) <= 0 or \
            min(a.pad_top, a.pad_left, a.pad_bottom, a.pad_right) < 0:
        raise ValueError(f"{where}: args: window {kh}x{kw}, stride "
                         f"{a.stride_h}x{a.stride_w}, dilation {dh}x{dw}, pads "
                         f"{[a.pad_top, a.pad_left, a.pad_bottom, a.pad_right]}")
    x, y = as_nchw(ins[0].shape), as_nchw(shape)
    ceil = bool(getattr(a, "ceil_mode", 0))
    window = [window_out(x[2], kh, a.stride_h, a.pad_top, a.pad_bottom, dh, ceil),
              window_out(x[3], kw, a.stride_w, a.pad_left, a.pad_right, dw, ceil)]
    if window != y[2:]:
        raise ValueError(f"{where}: args: the window over {x[2]}x{x[3]} gives "
                         f"{window[0]}x{window[1]}, the output is {y[2]}x{y[3]}")


def run_blob(blob: bytes, tensors: List[np.ndarray], output_shapes: List[List[int]],
             run_operator) -> List[np.ndarray]:
    """Executes a segment's descriptors with the operators' reference semantics
    (`run_operator(name, inputs, args, out)`); `tensors` are the call's inputs; returns its
    outputs shaped as `output_shapes`. A version-2 blob (a `.pte` program's: npu_pte_blob)
    runs as the version-1 form it decodes to, so both run the same descriptors. A blob that
    does not hold together raises ValueError naming the field."""
    if len(blob) >= HEADER.size and \
            HEADER.unpack(blob)["version"] == layouts.NPU_BLOB_VERSION_SELF_CONTAINED:
        from socsim_aot import npu_pte_blob
        n_out = len(output_shapes)
        v1, constants, scratch = npu_pte_blob.decode(blob, len(tensors), n_out)
        return run_blob(v1, list(tensors) + constants, list(output_shapes) + scratch,
                        run_operator)[:n_out]
    if len(blob) < HEADER.size:
        raise ValueError("npu blob header (truncated)")
    h = HEADER.unpack(blob)
    count, size = h["layer_count"], h["descriptor_size"]
    if h["magic"] != layouts.NPU_BLOB_MAGIC:
        raise ValueError("npu blob magic")
    if h["version"] != layouts.NPU_BLOB_VERSION:
        raise ValueError(f"npu blob version {h['version']} (1 or 2)")
    if size != DESCRIPTOR.size:
        raise ValueError(f"npu blob descriptor_size {size}")
    if len(blob) != HEADER.size + count * size:
        raise ValueError(f"npu blob layer_count {count}: {count} descriptors make "
                         f"{HEADER.size + count * size} bytes, the blob has {len(blob)}")
    values = list(tensors) + [None] * len(output_shapes)
    n_in = len(tensors)
    for k in range(count):
        d = DESCRIPTOR.unpack(blob, HEADER.size + k * size)
        where = descriptor_where(k, d)
        try:
            op = schema.by_npu_opcode(d["op"])
            post = schema.by_npu_opcode(d["post_op"]) if d["post_op"] else None
        except KeyError as e:
            raise ValueError(f"{where}: {e.args[0]}") from None

        def value(slot):
            at = d["addr"][SLOTS.index(slot)]
            if at >= len(values) or values[at] is None:
                raise ValueError(f"{where}: addr.{slot} {at}: no tensor there")
            return values[at]
        ins = [value(o.npu_slot) for o in op.inputs]
        out_slot = d["addr"][SLOTS.index(op.outputs[0].npu_slot)]
        if not n_in <= out_slot < len(values):
            raise ValueError(f"{where}: addr.output {out_slot}: not an output of the call")
        shape = output_shapes[out_slot - n_in]

        class Out:
            pass
        out = Out()
        out.shape = list(shape)
        table = value("table") if post is not None else None
        _check_window(op, d["args"][:d["arg_count"]], ins, shape, where)
        try:
            result = run_operator(op.name, ins, d["args"][:d["arg_count"]], out)
            if post is not None:  # the lookup stage: the lookup operator on the layer's result
                result = run_operator(post.name, [np.asarray(result).reshape(shape), table],
                                      [], out)
            values[out_slot] = np.asarray(result).reshape(shape)
        except (ValueError, IndexError, TypeError, ZeroDivisionError, OverflowError) as e:
            raise ValueError(f"{where}: {op.name} does not run on its operands "
                             f"(shapes {[list(np.shape(x)) for x in ins]}, output {shape}): "
                             f"{e}") from None
    return values[n_in:]
