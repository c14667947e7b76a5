"""NPU partitioning: moves runs of NPU-capable int8 operators into NPU delegate segments.

After quantisation, every operator the NPU preset lists (configs/npu/*.yaml, `operators`)
becomes a layer descriptor (docs/npu.md); a following ReLU is fused into an elementwise add
(convolutions and fully connected layers already carry their fused ReLU/Clip bounds). Each
maximal run of consecutive NPU layers becomes one delegate call of backend "npu": its inputs
are the tensors the run reads from outside (activations and constants: weights, biases,
requantisation tables), its outputs every tensor the run writes, so the memory planner gives
intermediate results their place. Everything else stays with the CPU kernels.

The blob of a segment: magic "NPU1", version 1, layer count, descriptor size (176), then the
descriptors, whose address fields hold indices into the delegate call's tensor list (inputs,
then outputs; 0xFFFFFFFF when unused). The firmware backend replaces them with the tensors'
addresses at init.
"""

import struct
from typing import Dict, List, Optional

import numpy as np

BACKEND_ID = "npu"
MAGIC = b"NPU1"
VERSION = 1
DESCRIPTOR_SIZE = 176
HEADER_SIZE = 16
NO_TENSOR = 0xFFFFFFFF
DTYPE_INT8 = 2
NAME_SIZE = 32

OPCODES = {"conv2d": 1, "linear": 2, "add": 3, "mul": 4, "max_pool2d": 5, "avg_pool2d": 6,
           "global_avg_pool2d": 7}
OPERATOR_NAMES = {v: k for k, v in OPCODES.items()}


class NpuConfigError(Exception):
    """An NPU preset the compiler cannot use; the message names the file and key."""


def load_npu_operators(path: str) -> set:
    """The operator classes an NPU preset lists (the simulator checks the rest of the file)."""
    import yaml
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except OSError as e:
        raise NpuConfigError(f"{path}: cannot read NPU preset: {e.strerror}") from None
    except yaml.YAMLError as e:
        raise NpuConfigError(f"{path}: not valid YAML: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("operators"), list):
        raise NpuConfigError(f"{path}: key 'operators' must be a list of operator classes")
    return set(data["operators"])


def _operator_class(g, node) -> Optional[str]:
    """The preset's class name of a node ("conv2d", "depthwise_conv2d", ...), or None when
    the NPU cannot run it (float, plain integer arithmetic, broadcasting)."""
    y = g.values[node.outputs[0]]
    if y.dtype != np.int8 or y.scale <= 0:
        return None
    ins = [g.value(i) for i in node.inputs]
    if any(v.dtype != np.int8 for v in ins[:1]):
        return None
    if node.op == "conv2d":
        x = ins[0]
        groups = node.attrs["groups"]
        if groups > 1 and groups == x.shape[1] == y.shape[1]:
            return "depthwise_conv2d"
        return "conv2d"
    if node.op == "linear":
        return "linear"
    if node.op in ("add", "mul"):
        a, b = ins
        if a.const is not None or b.const is not None or a.scale <= 0 or b.scale <= 0:
            return None
        if not (list(a.shape) == list(b.shape) == list(y.shape)):
            return None
        return node.op
    if node.op in ("max_pool2d", "avg_pool2d", "global_avg_pool2d"):
        return node.op if len(y.shape) == 4 else None
    return None


def _fuse_add_relu(g, nodes):
    """add followed by its only consumer relu: the relu's bound goes into the add."""
    for node in list(nodes):
        if node.op != "add" or node not in g.nodes:
            continue
        out = node.outputs[0]
        users = g.consumers(out)
        if len(users) != 1 or out in g.outputs or users[0].op != "relu":
            continue
        node.attrs["fused_relu"] = True
        node.outputs = users[0].outputs
        g.nodes.remove(users[0])


def _shape4(shape: List[int]) -> List[int]:
    shape = list(shape)
    if len(shape) > 4:
        raise ValueError(f"shape {shape} has more than 4 dimensions")
    return [1] * (4 - len(shape)) + shape


def _node_name(node) -> str:
    where = node.where
    if "'" in where:
        where = where.split("'")[1]
    return where[:NAME_SIZE - 1]


def descriptor(g, node, args: List[int], slots: List[int]) -> bytes:
    """One layer descriptor; `slots` = tensor indices for input, weights, bias, requant,
    output (NO_TENSOR when unused)."""
    x = g.value(node.inputs[0])
    y = g.values[node.outputs[0]]
    op = OPCODES[node.op]
    if node.op == "linear":
        rows = int(np.prod(x.shape[:-1], dtype=np.int64))
        in_shape = [rows, x.shape[-1], 1, 1]
        w = g.value(node.inputs[1])
        in1_shape = [w.shape[0], w.shape[1], 1, 1]
        out_shape = [rows, y.shape[-1], 1, 1]
    else:
        in_shape = _shape4(x.shape)
        out_shape = _shape4(y.shape)
        if node.op == "conv2d":
            in1_shape = list(g.value(node.inputs[1]).shape)
        elif node.op in ("add", "mul"):
            in1_shape = _shape4(g.value(node.inputs[1]).shape)
        else:
            in1_shape = [0, 0, 0, 0]
    if len(args) > 16:
        raise ValueError(f"{node.where}: {len(args)} arguments do not fit a descriptor")
    name = _node_name(node).encode("ascii", "replace")[:NAME_SIZE - 1]
    data = struct.pack("<BBBBI", op, DTYPE_INT8, len(args), 0, 0)
    data += struct.pack("<5I", *slots) + struct.pack("<I", 0)
    data += struct.pack("<4I", *in_shape) + struct.pack("<4I", *in1_shape)
    data += struct.pack("<4I", *out_shape)
    data += struct.pack("<16i", *(list(args) + [0] * (16 - len(args))))
    data += name.ljust(NAME_SIZE, b"\0")
    assert len(data) == DESCRIPTOR_SIZE
    return data


def partition(g, operators: set) -> List[List]:
    """Marks NPU-capable nodes and returns the segments (lists of consecutive nodes)."""
    capable = [n for n in g.nodes if _operator_class(g, n) in operators]
    _fuse_add_relu(g, capable)
    segments, current = [], []
    for node in g.nodes:
        if _operator_class(g, node) in operators and node.op in OPCODES:
            current.append(node)
        elif current:
            segments.append(current)
            current = []
    if current:
        segments.append(current)
    for index, seg in enumerate(segments):
        for node in seg:
            node.attrs["npu_segment"] = index
    return segments


def segment_call(g, seg, tid, args_of) -> (List[int], List[int], bytes):
    """The delegate call of a segment: input tensor ids, output tensor ids and the blob.
    `tid(name)` gives a value's tensor id, `args_of(node)` a node's CPU-kernel arguments."""
    produced = []
    for node in seg:
        produced += [g.resolve(o) for o in node.outputs]
    inputs: List[str] = []
    for node in seg:
        for name in node.inputs:
            name = g.resolve(name)
            if name not in produced and name not in inputs:
                inputs.append(name)
    outputs = produced
    index: Dict[str, int] = {}
    for i, name in enumerate(inputs + outputs):
        index[name] = i
    blob = MAGIC + struct.pack("<III", VERSION, len(seg), DESCRIPTOR_SIZE)
    for node in seg:
        args = list(args_of(node))
        if node.attrs.get("fused_relu"):
            y = g.values[node.outputs[0]]
            args[6] = max(-128, y.zero_point)  # add: act_min
        ins = [index[g.resolve(n)] for n in node.inputs]
        slots = [NO_TENSOR] * 5
        slots[0] = ins[0]
        if node.op in ("conv2d", "linear"):
            slots[1], slots[2], slots[3] = ins[1], ins[2], ins[3]
        elif node.op in ("add", "mul"):
            slots[1] = ins[1]
        slots[4] = index[g.resolve(node.outputs[0])]
        blob += descriptor(g, node, args, slots)
    return [tid(n) for n in inputs], [tid(n) for n in outputs], blob


# ---- reference execution of a blob (numpy), for tests and the reference executor -------------

def run_blob(blob: bytes, tensors: List[np.ndarray], output_shapes: List[List[int]],
             operators) -> List[np.ndarray]:
    """Executes a segment's descriptors with the reference operators; `tensors` are the
    call's inputs; returns its outputs shaped as `output_shapes`."""
    magic, version, count, size = struct.unpack_from("<4sIII", blob, 0)
    if magic != MAGIC or version != VERSION or size != DESCRIPTOR_SIZE or \
            len(blob) != HEADER_SIZE + count * size:
        raise ValueError("npu: bad delegate blob")
    values = list(tensors) + [None] * len(output_shapes)
    n_in = len(tensors)
    for k in range(count):
        off = HEADER_SIZE + k * size
        op, _, arg_count, _ = struct.unpack_from("<BBBB", blob, off)
        slots = struct.unpack_from("<5I", blob, off + 8)
        out_shape = struct.unpack_from("<4I", blob, off + 0x40)
        args = list(struct.unpack_from("<16i", blob, off + 0x50))[:arg_count]
        name = OPERATOR_NAMES[op]
        ins = [values[s] for s in slots[:4] if s != NO_TENSOR]
        target = slots[4] - n_in
        shape = output_shapes[target]
        if name == "linear":
            ins[0] = ins[0].reshape(-1, ins[0].shape[-1])

        class Out:
            pass
        out = Out()
        out.shape = list(shape) if name != "linear" else [out_shape[0], out_shape[1]]
        result = operators[name](ins, args, out)
        values[slots[4]] = np.asarray(result).reshape(shape)
    return values[n_in:]
