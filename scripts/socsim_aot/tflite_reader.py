"""Reads a TensorFlow Lite model (`.tflite`) into plain Python records.

A `.tflite` file is a FlatBuffer with the file identifier `TFL3` (bytes 4..8) whose root table
is the `Model` of TensorFlow's published schema (tensorflow/compiler/mlir/lite/schema/
schema.fbs). This module reads the part of it an int8 model for a microcontroller uses: the
operator codes, the first subgraph's tensors (shape, type, buffer, quantisation, per-tensor or
per-axis), its operators (inputs, outputs, builtin options) and the constant buffers (inline,
or after the flatbuffer at an offset). Nothing of the FlatBuffers library is used: every read
is bounds-checked here, and a malformed file raises `TfliteError` with one line naming what is
wrong and where.

FlatBuffer encoding (flatbuffers.dev, "Internals"): little-endian; the file starts with the
u32 offset of the root table; a table starts with an i32 offset back to its vtable
(`vtable = table - soffset`); a vtable holds u16 its size, u16 the table's size, then one u16
per field, the field's offset inside the table (0: absent, the schema's default applies).
References to tables, vectors and strings are u32 offsets from where they are stored; a vector
or string is a u32 length followed by its elements (a string also by a NUL). A union is two
fields: a u8 type (0 NONE) and a reference to the member's table.
"""

import dataclasses
import struct
from typing import Dict, List, Optional

import numpy as np

IDENTIFIER = b"TFL3"
SCHEMA_VERSION = 3  # Model.version of current converters


class TfliteError(Exception):
    """A file that is not a readable TFLite model; the message is one line."""


# TensorType codes of schema.fbs and their numpy element types (those this reader keeps).
TENSOR_TYPES = {0: ("float32", np.float32), 2: ("int32", np.int32), 3: ("uint8", np.uint8),
                4: ("int64", np.int64), 6: ("bool", np.bool_), 7: ("int16", np.int16),
                9: ("int8", np.int8), 1: ("float16", np.float16), 10: ("float64", np.float64)}

# BuiltinOperator codes of schema.fbs (the ones this project knows by name; others are shown as
# their number in messages).
BUILTIN_OPERATORS = {
    0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D", 4: "DEPTHWISE_CONV_2D",
    6: "DEQUANTIZE", 9: "FULLY_CONNECTED", 14: "LOGISTIC", 17: "MAX_POOL_2D", 18: "MUL",
    19: "RELU", 21: "RELU6", 22: "RESHAPE", 23: "RESIZE_BILINEAR", 25: "SOFTMAX", 28: "TANH",
    32: "CUSTOM", 34: "PAD", 39: "TRANSPOSE", 40: "MEAN", 41: "SUB", 43: "SQUEEZE",
    45: "STRIDED_SLICE", 49: "SPLIT", 60: "PADV2", 67: "TRANSPOSE_CONV", 70: "EXPAND_DIMS",
    97: "RESIZE_NEAREST_NEIGHBOR", 98: "LEAKY_RELU", 102: "SPLIT_V", 114: "QUANTIZE",
    117: "HARD_SWISH",
}

# Builtin options: union type code -> (table name, {field: (slot, struct format, default)}).
_I, _B, _F, _Q = "<i", "<b", "<f", "<?"
OPTIONS = {
    1: ("Conv2DOptions", {"padding": (0, _B, 0), "stride_w": (1, _I, 0), "stride_h": (2, _I, 0),
                          "fused_activation": (3, _B, 0), "dilation_w": (4, _I, 1),
                          "dilation_h": (5, _I, 1)}),
    2: ("DepthwiseConv2DOptions", {"padding": (0, _B, 0), "stride_w": (1, _I, 0),
                                   "stride_h": (2, _I, 0), "depth_multiplier": (3, _I, 0),
                                   "fused_activation": (4, _B, 0), "dilation_w": (5, _I, 1),
                                   "dilation_h": (6, _I, 1)}),
    5: ("Pool2DOptions", {"padding": (0, _B, 0), "stride_w": (1, _I, 0), "stride_h": (2, _I, 0),
                          "filter_w": (3, _I, 0), "filter_h": (4, _I, 0),
                          "fused_activation": (5, _B, 0)}),
    8: ("FullyConnectedOptions", {"fused_activation": (0, _B, 0), "weights_format": (1, _B, 0),
                                  "keep_num_dims": (2, _Q, False)}),
    9: ("SoftmaxOptions", {"beta": (0, _F, 0.0)}),
    10: ("ConcatenationOptions", {"axis": (0, _I, 0), "fused_activation": (1, _B, 0)}),
    11: ("AddOptions", {"fused_activation": (0, _B, 0)}),
    15: ("ResizeBilinearOptions", {"align_corners": (2, _Q, False),
                                   "half_pixel_centers": (3, _Q, False)}),
    17: ("ReshapeOptions", {}),
    21: ("MulOptions", {"fused_activation": (0, _B, 0)}),
    22: ("PadOptions", {}),
    26: ("TransposeOptions", {}),
    27: ("ReducerOptions", {"keep_dims": (0, _Q, False)}),
    28: ("SubOptions", {"fused_activation": (0, _B, 0)}),
    32: ("StridedSliceOptions", {"begin_mask": (0, _I, 0), "end_mask": (1, _I, 0),
                                 "ellipsis_mask": (2, _I, 0), "new_axis_mask": (3, _I, 0),
                                 "shrink_axis_mask": (4, _I, 0), "offset": (5, _Q, False)}),
    35: ("SplitOptions", {"num_splits": (0, _I, 0)}),
    49: ("TransposeConvOptions", {"padding": (0, _B, 0), "stride_w": (1, _I, 0),
                                  "stride_h": (2, _I, 0), "fused_activation": (3, _B, 0)}),
    74: ("ResizeNearestNeighborOptions", {"align_corners": (0, _Q, False),
                                          "half_pixel_centers": (1, _Q, False)}),
    75: ("LeakyReluOptions", {"alpha": (0, _F, 0.0)}),
}

# ActivationFunctionType of schema.fbs.
ACTIVATIONS = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}
PADDINGS = {0: "SAME", 1: "VALID"}


@dataclasses.dataclass
class Tensor:
    index: int
    name: str
    shape: List[int]
    dtype: str  # "int8", "float32", ... (TENSOR_TYPES)
    buffer: int
    data: Optional[np.ndarray]  # the constant's values (shape applied), or None
    scale: Optional[np.ndarray]  # float32 per tensor (1 value) or per axis
    zero_point: Optional[np.ndarray]  # int64, as many as scale
    quantized_dimension: int

    @property
    def per_axis(self) -> bool:
        return self.scale is not None and self.scale.size > 1


@dataclasses.dataclass
class Operator:
    index: int
    opcode: str  # "CONV_2D", or "BUILTIN_<n>" / "CUSTOM:<name>"
    version: int
    inputs: List[int]  # tensor indices; -1: an omitted optional input
    outputs: List[int]
    options: Dict[str, object]

    @property
    def where(self) -> str:
        return f"operator {self.index} ({self.opcode})"


@dataclasses.dataclass
class Model:
    version: int
    description: str
    tensors: List[Tensor]
    operators: List[Operator]
    inputs: List[int]
    outputs: List[int]
    subgraph_count: int


def is_tflite(data: bytes) -> bool:
    return len(data) >= 8 and data[4:8] == IDENTIFIER


class _Reader:
    """Bounds-checked access to the bytes of one flatbuffer."""

    def __init__(self, data: bytes, what: str):
        self.data, self.what = data, what

    def fail(self, why: str):
        raise TfliteError(f"{self.what}: {why}")

    def scalar(self, fmt: str, pos: int, where: str):
        size = struct.calcsize(fmt)
        if pos < 0 or pos + size > len(self.data):
            self.fail(f"{where}: offset {pos} is outside the file ({len(self.data)} bytes)")
        return struct.unpack_from(fmt, self.data, pos)[0]

    def table(self, pos: int, where: str) -> "_Table":
        soffset = self.scalar("<i", pos, where)
        vtable = pos - soffset
        vsize = self.scalar("<H", vtable, where + " vtable")
        if vsize < 4 or vsize % 2 or vtable + vsize > len(self.data):
            self.fail(f"{where}: bad vtable at offset {vtable}")
        tsize = self.scalar("<H", vtable + 2, where + " vtable")
        if pos + tsize > len(self.data):
            self.fail(f"{where}: table at offset {pos} runs past the end of the file")
        return _Table(self, pos, vtable, vsize, where)

    def deref(self, pos: int, where: str) -> int:
        return pos + self.scalar("<I", pos, where)

    def vector(self, pos: int, elem_size: int, where: str):
        """(start, count) of the vector at pos."""
        count = self.scalar("<I", pos, where)
        if pos + 4 + count * elem_size > len(self.data):
            self.fail(f"{where}: a vector of {count} elements runs past the end of the file")
        return pos + 4, count


class _Table:
    def __init__(self, r: _Reader, pos: int, vtable: int, vsize: int, where: str):
        self.r, self.pos, self.vtable, self.vsize, self.where = r, pos, vtable, vsize, where

    def _field(self, slot: int) -> int:
        at = 4 + 2 * slot
        if at + 2 > self.vsize:
            return 0
        return self.r.scalar("<H", self.vtable + at, self.where)

    def scalar(self, slot: int, fmt: str, default):
        off = self._field(slot)
        return default if off == 0 else self.r.scalar(fmt, self.pos + off, self.where)

    def has(self, slot: int) -> bool:
        return self._field(slot) != 0

    def table(self, slot: int, what: str) -> Optional["_Table"]:
        off = self._field(slot)
        if off == 0:
            return None
        return self.r.table(self.r.deref(self.pos + off, self.where), f"{self.where} {what}")

    def _vector(self, slot: int, size: int, what: str):
        off = self._field(slot)
        if off == 0:
            return None
        return self.r.vector(self.r.deref(self.pos + off, self.where), size,
                             f"{self.where} {what}")

    def array(self, slot: int, dtype, what: str) -> Optional[np.ndarray]:
        dt = np.dtype(dtype).newbyteorder("<")
        vec = self._vector(slot, dt.itemsize, what)
        if vec is None:
            return None
        start, count = vec
        return np.frombuffer(self.r.data, dt, count, start).astype(np.dtype(dtype))

    def tables(self, slot: int, what: str) -> List["_Table"]:
        vec = self._vector(slot, 4, what)
        if vec is None:
            return []
        start, count = vec
        return [self.r.table(self.r.deref(start + 4 * i, self.where), f"{what} {i}")
                for i in range(count)]

    def string(self, slot: int, what: str) -> str:
        vec = self._vector(slot, 1, what)
        if vec is None:
            return ""
        start, count = vec
        try:
            return self.r.data[start:start + count].decode("utf-8")
        except UnicodeDecodeError:
            self.r.fail(f"{self.where} {what}: not UTF-8 text")


def read(data: bytes, what: str = "model") -> Model:
    """The model in `data` (the bytes of a .tflite file); `what` names it in messages."""
    r = _Reader(bytes(data), what)
    if len(data) < 8:
        r.fail(f"{len(data)} bytes are too few for a TFLite model")
    if data[4:8] != IDENTIFIER:
        r.fail(f"file identifier {bytes(data[4:8])!r} is not {IDENTIFIER!r} (not a TFLite model)")
    model = r.table(r.scalar("<I", 0, "root"), "Model")
    version = model.scalar(0, "<I", 0)
    if version != SCHEMA_VERSION:
        r.fail(f"schema version {version} is not supported (only {SCHEMA_VERSION})")
    codes = []
    for i, t in enumerate(model.tables(1, "operator_codes")):
        deprecated = t.scalar(0, "<b", 0)
        code = max(int(deprecated), int(t.scalar(3, "<i", 0)))
        name = BUILTIN_OPERATORS.get(code, f"BUILTIN_{code}")
        if code == 32:
            name = "CUSTOM:" + t.string(1, "custom_code")
        codes.append((name, int(t.scalar(2, "<i", 1))))
    buffers = model.tables(4, "buffers")
    subgraphs = model.tables(2, "subgraphs")
    if not subgraphs:
        r.fail("the model has no subgraph")
    sg = subgraphs[0]
    tensors = [_tensor(r, i, t, buffers) for i, t in enumerate(sg.tables(0, "tensors"))]
    operators = []
    for i, t in enumerate(sg.tables(3, "operators")):
        operators.append(_operator(r, i, t, codes, len(tensors)))
    inputs = _indices(r, sg.array(1, np.int32, "inputs"), len(tensors), "subgraph inputs")
    outputs = _indices(r, sg.array(2, np.int32, "outputs"), len(tensors), "subgraph outputs")
    return Model(int(version), model.string(3, "description"), tensors, operators, inputs,
                 outputs, len(subgraphs))


def _indices(r, arr, count, where, optional=False):
    out = [] if arr is None else [int(v) for v in arr]
    for v in out:
        if not (0 <= v < count or (optional and v == -1)):
            r.fail(f"{where}: tensor index {v} is out of range (0..{count - 1})")
    return out


def _tensor(r: _Reader, index: int, t: _Table, buffers: List[_Table]) -> Tensor:
    where = f"tensor {index}"
    name = t.string(3, "name")
    shape_arr = t.array(0, np.int32, "shape")
    shape = [] if shape_arr is None else [int(d) for d in shape_arr]
    code = t.scalar(1, "<b", 0)
    if code not in TENSOR_TYPES:
        r.fail(f"{where} '{name}': tensor type {code} is not supported")
    dtype, np_type = TENSOR_TYPES[code]
    buffer = int(t.scalar(2, "<I", 0))
    if buffer >= max(len(buffers), 1):
        r.fail(f"{where} '{name}': buffer {buffer} is out of range ({len(buffers)} buffers)")
    data = None
    if buffer and buffers:
        raw = _buffer_bytes(r, buffers[buffer], f"{where} '{name}' buffer {buffer}")
        if raw:
            if any(d < 0 for d in shape):
                r.fail(f"{where} '{name}': a constant has an unknown dimension {shape}")
            count = int(np.prod(shape, dtype=np.int64))
            itemsize = np.dtype(np_type).itemsize
            if len(raw) != count * itemsize:
                r.fail(f"{where} '{name}': buffer {buffer} holds {len(raw)} bytes, shape "
                       f"{shape} of {dtype} needs {count * itemsize}")
            data = np.frombuffer(raw, np.dtype(np_type).newbyteorder("<")).astype(
                np_type).reshape(shape)
    scale = zero_point = None
    qdim = 0
    q = t.table(4, "quantization")
    if q is not None:
        s = q.array(2, np.float32, "scale")
        z = q.array(3, np.int64, "zero_point")
        if s is not None and s.size:
            if z is None or z.size != s.size:
                r.fail(f"{where} '{name}': {s.size} scales but "
                       f"{0 if z is None else z.size} zero points")
            if not np.all(np.isfinite(s)) or np.any(s <= 0):
                r.fail(f"{where} '{name}': quantisation scales must be positive and finite")
            scale, zero_point = s, z
            qdim = int(q.scalar(6, "<i", 0))
            if s.size > 1 and not (0 <= qdim < len(shape) and shape[qdim] == s.size):
                r.fail(f"{where} '{name}': {s.size} scales do not match axis {qdim} of "
                       f"shape {shape}")
    return Tensor(index, name, shape, dtype, buffer, data, scale, zero_point, qdim)


def _buffer_bytes(r: _Reader, b: _Table, where: str) -> bytes:
    data = b.array(0, np.uint8, "data")
    if data is not None and data.size:
        return data.tobytes()
    offset, size = b.scalar(1, "<Q", 0), b.scalar(2, "<Q", 0)
    if offset > 1:
        if offset + size > len(r.data):
            r.fail(f"{where}: bytes {offset}..{offset + size} are outside the file")
        return r.data[offset:offset + size]
    return b""


def _operator(r: _Reader, index: int, t: _Table, codes, tensor_count: int) -> Operator:
    code_index = int(t.scalar(0, "<I", 0))
    if code_index >= len(codes):
        r.fail(f"operator {index}: opcode index {code_index} is out of range "
               f"({len(codes)} operator codes)")
    opcode, version = codes[code_index]
    where = f"operator {index} ({opcode})"
    inputs = _indices(r, t.array(1, np.int32, "inputs"), tensor_count, where + " inputs", True)
    outputs = _indices(r, t.array(2, np.int32, "outputs"), tensor_count, where + " outputs")
    options: Dict[str, object] = {}
    kind = int(t.scalar(3, "<B", 0))
    if kind in OPTIONS:
        table_name, fields = OPTIONS[kind]
        ot = t.table(4, table_name)
        for key, (slot, fmt, default) in fields.items():
            options[key] = default if ot is None else ot.scalar(slot, fmt, default)
        if table_name == "ReshapeOptions" and ot is not None:
            shape = ot.array(0, np.int32, "new_shape")
            if shape is not None:
                options["new_shape"] = [int(d) for d in shape]
    return Operator(index, opcode, version, inputs, outputs, options)
