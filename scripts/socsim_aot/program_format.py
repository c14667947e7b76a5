"""The socsim program file: writer and verifying reader.

docs/program-format.md describes the layout byte by byte; the firmware's
firmware/runtime/program_format.h holds the same constants. All integers are little-endian
and every offset is a 32-bit byte offset from the start of the file.
"""

import dataclasses
import struct
from typing import List, Optional

import numpy as np

MAGIC = b"SPRG"
VERSION_MAJOR = 1
VERSION_MINOR = 0
HEADER_SIZE = 64
TENSOR_RECORD_SIZE = 64
INSTRUCTION_RECORD_SIZE = 32
DELEGATE_RECORD_SIZE = 16
DATA_ALIGNMENT = 16
MAX_RANK = 6
MAX_NAME_LENGTH = 63
NO_BUFFER = 0xFFFFFFFF

STORAGE_PLANNED = 0
STORAGE_CONSTANT = 1
KIND_KERNEL = 1
KIND_DELEGATE = 2

QUANT_NONE = 0
QUANT_PER_TENSOR = 1
QUANT_PER_CHANNEL = 2

# dtype code <-> numpy dtype
DTYPES = {1: np.dtype("<f4"), 2: np.dtype("i1"), 3: np.dtype("<i4"), 4: np.dtype("u1")}
DTYPE_NAMES = {1: "float32", 2: "int8", 3: "int32", 4: "uint8"}
CODES = {np.dtype(v).name: k for k, v in DTYPES.items()}


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


def float_bits(value: float) -> int:
    """A float32 stored bit for bit in an int32 argument."""
    return struct.unpack("<i", struct.pack("<f", float(value)))[0]


def bits_float(bits: int) -> np.float32:
    return np.frombuffer(struct.pack("<i", int(bits)), dtype="<f4")[0]


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
        struct.pack_into(
            "<BBBB6IIIIfiIIII", buf, tensors_at + i * TENSOR_RECORD_SIZE, t.dtype, len(t.shape),
            STORAGE_CONSTANT if t.is_constant else STORAGE_PLANNED, t.quant, *dims, t.nbytes,
            NO_BUFFER if t.is_constant else t.buffer, const_at[i] if t.is_constant else t.offset,
            t.scale, t.zero_point, t.axis, channels, scales_at[i], zps_at[i])
    for i, ins in enumerate(program.instructions):
        struct.pack_into(
            "<BBBBIIIIIII", buf, instructions_at + i * INSTRUCTION_RECORD_SIZE,
            KIND_KERNEL if ins.name else KIND_DELEGATE, len(ins.inputs), len(ins.outputs), 0,
            names[i], len(ins.name), ids_at[i], args_at[i], len(ins.args),
            NO_BUFFER if ins.name else ins.delegate, 0)
    for i, d in enumerate(program.delegates):
        struct.pack_into("<IIII", buf, delegates_at + i * DELEGATE_RECORD_SIZE, backend_at[i],
                         len(d.backend), blobs_at[i], len(d.blob))
    struct.pack_into("<4sHHIIIIIIIIIIIHHII", buf, 0, MAGIC, VERSION_MAJOR, VERSION_MINOR,
                     len(buf), 0, tensors_at, len(program.tensors), instructions_at,
                     len(program.instructions), buffers_at, len(program.buffers), delegates_at,
                     len(program.delegates), io_at, len(program.inputs), len(program.outputs),
                     data_at, data_size)
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
    (magic, major, _minor, file_size, flags, t_at, t_n, i_at, i_n, b_at, b_n, d_at, d_n, io_at,
     n_in, n_out, data_at, data_size) = struct.unpack_from("<4sHHIIIIIIIIIIIHHII", data, 0)
    if magic != MAGIC:
        raise ProgramFormatError(f"bad magic {magic!r}: not a program file")
    if major != VERSION_MAJOR or flags != 0:
        raise ProgramFormatError(f"unsupported version {major} (flags {flags:#x})")
    if file_size > len(data):
        raise ProgramFormatError(f"truncated: header says {file_size} bytes, got {len(data)}")
    for name, at, n, rec in (("tensor", t_at, t_n, TENSOR_RECORD_SIZE),
                             ("instruction", i_at, i_n, INSTRUCTION_RECORD_SIZE),
                             ("buffer", b_at, b_n, 4),
                             ("delegate", d_at, d_n, DELEGATE_RECORD_SIZE),
                             ("input/output", io_at, n_in + n_out, 4)):
        if not _fits(file_size, at, n, rec) or at % 4:
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
        (dtype, rank, storage, quant, *rest) = struct.unpack_from(
            "<BBBB6IIIIfiIIII", data, t_at + i * TENSOR_RECORD_SIZE)
        dims, (nbytes, buffer, offset, scale, zp, axis, channels, s_at, z_at) = rest[:6], rest[6:]
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
        id_at, id_len, blob_at, blob_size = struct.unpack_from("<IIII", data,
                                                               d_at + i * DELEGATE_RECORD_SIZE)
        backend = string(id_at, id_len, f"delegate {i} backend")
        if not _fits(file_size, blob_at, blob_size, 1) or blob_at % DATA_ALIGNMENT:
            raise ProgramFormatError(f"delegate {i}: blob out of bounds or misaligned")
        delegates.append(Delegate(backend, bytes(data[blob_at:blob_at + blob_size])))
    instructions = []
    for i in range(i_n):
        kind, n_i, n_o, _, name_at, name_len, ids, args_at, n_args, delegate, _ = \
            struct.unpack_from("<BBBBIIIIIII", data, i_at + i * INSTRUCTION_RECORD_SIZE)
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
