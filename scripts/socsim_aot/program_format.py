"""The socsim program file: writer and verifying reader.

docs/program-format.md describes the layout byte by byte. The records, their field offsets
and the codes come from the schema's layouts (socsim_schema/layouts.py), from which the
firmware's constants are generated too. All integers are little-endian and every offset is
a 32-bit byte offset from the start of the file.
"""

import dataclasses
import struct
from typing import List, Optional

import numpy as np

from socsim_schema import core, layouts

MAGIC = layouts.PROGRAM_MAGIC
VERSION_MAJOR = layouts.PROGRAM_VERSION_MAJOR
VERSION_MINOR = layouts.PROGRAM_VERSION_MINOR
HEADER = layouts.PROGRAM_HEADER
TENSOR = layouts.TENSOR_RECORD
INSTRUCTION = layouts.INSTRUCTION_RECORD
BUFFER = layouts.BUFFER_RECORD
DELEGATE = layouts.DELEGATE_RECORD
HEADER_SIZE = HEADER.size
TENSOR_RECORD_SIZE = TENSOR.size
INSTRUCTION_RECORD_SIZE = INSTRUCTION.size
DELEGATE_RECORD_SIZE = DELEGATE.size
DATA_ALIGNMENT = layouts.DATA_ALIGNMENT
TABLE_ALIGNMENT = layouts.TABLE_ALIGNMENT
MAX_RANK = layouts.MAX_RANK
MAX_NAME_LENGTH = layouts.MAX_NAME_LENGTH
NO_BUFFER = layouts.NO_BUFFER

STORAGE_PLANNED = layouts.STORAGE_CODES["planned"]
STORAGE_CONSTANT = layouts.STORAGE_CODES["constant"]
KIND_KERNEL = layouts.INSTRUCTION_KINDS["kernel"]
KIND_DELEGATE = layouts.INSTRUCTION_KINDS["delegate"]

QUANT_NONE = layouts.QUANT_CODES["none"]
QUANT_PER_TENSOR = layouts.QUANT_CODES["per_tensor"]
QUANT_PER_CHANNEL = layouts.QUANT_CODES["per_channel"]

# dtype code <-> numpy dtype
DTYPE_NAMES = {code: name for name, code in layouts.DTYPE_CODES.items()}
DTYPES = {code: np.dtype(name).newbyteorder("<") for code, name in DTYPE_NAMES.items()}
CODES = {name: code for name, code in layouts.DTYPE_CODES.items()}


def dtype_code(dtype) -> int:
    """The file's dtype code for a numpy dtype (float32, int8, int32, uint8)."""
    name = np.dtype(dtype).name
    if name not in CODES:
        raise ValueError(f"dtype {name} cannot be stored in a program file")
    return CODES[name]


class ProgramFormatError(ValueError):
    """A program file that is truncated, corrupt or of another version."""


@dataclasses.dataclass
class Tensor:
    dtype: int
    shape: List[int]
    constant: Optional[np.ndarray] = None  # constants only
    buffer: int = 0  # planned only
    offset: int = 0  # planned offset, or (when read) offset in the constant segment
    quant: int = QUANT_NONE
    scale: float = 0.0
    zero_point: int = 0
    axis: int = 0
    scales: Optional[np.ndarray] = None  # per-channel, float32
    zero_points: Optional[np.ndarray] = None  # per-channel, int32
    name: str = ""  # not stored; for messages

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) * DTYPES[self.dtype].itemsize

    @property
    def is_constant(self) -> bool:
        return self.constant is not None


@dataclasses.dataclass
class Instruction:
    name: str  # operator name; "" for a delegate call
    inputs: List[int]
    outputs: List[int]
    args: List[int] = dataclasses.field(default_factory=list)
    delegate: int = NO_BUFFER


@dataclasses.dataclass
class Delegate:
    backend: str
    blob: bytes


@dataclasses.dataclass
class Program:
    tensors: List[Tensor]
    instructions: List[Instruction]
    buffers: List[int]
    delegates: List[Delegate]
    inputs: List[int]
    outputs: List[int]


float_bits = core.float_bits
bits_float = core.bits_float


# ---- writer --------------------------------------------------------------------------------

class _Writer:
    def __init__(self):
        self.buf = bytearray(HEADER_SIZE)

    def align(self, alignment):
        while len(self.buf) % alignment:
            self.buf.append(0)

    def append(self, data: bytes, alignment: int) -> int:
        self.align(alignment)
        at = len(self.buf)
        self.buf += data
        return at

    def reserve(self, size: int, alignment: int = 4) -> int:
        return self.append(bytes(size), alignment)


def _check_name(name: str, what: str) -> bytes:
    raw = name.encode("ascii")
    if not 1 <= len(raw) <= MAX_NAME_LENGTH or b"\0" in raw:
        raise ValueError(f"{what} name {name!r} must be 1..{MAX_NAME_LENGTH} ASCII characters")
    return raw + b"\0"


def write(program: Program) -> bytes:
    """Serialises a program. Constants are copied 16-byte aligned into the constant segment."""
    w = _Writer()
    names, ids_at, args_at = [], [], []
    for ins in program.instructions:
        names.append(w.append(_check_name(ins.name, "operator"), 1) if ins.name else 0)
        ids = ins.inputs + ins.outputs
        ids_at.append(w.append(struct.pack(f"<{len(ids)}I", *ids), 4))
        args_at.append(w.append(struct.pack(f"<{len(ins.args)}i", *ins.args), 4))
    backend_at = [w.append(_check_name(d.backend, "backend"), 1) for d in program.delegates]
    scales_at, zps_at = [], []
    for t in program.tensors:
        if t.quant == QUANT_PER_CHANNEL:
            scales_at.append(w.append(np.asarray(t.scales, "<f4").tobytes(), 4))
            zps = t.zero_points if t.zero_points is not None else np.zeros(len(t.scales))
            zps_at.append(w.append(np.asarray(zps, "<i4").tobytes(), 4))
        else:
            scales_at.append(0)
            zps_at.append(0)
    io = program.inputs + program.outputs
    io_at = w.append(struct.pack(f"<{len(io)}I", *io), 4)
    buffers_at = w.append(struct.pack(f"<{len(program.buffers)}I", *program.buffers), 4)
    tensors_at = w.reserve(TENSOR_RECORD_SIZE * len(program.tensors))
    instructions_at = w.reserve(INSTRUCTION_RECORD_SIZE * len(program.instructions))
    delegates_at = w.reserve(DELEGATE_RECORD_SIZE * len(program.delegates))
    blobs_at = [w.append(bytes(d.blob), DATA_ALIGNMENT) for d in program.delegates]
    w.align(DATA_ALIGNMENT)
    data_at = len(w.buf)
    const_at = []
    for t in program.tensors:
        if t.is_constant:
            data = np.ascontiguousarray(t.constant, dtype=DTYPES[t.dtype]).tobytes()
            if len(data) != t.nbytes:
                raise ValueError(f"constant {t.name}: {len(data)} bytes for shape {t.shape}")
            const_at.append(w.append(data, DATA_ALIGNMENT) - data_at)
        else:
            const_at.append(0)
    w.align(DATA_ALIGNMENT)
    data_size = len(w.buf) - data_at

    buf = w.buf
    for i, t in enumerate(program.tensors):
        if len(t.shape) > MAX_RANK:
            raise ValueError(f"tensor {t.name}: rank {len(t.shape)} > {MAX_RANK}")
        dims = list(t.shape) + [0] * (MAX_RANK - len(t.shape))
        channels = len(t.scales) if t.quant == QUANT_PER_CHANNEL else 0
        at = tensors_at + i * TENSOR.size
        buf[at:at + TENSOR.size] = TENSOR.pack(
            dtype=t.dtype, rank=len(t.shape),
            storage=STORAGE_CONSTANT if t.is_constant else STORAGE_PLANNED, quant=t.quant,
            dims=dims, nbytes=t.nbytes, buffer=NO_BUFFER if t.is_constant else t.buffer,
            offset=const_at[i] if t.is_constant else t.offset, scale=t.scale,
            zero_point=t.zero_point, quant_axis=t.axis, channels=channels,
            scales_offset=scales_at[i], zero_points_offset=zps_at[i])
    for i, ins in enumerate(program.instructions):
        at = instructions_at + i * INSTRUCTION.size
        buf[at:at + INSTRUCTION.size] = INSTRUCTION.pack(
            kind=KIND_KERNEL if ins.name else KIND_DELEGATE, input_count=len(ins.inputs),
            output_count=len(ins.outputs), name_offset=names[i], name_length=len(ins.name),
            tensors_offset=ids_at[i], args_offset=args_at[i], arg_count=len(ins.args),
            delegate_index=NO_BUFFER if ins.name else ins.delegate)
    for i, d in enumerate(program.delegates):
        at = delegates_at + i * DELEGATE.size
        buf[at:at + DELEGATE.size] = DELEGATE.pack(
            backend_id_offset=backend_at[i], backend_id_length=len(d.backend),
            blob_offset=blobs_at[i], blob_size=len(d.blob))
    buf[0:HEADER.size] = HEADER.pack(
        magic=MAGIC, version_major=VERSION_MAJOR, version_minor=VERSION_MINOR,
        file_size=len(buf), tensors_offset=tensors_at, tensor_count=len(program.tensors),
        instructions_offset=instructions_at, instruction_count=len(program.instructions),
        buffers_offset=buffers_at, buffer_count=len(program.buffers),
        delegates_offset=delegates_at, delegate_count=len(program.delegates), io_offset=io_at,
        input_count=len(program.inputs), output_count=len(program.outputs),
        data_offset=data_at, data_size=data_size)
    return bytes(buf)


# ---- reader --------------------------------------------------------------------------------

def _fits(size, offset, count, record):
    return offset + count * record <= size


def read(data: bytes) -> Program:
    """Parses and verifies a program file (the same checks as the firmware's Program::load).

    Constants come back as numpy arrays; tensor.offset of a constant is its offset in the
    constant segment.
    """
    if len(data) < HEADER_SIZE:
        raise ProgramFormatError(f"truncated: {len(data)} bytes, header needs {HEADER_SIZE}")
    h = HEADER.unpack(data)
    magic, major, file_size, flags = h["magic"], h["version_major"], h["file_size"], h["flags"]
    t_at, t_n = h["tensors_offset"], h["tensor_count"]
    i_at, i_n = h["instructions_offset"], h["instruction_count"]
    b_at, b_n = h["buffers_offset"], h["buffer_count"]
    d_at, d_n = h["delegates_offset"], h["delegate_count"]
    io_at, n_in, n_out = h["io_offset"], h["input_count"], h["output_count"]
    data_at, data_size = h["data_offset"], h["data_size"]
    if magic != MAGIC:
        raise ProgramFormatError(f"bad magic {magic!r}: not a program file")
    if major != VERSION_MAJOR or flags != 0:
        raise ProgramFormatError(f"unsupported version {major} (flags {flags:#x})")
    if file_size > len(data):
        raise ProgramFormatError(f"truncated: header says {file_size} bytes, got {len(data)}")
    for name, at, n, rec in (("tensor", t_at, t_n, TENSOR.size),
                             ("instruction", i_at, i_n, INSTRUCTION.size),
                             ("buffer", b_at, b_n, BUFFER.size),
                             ("delegate", d_at, d_n, DELEGATE.size),
                             ("input/output", io_at, n_in + n_out, 4)):
        if not _fits(file_size, at, n, rec) or at % TABLE_ALIGNMENT:
            raise ProgramFormatError(f"{name} table ({n} records at {at:#x}) is out of bounds "
                                     "or misaligned")
    if not _fits(file_size, data_at, data_size, 1) or data_at % DATA_ALIGNMENT:
        raise ProgramFormatError("constant segment out of bounds or misaligned")

    def u32s(at, n, what):
        if not _fits(file_size, at, n, 4) or at % 4:
            raise ProgramFormatError(f"{what} out of bounds or misaligned")
        return list(struct.unpack_from(f"<{n}I", data, at))

    def string(at, length, what):
        if not 1 <= length <= MAX_NAME_LENGTH or not _fits(file_size, at, length + 1, 1) \
                or data[at + length] != 0 or 0 in data[at:at + length]:
            raise ProgramFormatError(f"{what} name out of bounds or not NUL-terminated")
        return data[at:at + length].decode("ascii", errors="replace")

    buffers = u32s(b_at, b_n, "buffer table")
    tensors = []
    for i in range(t_n):
        r = TENSOR.unpack(data, t_at + i * TENSOR.size)
        dtype, rank, storage, quant, dims = r["dtype"], r["rank"], r["storage"], r["quant"], \
            r["dims"]
        nbytes, buffer, offset, scale, zp = r["nbytes"], r["buffer"], r["offset"], r["scale"], \
            r["zero_point"]
        axis, channels, s_at, z_at = r["quant_axis"], r["channels"], r["scales_offset"], \
            r["zero_points_offset"]
        if dtype not in DTYPES or rank > MAX_RANK or quant > QUANT_PER_CHANNEL:
            raise ProgramFormatError(f"tensor {i}: bad dtype/rank/quantisation code")
        shape = dims[:rank]
        if any(d != 0 for d in dims[rank:]) or any(d > 0x7FFFFFFF for d in shape):
            raise ProgramFormatError(f"tensor {i}: bad dimensions {dims}")
        if int(np.prod(shape, dtype=object)) * DTYPES[dtype].itemsize != nbytes \
                or nbytes > 0x7FFFFFFF:
            raise ProgramFormatError(f"tensor {i}: {nbytes} bytes does not match shape {shape}")
        t = Tensor(dtype=dtype, shape=shape, quant=quant, scale=scale, zero_point=zp, axis=axis,
                   offset=offset, name=f"t{i}")
        if storage == STORAGE_PLANNED:
            if buffer >= b_n or offset + nbytes > buffers[buffer]:
                raise ProgramFormatError(f"tensor {i}: does not fit planned buffer {buffer}")
            if offset % DATA_ALIGNMENT:
                raise ProgramFormatError(f"tensor {i}: planned offset misaligned")
            t.buffer = buffer
        elif storage == STORAGE_CONSTANT:
            if buffer != NO_BUFFER or offset + nbytes > data_size or offset % DATA_ALIGNMENT:
                raise ProgramFormatError(f"tensor {i}: constant out of bounds or misaligned")
            start = data_at + offset
            t.constant = np.frombuffer(data, DTYPES[dtype], int(np.prod(shape, dtype=np.int64)),
                                       start).reshape(shape)
        else:
            raise ProgramFormatError(f"tensor {i}: bad storage code {storage}")
        if quant == QUANT_PER_TENSOR and not 0 < scale < 3e38:
            raise ProgramFormatError(f"tensor {i}: bad scale {scale}")
        if quant == QUANT_PER_CHANNEL:
            if axis >= rank or channels != shape[axis]:
                raise ProgramFormatError(f"tensor {i}: bad per-channel axis/count")
            u32s(s_at, channels, f"tensor {i} scales")
            u32s(z_at, channels, f"tensor {i} zero points")
            t.scales = np.frombuffer(data, "<f4", channels, s_at)
            t.zero_points = np.frombuffer(data, "<i4", channels, z_at)
            if not np.all((t.scales > 0) & (t.scales < 3e38)):
                raise ProgramFormatError(f"tensor {i}: bad per-channel scales")
        tensors.append(t)
    io = u32s(io_at, n_in + n_out, "input/output table")
    for tid in io:
        if tid >= t_n or tensors[tid].is_constant:
            raise ProgramFormatError(f"input/output tensor {tid} is invalid or constant")
    delegates = []
    for i in range(d_n):
        r = DELEGATE.unpack(data, d_at + i * DELEGATE.size)
        id_at, id_len = r["backend_id_offset"], r["backend_id_length"]
        blob_at, blob_size = r["blob_offset"], r["blob_size"]
        backend = string(id_at, id_len, f"delegate {i} backend")
        if not _fits(file_size, blob_at, blob_size, 1) or blob_at % DATA_ALIGNMENT:
            raise ProgramFormatError(f"delegate {i}: blob out of bounds or misaligned")
        delegates.append(Delegate(backend, bytes(data[blob_at:blob_at + blob_size])))
    instructions = []
    for i in range(i_n):
        r = INSTRUCTION.unpack(data, i_at + i * INSTRUCTION.size)
        kind, n_i, n_o = r["kind"], r["input_count"], r["output_count"]
        name_at, name_len, ids = r["name_offset"], r["name_length"], r["tensors_offset"]
        args_at, n_args, delegate = r["args_offset"], r["arg_count"], r["delegate_index"]
        if kind not in (KIND_KERNEL, KIND_DELEGATE) or n_o < 1:
            raise ProgramFormatError(f"instruction {i}: bad kind or no output")
        tids = u32s(ids, n_i + n_o, f"instruction {i} tensor ids")
        if any(t >= t_n for t in tids) or any(tensors[t].is_constant for t in tids[n_i:]):
            raise ProgramFormatError(f"instruction {i}: bad tensor id or constant output")
        args = [a - (1 << 32) if a >= 1 << 31 else a
                for a in u32s(args_at, n_args, f"instruction {i} args")]
        if kind == KIND_KERNEL:
            name = string(name_at, name_len, f"instruction {i} operator")
            instructions.append(Instruction(name, tids[:n_i], tids[n_i:], args))
        else:
            if delegate >= d_n:
                raise ProgramFormatError(f"instruction {i}: delegate {delegate} does not exist")
            instructions.append(Instruction("", tids[:n_i], tids[n_i:], args, delegate))
    return Program(tensors, instructions, buffers, delegates, io[:n_in], io[n_in:])
