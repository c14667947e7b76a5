"""socsim programs as ExecuTorch `.pte` files: writer and verifying reader.

The compiler's program (program_format.Program: tensors, planned buffers, constants, kernel
and delegate calls) written as an ExecuTorch program (docs/program-format.md, "socsim
programs as `.pte`"): a FlatBuffer with the file identifier `ET12` and an extended header,
its constants and delegate blobs in segments after it. The FlatBuffer is laid out by the
small builder below (socsim's own; the field slots are the format's, as the firmware reader
`firmware/runtime/pte_program.h` lists them), so the compiler needs neither ExecuTorch nor a
FlatBuffers library.

- Values: tensor i of the program is value i (planned tensors with `allocation_info`, memory
  id buffer + 1; constants by `data_buffer_idx` into the constant segment's offsets table; a
  constant that only npu calls read is a Null value, its bytes being in their blobs), then
  the integers and lists of the calls.
- A kernel call of schema operator `NS::NAME.OVERLOAD` becomes a KernelCall of operator
  `socsim::NS__NAME` (overload kept; operators of the `socsim` namespace keep their name)
  with the arguments: its input tensors, an IntList of its int32 argument words, its output
  tensors, then the return value (the output, or a TensorList of the outputs).
- A delegate call becomes a DelegateCall with the compile spec `socsim.output_count`; an
  `npu` call's version-1 blob becomes a self-contained version-2 blob (npu_pte_blob) holding
  its constants; the call passes its activations, which keep their planned offsets.
- Quantisation parameters of tensors (which ExecuTorch keeps in operator arguments only) are
  a socsim record in a segment named `socsim.quantization` in `Program.named_data`.
"""

import struct
from typing import Dict, List, Optional, Tuple

import numpy as np

from socsim_aot import npu_partition
from socsim_aot import program_format as pf

IDENTIFIER = b"ET12"
EXTENDED_HEADER = b"eh00"
EXTENDED_HEADER_LENGTH = 32
SEGMENT_ALIGNMENT = 16
CONSTANT_ALIGNMENT = 16
NAMESPACE = "socsim::"
QUANT_KEY = "socsim.quantization"
QUANT_MAGIC = b"SQNT"
QUANT_VERSION = 1
OUTPUT_COUNT_SPEC = "socsim.output_count"
PLAN_NAME = "forward"

# The format's union tags and element types (docs/executorch.md).
V_NULL, V_INT, V_TENSOR, V_INT_LIST, V_TENSOR_LIST = 1, 2, 5, 7, 10
I_KERNEL, I_DELEGATE = 1, 2
LOCATION_SEGMENT = 1
SCALAR_TYPES = {"uint8": 0, "int8": 1, "int32": 3, "float32": 6}
SCALAR_DTYPES = {code: name for name, code in SCALAR_TYPES.items()}


class PteFormatError(ValueError):
    """A `.pte` file this reader refuses; the message names the field."""


# ---- operator names ------------------------------------------------------------------------

def pte_operator(schema_name: str) -> Tuple[str, str]:
    """(Operator.name, Operator.overload) of a schema operator `NS::NAME.OVERLOAD`."""
    qualified, _, overload = schema_name.partition(".")
    ns, _, name = qualified.partition("::")
    if not ns or not name or not overload or "__" in ns or \
            (ns == "socsim" and "__" in name):
        raise ValueError(f"operator {schema_name!r} has no socsim .pte name")
    if ns == "socsim":
        return qualified, overload
    return f"{NAMESPACE}{ns}__{name}", overload


def schema_operator(name: str, overload: str) -> Optional[str]:
    """The schema operator of a `socsim::` operator (None for another namespace)."""
    if not name.startswith(NAMESPACE) or not overload:
        return None
    rest = name[len(NAMESPACE):]
    ns, sep, op = rest.partition("__")
    if not sep:
        return f"socsim::{rest}.{overload}"
    return f"{ns}::{op}.{overload}"


# ---- a FlatBuffer builder --------------------------------------------------------------------

class Table:
    """A table: `fields` maps a slot to ("<fmt>", value) for a scalar or to an object."""

    def __init__(self, **fields):
        self.fields: Dict[int, object] = {}
        for key, value in fields.items():
            self.fields[int(key[1:])] = value


class Vector:
    """A vector of scalars of struct format `fmt` (body aligned to `align`)."""

    def __init__(self, fmt: str, values, align: int = 0):
        self.fmt, self.values = fmt, list(values)
        self.align = max(align, struct.calcsize("<" + fmt), 4)


class Refs:
    """A vector of tables or strings."""

    def __init__(self, items):
        self.items = list(items)


class Bytes:
    """A [ubyte] vector."""

    def __init__(self, data: bytes):
        self.data = bytes(data)


def _pad(buf: bytearray, alignment: int, extra: int = 0):
    """Pads so that len(buf) + extra is a multiple of `alignment`."""
    while (len(buf) + extra) % alignment:
        buf.append(0)


def _place(buf: bytearray, obj) -> int:
    """Lays `obj` out at the end of `buf` and its children after it (every offset of the
    format points forward); returns its position."""
    if isinstance(obj, str):
        data = obj.encode("utf-8")
        _pad(buf, 4)
        at = len(buf)
        buf += struct.pack("<I", len(data)) + data + b"\0"
        return at
    if isinstance(obj, Bytes):
        _pad(buf, 4)
        at = len(buf)
        buf += struct.pack("<I", len(obj.data)) + obj.data
        return at
    if isinstance(obj, Vector):
        _pad(buf, obj.align, 4)
        at = len(buf)
        buf += struct.pack(f"<I{len(obj.values)}{obj.fmt}", len(obj.values), *obj.values)
        return at
    if isinstance(obj, Refs):
        _pad(buf, 4)
        at = len(buf)
        buf += struct.pack("<I", len(obj.items)) + bytes(4 * len(obj.items))
        for i, item in enumerate(obj.items):
            slot = at + 4 + 4 * i
            struct.pack_into("<I", buf, slot, _place(buf, item) - slot)
        return at
    assert isinstance(obj, Table)
    slots = max(obj.fields, default=-1) + 1
    # inline fields: the widest first, after the 4-byte vtable offset
    layout = []
    for slot, value in obj.fields.items():
        size = struct.calcsize("<" + value[0]) if isinstance(value, tuple) else 4
        layout.append((size, slot, value))
    layout.sort(key=lambda f: (-f[0], f[1]))
    offsets, inline = {}, 4
    for size, slot, _ in layout:
        inline = (inline + size - 1) // size * size
        offsets[slot] = inline
        inline += size
    wide = any(size == 8 for size, _, _ in layout)
    _pad(buf, 4)
    vt_at = len(buf)
    vtable = struct.pack(f"<HH{slots}H", 4 + 2 * slots, inline,
                         *[offsets.get(s, 0) for s in range(slots)])
    buf += vtable
    _pad(buf, 8 if wide else 4)
    at = len(buf)
    buf += bytes(inline)
    struct.pack_into("<i", buf, at, at - vt_at)
    children = []
    for size, slot, value in layout:
        if isinstance(value, tuple):
            struct.pack_into("<" + value[0], buf, at + offsets[slot], value[1])
        else:
            children.append((at + offsets[slot], value))
    for slot_at, child in children:
        struct.pack_into("<I", buf, slot_at, _place(buf, child) - slot_at)
    return at


def build(root: Table, segments: List[bytes], named: List[Tuple[str, int]] = ()) -> bytes:
    """The file: the FlatBuffer of `root` (its segments and named data filled in), the
    extended header, then the segments (each SEGMENT_ALIGNMENT-aligned)."""
    seg_offsets, at = [], 0
    for data in segments:
        at = (at + SEGMENT_ALIGNMENT - 1) // SEGMENT_ALIGNMENT * SEGMENT_ALIGNMENT
        seg_offsets.append(at)
        at += len(data)
    root.fields[4] = Refs([Table(s0=("Q", o), s1=("Q", len(d)))
                           for o, d in zip(seg_offsets, segments)])
    if named:
        root.fields[7] = Refs([Table(s0=key, s1=("I", index)) for key, index in named])
    buf = bytearray(8 + EXTENDED_HEADER_LENGTH)
    buf[4:8] = IDENTIFIER
    struct.pack_into("<I", buf, 0, _place(buf, root))
    _pad(buf, SEGMENT_ALIGNMENT)
    program_size = len(buf)
    segment_base = program_size
    segment_size = at
    buf[8:8 + EXTENDED_HEADER_LENGTH] = EXTENDED_HEADER + struct.pack(
        "<IQQQ", EXTENDED_HEADER_LENGTH, program_size, segment_base, segment_size)
    for offset, data in zip(seg_offsets, segments):
        buf += bytes(segment_base + offset - len(buf))
        buf += data
    return bytes(buf)


# ---- writer ----------------------------------------------------------------------------------

def _quant_record(program: pf.Program, skip: set) -> bytes:
    """The socsim.quantization segment: the quantised tensors' scales and zero points (but
    those of the tensors in `skip`, which are no tensor values)."""
    entries = [(i, t) for i, t in enumerate(program.tensors)
               if t.quant != pf.QUANT_NONE and i not in skip]
    out = bytearray(QUANT_MAGIC + struct.pack("<II", QUANT_VERSION, len(entries)))
    for i, t in entries:
        channels = len(t.scales) if t.quant == pf.QUANT_PER_CHANNEL else 0
        out += struct.pack("<IBxxxfiII", i, t.quant, t.scale, t.zero_point, t.axis, channels)
        if channels:
            zps = t.zero_points if t.zero_points is not None else np.zeros(channels)
            out += np.asarray(t.scales, "<f4").tobytes() + np.asarray(zps, "<i4").tobytes()
    return bytes(out)


def _read_quant(data: bytes, tensors: List[pf.Tensor]):
    if len(data) < 12 or data[:4] != QUANT_MAGIC:
        raise PteFormatError(f"{QUANT_KEY}: bad magic")
    version, count = struct.unpack_from("<II", data, 4)
    if version != QUANT_VERSION:
        raise PteFormatError(f"{QUANT_KEY}: version {version}")
    at = 12
    for _ in range(count):
        if at + 24 > len(data):
            raise PteFormatError(f"{QUANT_KEY}: truncated")
        index, kind, scale, zp, axis, channels = struct.unpack_from("<IBxxxfiII", data, at)
        at += 24
        if index >= len(tensors) or kind not in (pf.QUANT_PER_TENSOR, pf.QUANT_PER_CHANNEL):
            raise PteFormatError(f"{QUANT_KEY}: bad entry for tensor {index}")
        t = tensors[index]
        t.quant, t.scale, t.zero_point, t.axis = kind, scale, zp, axis
        if kind == pf.QUANT_PER_CHANNEL:
            if axis >= len(t.shape) or channels != t.shape[axis] or at + 8 * channels > len(data):
                raise PteFormatError(f"{QUANT_KEY}: bad per-channel entry for tensor {index}")
            t.scales = np.frombuffer(data, "<f4", channels, at)
            t.zero_points = np.frombuffer(data, "<i4", channels, at + 4 * channels)
            at += 8 * channels


def _npu_call_blob(program: pf.Program, index: int):
    """An npu delegate call as a self-contained call: (version-2 blob, call inputs, call
    outputs). The call passes the activations it reads that it does not write, then every
    result it writes (intermediate ones too: they stay in the planned memory at the offsets
    of the compiler's plan, as in a `.prog`, so the blob needs no scratch memory); its
    constants go into the blob."""
    from socsim_aot import npu_pte_blob
    ins = program.instructions[index]
    outputs = list(dict.fromkeys(ins.outputs))
    inputs = [t for t in dict.fromkeys(ins.inputs)
              if not program.tensors[t].is_constant and t not in outputs]
    return npu_pte_blob.from_call(program, ins, inputs, outputs), inputs, outputs


def _npu_only_constants(program: pf.Program) -> set:
    """The constants that only npu delegate calls read: their version-2 blobs hold them."""
    readers: Dict[int, List[bool]] = {}
    for ins in program.instructions:
        npu = not ins.name and program.delegates[ins.delegate].backend == \
            npu_partition.BACKEND_ID
        for t in ins.inputs:
            readers.setdefault(t, []).append(npu)
    return {t for t, npu in readers.items()
            if program.tensors[t].is_constant and all(npu) and t not in program.outputs}


def write(program: pf.Program) -> bytes:
    """Serialises a program as a `.pte` file (see the module's text)."""
    tensors = program.tensors
    values: List[Table] = []

    def value(kind: int, body: Optional[Table]) -> int:
        values.append(Table(s0=("B", kind), **({"s1": body} if body is not None else {})))
        return len(values) - 1

    constants = [bytearray()]  # the constant segment (entry 0: the placeholder)
    const_offsets = [0]
    in_blob = _npu_only_constants(program)
    for i, t in enumerate(tensors):
        if i in in_blob:  # its bytes are in the npu blobs only
            value(V_NULL, None)
            continue
        if len(t.shape) > pf.MAX_RANK:
            raise ValueError(f"tensor {t.name}: rank {len(t.shape)} > {pf.MAX_RANK}")
        dtype = pf.DTYPE_NAMES[t.dtype]
        fields = dict(s0=("b", SCALAR_TYPES[dtype]),
                      s2=Vector("i", t.shape), s3=Vector("B", range(len(t.shape))))
        if t.is_constant:
            data = np.ascontiguousarray(t.constant, dtype=pf.DTYPES[t.dtype]).tobytes()
            if len(data) != t.nbytes:
                raise ValueError(f"constant {t.name}: {len(data)} bytes for shape {t.shape}")
            seg = constants[0]
            _pad(seg, CONSTANT_ALIGNMENT)
            const_offsets.append(len(seg))
            seg += data
            fields["s5"] = ("I", len(const_offsets) - 1)
        else:
            fields["s6"] = Table(s0=("I", t.buffer + 1), s1=("I", t.offset), s2=("I", 0))
        value(V_TENSOR, Table(**fields))
    ints: Dict[int, int] = {}

    def int_value(v: int) -> int:
        if v not in ints:
            ints[v] = value(V_INT, Table(s0=("q", v)))
        return ints[v]

    operators: List[Tuple[str, str]] = []
    segments: List[bytes] = [bytes(constants[0])]
    delegates, instructions = [], []
    for k, ins in enumerate(program.instructions):
        if ins.name:
            op = pte_operator(ins.name)
            if op not in operators:
                operators.append(op)
            items = [int_value(a) for a in ins.args]
            args = list(ins.inputs) + [value(V_INT_LIST, Table(s0=Vector("q", items)))] + \
                list(ins.outputs)
            if len(ins.outputs) == 1:
                args.append(ins.outputs[0])
            else:
                args.append(value(V_TENSOR_LIST, Table(s0=Vector("i", ins.outputs))))
            instructions.append(Table(s0=("B", I_KERNEL), s1=Table(
                s0=("i", operators.index(op)), s1=Vector("i", args))))
            continue
        d = program.delegates[ins.delegate]
        call_in, call_out, blob = list(ins.inputs), list(ins.outputs), d.blob
        if d.backend == npu_partition.BACKEND_ID:
            blob, call_in, call_out = _npu_call_blob(program, k)
        segments.append(bytes(blob))
        spec = Table(s0=OUTPUT_COUNT_SPEC, s1=Bytes(struct.pack("<I", len(call_out))))
        delegates.append(Table(s0=d.backend, s1=Table(s0=("B", LOCATION_SEGMENT),
                                                      s1=("I", len(segments) - 1)),
                               s2=Refs([spec])))
        instructions.append(Table(s0=("B", I_DELEGATE), s1=Table(
            s0=("i", len(delegates) - 1), s1=Vector("i", call_in + call_out))))
    named = []
    if any(t.quant != pf.QUANT_NONE for i, t in enumerate(tensors) if i not in in_blob):
        segments.append(_quant_record(program, in_blob))
        named.append((QUANT_KEY, len(segments) - 1))
    plan = Table(
        s0=PLAN_NAME, s2=Refs(values), s3=Vector("i", program.inputs),
        s4=Vector("i", program.outputs),
        s5=Refs([Table(s0=Vector("i", program.inputs), s1=Vector("i", program.outputs),
                       s2=Refs(instructions))]),
        s6=Refs([Table(s0=name, s1=overload) for name, overload in operators]),
        s7=Refs(delegates), s8=Vector("q", [0] + list(program.buffers)))
    root = Table(s0=("I", 0), s1=Refs([plan]),
                 s5=Table(s0=("I", 0), s1=Vector("Q", const_offsets)))
    return build(root, segments, named)


# ---- reader ----------------------------------------------------------------------------------

class _Reader:
    """Checked access to a FlatBuffer: every offset inside the buffer."""

    def __init__(self, data: bytes, size: int):
        self.data, self.size = data, size

    def u32(self, at: int, what: str) -> int:
        if at < 0 or at + 4 > self.size:
            raise PteFormatError(f"{what}: out of bounds")
        return struct.unpack_from("<I", self.data, at)[0]

    def table(self, at: int, what: str) -> "_TableView":
        if at % 4 or at + 4 > self.size:
            raise PteFormatError(f"{what}: table out of bounds")
        vt = at - struct.unpack_from("<i", self.data, at)[0]
        if vt < 0 or vt + 4 > self.size:
            raise PteFormatError(f"{what}: vtable out of bounds")
        vt_size, inline = struct.unpack_from("<HH", self.data, vt)
        if vt_size < 4 or vt_size % 2 or vt + vt_size > self.size or inline < 4 or \
                at + inline > self.size:
            raise PteFormatError(f"{what}: vtable out of bounds")
        return _TableView(self, at, vt, vt_size, inline, what)

    def target(self, at: int, what: str) -> int:
        off = self.u32(at, what)
        if off == 0 or at + off >= self.size:
            raise PteFormatError(f"{what}: offset out of bounds")
        return at + off


class _TableView:
    def __init__(self, r: _Reader, at, vt, vt_size, inline, what):
        self.r, self.at, self.vt, self.vt_size, self.inline, self.what = \
            r, at, vt, vt_size, inline, what

    def _field(self, slot: int) -> int:
        if slot >= (self.vt_size - 4) // 2:
            return 0
        return struct.unpack_from("<H", self.r.data, self.vt + 4 + 2 * slot)[0]

    def scalar(self, slot: int, fmt: str, default=0):
        off = self._field(slot)
        if off == 0:
            return default
        if off + struct.calcsize("<" + fmt) > self.inline:
            raise PteFormatError(f"{self.what}: field {slot} out of bounds")
        return struct.unpack_from("<" + fmt, self.r.data, self.at + off)[0]

    def ref(self, slot: int, what: str) -> Optional[int]:
        off = self._field(slot)
        if off == 0:
            return None
        if off + 4 > self.inline:
            raise PteFormatError(f"{what}: out of bounds")
        return self.r.target(self.at + off, what)

    def table(self, slot: int, what: str) -> Optional["_TableView"]:
        at = self.ref(slot, what)
        return None if at is None else self.r.table(at, what)

    def vector(self, slot: int, fmt: str, what: str) -> list:
        at = self.ref(slot, what)
        if at is None:
            return []
        n = self.r.u32(at, what)
        size = struct.calcsize("<" + fmt)
        if at + 4 + n * size > self.r.size:
            raise PteFormatError(f"{what}: vector out of bounds")
        return list(struct.unpack_from(f"<{n}{fmt}", self.r.data, at + 4))

    def tables(self, slot: int, what: str) -> list:
        at = self.ref(slot, what)
        if at is None:
            return []
        n = self.r.u32(at, what)
        if at + 4 + 4 * n > self.r.size:
            raise PteFormatError(f"{what}: vector out of bounds")
        return [self.r.target(at + 4 + 4 * i, f"{what} {i}") for i in range(n)]

    def string(self, slot: int, what: str) -> Optional[str]:
        at = self.ref(slot, what)
        if at is None:
            return None
        n = self.r.u32(at, what)
        if at + 4 + n + 1 > self.r.size or self.r.data[at + 4 + n] != 0:
            raise PteFormatError(f"{what}: string out of bounds or not NUL-terminated")
        return bytes(self.r.data[at + 4:at + 4 + n]).decode("utf-8", errors="replace")


def is_pte(data: bytes) -> bool:
    return len(data) >= 8 and data[4:6] == b"ET"


def read(data: bytes) -> pf.Program:
    """Parses and verifies a `.pte` file written by `write` (or of the same form: socsim::
    operators, planned and constant tensors, delegate calls) into a Program. An npu call's
    blob stays the version-2 blob; its call's tensors are the call's arguments; a constant
    only the blobs hold reads back as an empty int8 placeholder."""
    if len(data) < 8 + EXTENDED_HEADER_LENGTH or data[4:8] != IDENTIFIER:
        raise PteFormatError("file identifier: not an ET12 program")
    if data[8:12] != EXTENDED_HEADER:
        raise PteFormatError("extended header: missing")
    length, program_size, base, seg_size = struct.unpack_from("<IQQQ", data, 12)
    if length < EXTENDED_HEADER_LENGTH or not 8 + length <= program_size <= base <= len(data) \
            or seg_size > len(data) - base:
        raise PteFormatError("extended header: sizes out of bounds")
    r = _Reader(data, program_size)
    root = r.table(r.u32(0, "root"), "Program")
    if root.scalar(0, "I") != 0:
        raise PteFormatError("Program.version: not 0")
    segments = []
    for i, at in enumerate(root.tables(4, "Program.segments")):
        s = r.table(at, f"DataSegment {i}")
        off, size = s.scalar(0, "Q"), s.scalar(1, "Q")
        if off > seg_size or size > seg_size - off:
            raise PteFormatError(f"DataSegment.offset/size {i}: out of bounds")
        segments.append(bytes(data[base + off:base + off + size]))
    plans = root.tables(1, "Program.execution_plan")
    if not plans:
        raise PteFormatError("Program.execution_plan: none")
    plan = r.table(plans[0], "ExecutionPlan")
    cs = root.table(5, "Program.constant_segment")
    const_offsets = cs.vector(1, "Q", "SubsegmentOffsets.offsets") if cs else []
    const_seg = b""
    if const_offsets:
        index = cs.scalar(0, "I")
        if index >= len(segments):
            raise PteFormatError("SubsegmentOffsets.segment_index: out of range")
        const_seg = segments[index]
    buffers = plan.vector(8, "q", "ExecutionPlan.non_const_buffer_sizes")
    if not buffers or any(b < 0 for b in buffers):
        raise PteFormatError("ExecutionPlan.non_const_buffer_sizes: bad")
    buffers = buffers[1:]
    kinds, bodies = [], []
    for i, at in enumerate(plan.tables(2, "ExecutionPlan.values")):
        v = r.table(at, f"EValue {i}")
        kinds.append(v.scalar(0, "B"))
        bodies.append(v.table(1, f"EValue {i}"))
        if bodies[-1] is None and kinds[-1] != V_NULL:
            raise PteFormatError(f"EValue {i}: no value")
    tensors: List[pf.Tensor] = []
    for i, (kind, body) in enumerate(zip(kinds, bodies)):
        if kind == V_NULL:  # a constant only npu blobs hold: a placeholder
            tensors.append(pf.Tensor(dtype=pf.CODES["int8"], shape=[0],
                                     constant=np.zeros(0, np.int8), name=f"t{i} (in a blob)"))
            continue
        if kind != V_TENSOR:
            break
        what = f"Tensor {i}"
        code = body.scalar(0, "b")
        if code not in SCALAR_DTYPES:
            raise PteFormatError(f"{what}: scalar_type {code}")
        dtype = pf.CODES[SCALAR_DTYPES[code]]
        shape = body.vector(2, "i", what)
        if len(shape) > pf.MAX_RANK or any(d < 0 for d in shape) or \
                int(np.prod(shape, dtype=object)) * pf.DTYPES[dtype].itemsize > 0x7FFFFFFF:
            raise PteFormatError(f"{what}: sizes {shape}")
        t = pf.Tensor(dtype=dtype, shape=shape, name=f"t{i}")
        alloc = body.table(6, f"{what} allocation_info")
        if alloc is not None:
            t.buffer, t.offset = alloc.scalar(0, "I") - 1, alloc.scalar(1, "I")
            if not 0 <= t.buffer < len(buffers) or alloc.scalar(2, "I") != 0 or \
                    t.offset + t.nbytes > buffers[t.buffer]:
                raise PteFormatError(f"{what}: AllocationDetails out of the planned buffers")
        else:
            idx = body.scalar(5, "I")
            if not 0 < idx < len(const_offsets):
                raise PteFormatError(f"{what}: data_buffer_idx {idx}")
            start = const_offsets[idx]
            end = const_offsets[idx + 1] if idx + 1 < len(const_offsets) else len(const_seg)
            if start > end or end > len(const_seg) or t.nbytes > end - start:
                raise PteFormatError(f"{what}: constant data out of the constant segment")
            n = int(np.prod(shape, dtype=np.int64))
            t.constant = np.frombuffer(const_seg, pf.DTYPES[dtype], n, start).reshape(shape)
            t.offset = start
        tensors.append(t)

    def int_list(index: int, what: str) -> List[int]:
        if kinds[index] != V_INT_LIST:
            raise PteFormatError(f"{what}: not an IntList")
        out = []
        for item in bodies[index].vector(0, "q", what):
            if not 0 <= item < len(kinds) or kinds[item] != V_INT:
                raise PteFormatError(f"{what}: IntList.items {item}")
            out.append(bodies[item].scalar(0, "q"))
        return out

    def tensor_ids(ids, what) -> List[int]:
        if any(not 0 <= t < len(tensors) for t in ids):
            raise PteFormatError(f"{what}: not a tensor")
        return list(ids)

    ops = []
    for i, at in enumerate(plan.tables(6, "ExecutionPlan.operators")):
        o = r.table(at, f"Operator {i}")
        ops.append((o.string(0, f"Operator.name {i}") or "", o.string(1, f"Operator {i}") or ""))
    delegates, outputs_of = [], []
    for i, at in enumerate(plan.tables(7, "ExecutionPlan.delegates")):
        d = r.table(at, f"BackendDelegate {i}")
        ref = d.table(1, f"BackendDelegate.processed {i}")
        if ref is None or ref.scalar(0, "B") != LOCATION_SEGMENT or \
                ref.scalar(1, "I") >= len(segments):
            raise PteFormatError(f"BackendDelegateDataReference {i}: not a segment")
        count = 1
        for k, sat in enumerate(d.tables(2, f"CompileSpec {i}")):
            spec = r.table(sat, f"CompileSpec {i}.{k}")
            if spec.string(0, "CompileSpec.key") == OUTPUT_COUNT_SPEC:
                raw = bytes(spec.vector(1, "B", "CompileSpec.value"))
                if len(raw) != 4:
                    raise PteFormatError(f"CompileSpec {i}: {OUTPUT_COUNT_SPEC} not a u32")
                count = struct.unpack("<I", raw)[0]
        delegates.append(pf.Delegate(d.string(0, "BackendDelegate.id") or "",
                                     segments[ref.scalar(1, "I")]))
        outputs_of.append(count)
    instructions = []
    for c, cat in enumerate(plan.tables(5, "ExecutionPlan.chains")):
        chain = r.table(cat, f"Chain {c}")
        for k, iat in enumerate(chain.tables(2, "Chain.instructions")):
            what = f"Instruction {k}"
            ins = r.table(iat, what)
            kind, body = ins.scalar(0, "B"), ins.table(1, what)
            if body is None:
                raise PteFormatError(f"{what}: no arguments")
            first, args = body.scalar(0, "i"), body.vector(1, "i", what)
            if any(not 0 <= a < len(kinds) for a in args):
                raise PteFormatError(f"{what}: argument out of range")
            if kind == I_KERNEL:
                if not 0 <= first < len(ops):
                    raise PteFormatError(f"{what}: KernelCall.op_index {first}")
                name = schema_operator(*ops[first])
                lists = [p for p, a in enumerate(args) if kinds[a] == V_INT_LIST]
                if name is None or not lists or len(args) < lists[0] + 3:
                    raise PteFormatError(f"{what}: not a socsim:: operator call")
                p = lists[0]
                instructions.append(pf.Instruction(
                    name, tensor_ids(args[:p], what), tensor_ids(args[p + 1:-1], what),
                    int_list(args[p], what)))
            elif kind == I_DELEGATE:
                if not 0 <= first < len(delegates) or len(args) < outputs_of[first]:
                    raise PteFormatError(f"{what}: DelegateCall.delegate_index {first}")
                n_out = outputs_of[first]
                ids = tensor_ids(args, what)
                instructions.append(pf.Instruction("", ids[:len(ids) - n_out],
                                                   ids[len(ids) - n_out:], [], first))
            else:
                raise PteFormatError(f"{what}: kind {kind}")
    for i, at in enumerate(root.tables(7, "Program.named_data")):
        nd = r.table(at, f"NamedData {i}")
        if nd.string(0, "NamedData.key") == QUANT_KEY:
            index = nd.scalar(1, "I")
            if index >= len(segments):
                raise PteFormatError("NamedData.segment_index: out of range")
            _read_quant(segments[index], tensors)
    return pf.Program(tensors, instructions, buffers, delegates,
                      tensor_ids(plan.vector(3, "i", "ExecutionPlan.inputs"), "inputs"),
                      tensor_ids(plan.vector(4, "i", "ExecutionPlan.outputs"), "outputs"))


def read_any(data: bytes) -> pf.Program:
    """A program file of either format, recognised by its identifier."""
    return read(data) if is_pte(data) else pf.read(data)
