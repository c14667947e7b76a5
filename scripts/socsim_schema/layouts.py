"""Binary layouts shared by the firmware, the simulator and the tools: the program file's
records (docs/program-format.md), the npu delegate blob and the NPU layer descriptor
(docs/npu.md), the cpu-packed delegate blob (docs/runtime.md).

Each `Record` lists its fields in order; offsets follow from the sizes (no implicit
padding: a record whose fields would need padding is rejected). The generator writes the
C++ constants (and the descriptor struct) from these records, and program_format.py,
npu_partition.py and the numpy reference derive their `struct` formats from them.
"""

import dataclasses
import struct
from typing import Dict, Tuple

_TYPES = {"u8": ("B", 1), "u16": ("H", 2), "u32": ("I", 4), "i32": ("i", 4), "f32": ("f", 4),
          "char": ("s", 1)}


@dataclasses.dataclass(frozen=True)
class Field:
    name: str
    type: str
    count: int = 1
    doc: str = ""

    @property
    def size(self) -> int:
        return _TYPES[self.type][1] * self.count


class Record:
    """A little-endian record: fields at consecutive, naturally aligned offsets."""

    def __init__(self, name: str, doc: str, fields: Tuple[Field, ...], size: int):
        self.name, self.doc, self.fields = name, doc, tuple(fields)
        self.offsets: Dict[str, int] = {}
        at = 0
        for f in self.fields:
            natural = _TYPES[f.type][1]
            if at % natural:
                raise ValueError(f"{name}.{f.name}: offset {at} is not {natural}-aligned")
            self.offsets[f.name] = at
            at += f.size
        if at != size:
            raise ValueError(f"{name}: fields take {at} bytes, record is {size}")
        self.size = size

    def offset(self, field: str) -> int:
        return self.offsets[field]

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"{self.name} has no field {name!r}")

    @property
    def format(self) -> str:
        """The struct format of the whole record (arrays expanded, char arrays as bytes)."""
        out = "<"
        for f in self.fields:
            code = _TYPES[f.type][0]
            out += f"{f.count}s" if code == "s" else (code if f.count == 1 else f"{f.count}{code}")
        return out

    def pack(self, **values) -> bytes:
        """The record's bytes; array fields take sequences, missing fields are zero."""
        flat = []
        for f in self.fields:
            v = values.pop(f.name, None)
            if _TYPES[f.type][0] == "s":
                flat.append(bytes(v or b""))
            elif f.count == 1:
                flat.append(v or 0)
            else:
                v = list(v) if v is not None else []
                if len(v) > f.count:
                    raise ValueError(f"{self.name}.{f.name}: {len(v)} values, room for {f.count}")
                flat += v + [0] * (f.count - len(v))
        if values:
            raise ValueError(f"{self.name}: unknown fields {sorted(values)}")
        return struct.pack(self.format, *flat)

    def unpack(self, data, at: int = 0) -> Dict[str, object]:
        """Field values by name (arrays as lists) from `data` at offset `at`."""
        flat = list(struct.unpack_from(self.format, data, at))
        out, i = {}, 0
        for f in self.fields:
            if _TYPES[f.type][0] == "s" or f.count == 1:
                out[f.name] = flat[i]
                i += 1
            else:
                out[f.name] = flat[i:i + f.count]
                i += f.count
        return out


def _fields(*specs):
    return tuple(Field(*s) for s in specs)


# ---- the program file -------------------------------------------------------------------------

PROGRAM_MAGIC = b"SPRG"
# Version 2: operators are named as in the operator schema (namespace::name.overload).
PROGRAM_VERSION_MAJOR = 2
PROGRAM_VERSION_MINOR = 0
DATA_ALIGNMENT = 16   # constant segment, constants, blobs, planned offsets, the file itself
TABLE_ALIGNMENT = 4   # tables and 32-bit arrays
MAX_RANK = 6
MAX_NAME_LENGTH = 63
NO_BUFFER = 0xFFFFFFFF

DTYPE_CODES = {"float32": 1, "int8": 2, "int32": 3, "uint8": 4}
STORAGE_CODES = {"planned": 0, "constant": 1}
QUANT_CODES = {"none": 0, "per_tensor": 1, "per_channel": 2}
INSTRUCTION_KINDS = {"kernel": 1, "delegate": 2}

PROGRAM_HEADER = Record("program_header", "Program file header", _fields(
    ("magic", "char", 4, "`S` `P` `R` `G`"),
    ("version_major", "u16", 1, "a reader rejects other major versions"),
    ("version_minor", "u16", 1, "additions that older readers may ignore"),
    ("file_size", "u32", 1, "total size in bytes"),
    ("flags", "u32", 1, "0"),
    ("tensors_offset", "u32"), ("tensor_count", "u32"),
    ("instructions_offset", "u32"), ("instruction_count", "u32"),
    ("buffers_offset", "u32"), ("buffer_count", "u32"),
    ("delegates_offset", "u32"), ("delegate_count", "u32"),
    ("io_offset", "u32"), ("input_count", "u16"), ("output_count", "u16"),
    ("data_offset", "u32"), ("data_size", "u32")), 64)

TENSOR_RECORD = Record("tensor_record", "Tensor record", _fields(
    ("dtype", "u8"), ("rank", "u8"), ("storage", "u8"), ("quant", "u8"),
    ("dims", "u32", MAX_RANK), ("nbytes", "u32"), ("buffer", "u32"), ("offset", "u32"),
    ("scale", "f32"), ("zero_point", "i32"), ("quant_axis", "u32"), ("channels", "u32"),
    ("scales_offset", "u32"), ("zero_points_offset", "u32")), 64)

INSTRUCTION_RECORD = Record("instruction_record", "Instruction record", _fields(
    ("kind", "u8"), ("input_count", "u8"), ("output_count", "u8"), ("reserved0", "u8"),
    ("name_offset", "u32"), ("name_length", "u32"), ("tensors_offset", "u32"),
    ("args_offset", "u32"), ("arg_count", "u32"), ("delegate_index", "u32"),
    ("reserved1", "u32")), 32)

BUFFER_RECORD = Record("buffer_record", "Planned buffer record",
                       _fields(("buffer_size", "u32", 1, "size in bytes"),), 4)

DELEGATE_RECORD = Record("delegate_record", "Delegate record", _fields(
    ("backend_id_offset", "u32"), ("backend_id_length", "u32"), ("blob_offset", "u32"),
    ("blob_size", "u32")), 16)

PROGRAM_RECORDS = (PROGRAM_HEADER, TENSOR_RECORD, INSTRUCTION_RECORD, BUFFER_RECORD,
                   DELEGATE_RECORD)

# ---- the npu delegate blob and the NPU layer descriptor -----------------------------------------

NPU_BLOB_MAGIC = b"NPU1"
NPU_BLOB_VERSION = 1
NPU_NO_TENSOR = 0xFFFFFFFF
NPU_MAX_ARGS = 16
NPU_NAME_SIZE = 32
# Address slots of a descriptor, in order.
NPU_SLOTS = ("input", "weights", "bias", "requant", "output", "table")

NPU_BLOB_HEADER = Record("npu_blob_header", "npu delegate blob header", _fields(
    ("magic", "char", 4, "`N` `P` `U` `1`"), ("version", "u32"), ("layer_count", "u32"),
    ("descriptor_size", "u32")), 16)

NPU_DESCRIPTOR = Record("layer_descriptor", "NPU layer descriptor", _fields(
    ("op", "u8", 1, "NPU opcode"),
    ("dtype", "u8", 1, "the input's dtype code (int8; uint8 for a model's integer input)"),
    ("arg_count", "u8", 1, "entries of args used"),
    ("flags", "u8", 1, "0"),
    ("post_op", "u32", 1, "0, or the opcode of a lookup layer applied to the output"),
    ("addr", "u32", len(NPU_SLOTS), "addresses: " + ", ".join(NPU_SLOTS)),
    ("in_shape", "u32", 4, "input shape, NCHW"),
    ("in1_shape", "u32", 4, "weight shape OIHW, or the second input's shape"),
    ("out_shape", "u32", 4, "output shape"),
    ("args", "i32", NPU_MAX_ARGS, "the CPU kernel's argument list"),
    ("name", "char", NPU_NAME_SIZE, "NUL-padded layer name")), 176)

# The self-contained form of the npu blob (version 2), the delegate data of an ExecuTorch
# program (docs/executorch-npu.md): a delegate call there passes only the partition's
# activations, so the blob carries the layers' constants and the size of the scratch memory
# of their intermediate results. After the header, a placement record; then the descriptors;
# then the constants (at constants_offset, 16-byte aligned, to the blob's end). An address slot
# names what it reads or writes by its top two bits: a call tensor (inputs, then outputs),
# an offset in the constants, or an offset in the scratch memory.
NPU_BLOB_VERSION_SELF_CONTAINED = 2
NPU_ADDR_KIND_SHIFT = 30
NPU_ADDR_KINDS = {"call": 0, "constant": 1, "scratch": 2}
NPU_ADDR_OFFSET_MASK = (1 << NPU_ADDR_KIND_SHIFT) - 1
NPU_CONSTANT_ALIGNMENT = 16

NPU_BLOB_PLACEMENT = Record("npu_blob_placement", "npu blob placement record (version 2)",
                            _fields(
    ("input_count", "u32", 1, "inputs of the delegate call"),
    ("output_count", "u32", 1, "outputs of the delegate call"),
    ("descriptors_offset", "u32", 1, "where the descriptors start (after this record)"),
    ("constants_offset", "u32", 1, "where the constants start (16-byte aligned)"),
    ("constants_size", "u32", 1, "bytes of constants (to the blob's end)"),
    ("scratch_size", "u32", 1, "bytes of scratch memory for intermediate results"),
    ("scratch_alignment", "u32", 1, "alignment of the scratch memory (power of two)"),
    ("reserved", "u32", 1, "0")), 32)

# ---- the cpu-packed delegate blob -----------------------------------------------------------

CPU_PACKED_MAGIC = b"CPK1"
CPU_PACKED_VERSION = 1
CPU_PACKED_OP_ADD = 1
CPU_PACKED_BLOB = Record("cpu_packed_blob", "cpu-packed delegate blob", _fields(
    ("magic", "char", 4, "`C` `P` `K` `1`"), ("version", "u32"), ("op", "u32", 1, "1 = add"),
    ("elements", "u32")), 16)

ALL_RECORDS = PROGRAM_RECORDS + (NPU_BLOB_HEADER, NPU_DESCRIPTOR, CPU_PACKED_BLOB,
                                  NPU_BLOB_PLACEMENT)
