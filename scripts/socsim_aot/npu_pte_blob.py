"""The self-contained npu blob (version 2): one delegate call of an ExecuTorch program.

An ExecuTorch DelegateCall passes the delegated partition's activations only (its inputs,
then its outputs); constants belong to the delegate and intermediate results are its own
business. So this blob carries, after the version-1 header (layouts.NPU_BLOB_HEADER, version
2), a placement record (layouts.NPU_BLOB_PLACEMENT), the layer descriptors, then the
constants the layers read (weights, biases, requantisation tables, lookup tables), each at a
16-byte aligned offset. A descriptor's address slot says by its top two bits what it names:
a call tensor (index into inputs, then outputs), an offset into the constants, or an offset
into the scratch memory the backend takes at init for the intermediate results. The firmware
backend (firmware/delegates/npu/npu_backend.cpp) checks every field and writes the addresses.

`from_program` builds the blob from a program the compiler made of the partition
(socsim_aot.compiler with --delegate npu): quantise each float input, NPU delegate calls,
dequantise each output. The quantised inputs are the call's inputs, the outputs' int8
values its outputs, and the compiler's memory plan of the other activations becomes the
scratch layout, so the layers run with the same descriptors as in the program.
"""

from typing import Dict, List

import numpy as np

from socsim_aot import npu_partition
from socsim_aot import program_format as pf
from socsim_schema import layouts

HEADER = layouts.NPU_BLOB_HEADER
PLACEMENT = layouts.NPU_BLOB_PLACEMENT
DESCRIPTOR = layouts.NPU_DESCRIPTOR
KIND = layouts.NPU_ADDR_KINDS
SHIFT = layouts.NPU_ADDR_KIND_SHIFT
ALIGN = layouts.NPU_CONSTANT_ALIGNMENT
SCRATCH_ALIGNMENT = 64
QUANTIZE = "quantized_decomposed::quantize_per_tensor.out"
DEQUANTIZE = "quantized_decomposed::dequantize_per_tensor.out"


class BlobError(ValueError):
    """A partition the NPU cannot run as one delegate call; the message says why."""


def _address(kind: str, value: int) -> int:
    if value > layouts.NPU_ADDR_OFFSET_MASK:
        raise BlobError(f"{kind} offset {value} does not fit an address slot")
    return (KIND[kind] << SHIFT) | value


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a


def from_program(program: pf.Program) -> bytes:
    """The version-2 blob of a compiled partition (see the module's text)."""
    tensors = program.tensors
    call_inputs: Dict[int, int] = {}
    call_outputs: Dict[int, int] = {}
    npu_calls = []
    for ins in program.instructions:
        if ins.name == QUANTIZE and len(ins.inputs) == 1 and ins.inputs[0] in program.inputs:
            call_inputs[ins.outputs[0]] = program.inputs.index(ins.inputs[0])
        elif ins.name == DEQUANTIZE and len(ins.outputs) == 1 and \
                ins.outputs[0] in program.outputs:
            call_outputs[ins.inputs[0]] = program.outputs.index(ins.outputs[0])
        elif ins.name == "" and \
                program.delegates[ins.delegate].backend == npu_partition.BACKEND_ID:
            npu_calls.append(ins)
        else:
            raise BlobError(f"operator '{ins.name or program.delegates[ins.delegate].backend}' "
                            "stays on the CPU: the partition must run on the NPU as a whole")
    if not npu_calls:
        raise BlobError("the partition has no NPU layer")
    n_in = len(program.inputs)
    if sorted(call_inputs.values()) != list(range(n_in)) or \
            sorted(call_outputs.values()) != list(range(len(program.outputs))):
        raise BlobError("every input must be quantised and every output dequantised once")
    return _blob(program, npu_calls, call_inputs, call_outputs, len(program.outputs))


def from_call(program: pf.Program, ins: pf.Instruction, inputs: List[int],
              outputs: List[int]) -> bytes:
    """The version-2 blob of one npu delegate call of a compiled program, called with the
    tensors `inputs` (activations it reads) and `outputs` (results it writes); its constants
    go into the blob, any other tensor into the scratch memory."""
    return _blob(program, [ins], {t: i for i, t in enumerate(inputs)},
                 {t: i for i, t in enumerate(outputs)}, len(outputs))


def _blob(program: pf.Program, npu_calls: List[pf.Instruction], call_inputs: Dict[int, int],
          call_outputs: Dict[int, int], n_out: int) -> bytes:
    tensors = program.tensors
    n_in = len(call_inputs)
    constants: Dict[int, int] = {}
    data = bytearray()
    scratch: List[int] = []
    slots: Dict[int, int] = {}

    def slot_of(t: int) -> int:
        if t in slots:
            return slots[t]
        if t in call_inputs:
            slots[t] = _address("call", call_inputs[t])
        elif t in call_outputs:
            slots[t] = _address("call", n_in + call_outputs[t])
        elif tensors[t].is_constant:
            at = _align(len(data), ALIGN)
            data.extend(b"\0" * (at - len(data)))
            data.extend(np.ascontiguousarray(tensors[t].constant).tobytes())
            constants[t] = at
            slots[t] = _address("constant", at)
        else:
            scratch.append(t)
            slots[t] = None  # filled in below, once the scratch base is known
        return slots[t]

    descriptors = []
    for ins in npu_calls:
        local = ins.inputs + ins.outputs
        blob = program.delegates[ins.delegate].blob
        h = HEADER.unpack(blob)
        for k in range(h["layer_count"]):
            d = DESCRIPTOR.unpack(blob, HEADER.size + k * DESCRIPTOR.size)
            addr = [layouts.NPU_NO_TENSOR if a == layouts.NPU_NO_TENSOR else local[a]
                    for a in d["addr"]]
            for t in addr:
                if t != layouts.NPU_NO_TENSOR:
                    slot_of(t)
            descriptors.append((d, addr))
    base = min((tensors[t].offset for t in scratch), default=0)
    base -= base % SCRATCH_ALIGNMENT
    scratch_size = 0
    for t in scratch:
        slots[t] = _address("scratch", tensors[t].offset - base)
        scratch_size = max(scratch_size, tensors[t].offset - base + tensors[t].nbytes)
    scratch_size = _align(scratch_size, ALIGN)
    descriptors_offset = HEADER.size + PLACEMENT.size
    constants_offset = _align(descriptors_offset + len(descriptors) * DESCRIPTOR.size, ALIGN)
    out = bytearray(HEADER.pack(magic=layouts.NPU_BLOB_MAGIC,
                                version=layouts.NPU_BLOB_VERSION_SELF_CONTAINED,
                                layer_count=len(descriptors), descriptor_size=DESCRIPTOR.size))
    out += PLACEMENT.pack(input_count=n_in, output_count=n_out,
                          descriptors_offset=descriptors_offset,
                          constants_offset=constants_offset, constants_size=len(data),
                          scratch_size=scratch_size, scratch_alignment=SCRATCH_ALIGNMENT)
    for d, addr in descriptors:
        d = dict(d)
        d["addr"] = [a if a == layouts.NPU_NO_TENSOR else slots[a] for a in addr]
        out += DESCRIPTOR.pack(**d)
    out += b"\0" * (constants_offset - len(out))
    out += data
    return bytes(out)


def describe(blob: bytes) -> dict:
    """The header and placement fields of a version-2 blob (for messages and tests)."""
    fields = dict(HEADER.unpack(blob))
    fields.update(PLACEMENT.unpack(blob, HEADER.size))
    return fields


# ---- reading a version-2 blob back (the reference executor) -----------------------------------

class BlobFormatError(ValueError):
    """A version-2 blob the reader refuses; the message names the field."""


LOOKUP_ENTRIES = 256  # a lookup table: one int8 result per int8 input


def _operand(op, slot: str):
    for operand in op.inputs:
        if operand.npu_slot == slot:
            return operand
    return None


def _constant_shape(op, slot: str, d: dict) -> (List[int], np.dtype):
    """The shape and element type of the constant a layer reads in `slot`: the descriptor
    keeps the shapes of its input, second operand and output only, so the others follow from
    the operator (per output channel: bias [O], requantisation table [O, 2])."""
    from socsim_aot import schema
    if slot == "table":  # the fused lookup stage's table
        return [LOOKUP_ENTRIES], np.dtype(np.int8)
    operand = _operand(op, slot)
    dtype = np.dtype(np.int8 if operand.dtype in ("T", "any") else operand.dtype)
    in1 = list(d["in1_shape"])
    if slot == "input":
        return list(d["in_shape"]), dtype
    if slot == "bias":
        return [in1[0]], dtype
    if slot == "requant":
        return [in1[0], 2], dtype
    if op.name == schema.conv.QUANTIZED_LINEAR.name:  # [O, K, 1, 1] in the descriptor
        return in1[:2], dtype
    if op.npu.source in ("lookup", "resize"):  # a table [256], indices [Ho + Wo]
        return [int(np.prod(in1, dtype=np.int64))], dtype
    return in1, dtype


def _check_placement(blob: bytes, n_in: int, n_out: int) -> dict:
    if len(blob) < HEADER.size + PLACEMENT.size:
        raise BlobFormatError("npu blob placement (truncated)")
    f = describe(blob)
    if f["magic"] != layouts.NPU_BLOB_MAGIC:
        raise BlobFormatError("npu blob magic")
    if f["version"] != layouts.NPU_BLOB_VERSION_SELF_CONTAINED:
        raise BlobFormatError(f"npu blob version {f['version']}")
    if f["descriptor_size"] != DESCRIPTOR.size:
        raise BlobFormatError(f"npu blob descriptor_size {f['descriptor_size']}")
    if f["layer_count"] == 0:
        raise BlobFormatError("npu blob layer_count 0")
    if (f["input_count"], f["output_count"]) != (n_in, n_out):
        raise BlobFormatError(f"npu blob input_count/output_count {f['input_count']}/"
                              f"{f['output_count']}: the call passes {n_in}/{n_out}")
    if f["descriptors_offset"] != HEADER.size + PLACEMENT.size:
        raise BlobFormatError(f"npu blob descriptors_offset {f['descriptors_offset']}")
    if f["descriptors_offset"] + f["layer_count"] * DESCRIPTOR.size > f["constants_offset"] or \
            f["constants_offset"] % ALIGN:
        raise BlobFormatError(f"npu blob constants_offset {f['constants_offset']}")
    if f["constants_offset"] + f["constants_size"] != len(blob):
        raise BlobFormatError(f"npu blob constants_size {f['constants_size']}: the constants "
                              f"end at {f['constants_offset'] + f['constants_size']}, the blob "
                              f"at {len(blob)}")
    a = f["scratch_alignment"]
    if not ALIGN <= a <= 4096 or a & (a - 1):
        raise BlobFormatError(f"npu blob scratch_alignment {a}")
    if f["reserved"] != 0:
        raise BlobFormatError("npu blob reserved")
    return f


def decode(blob: bytes, n_in: int, n_out: int):
    """A version-2 blob of a delegate call with `n_in` inputs and `n_out` outputs as the
    version-1 form the reference executes (npu_partition.run_blob), every field checked as
    the firmware backend checks it (BlobFormatError naming the field). Returns (version-1
    blob, constants, shapes of the scratch results): the version-1 blob's tensors are the
    call's inputs, then the constants (numpy arrays read from the blob), then the call's
    outputs, then one per layer result the blob keeps in its scratch memory."""
    from socsim_aot import schema
    f = _check_placement(blob, n_in, n_out)
    const_at, const_size = f["constants_offset"], f["constants_size"]
    constants: List[np.ndarray] = []
    constant_index: Dict[tuple, int] = {}
    scratch_shapes: List[List[int]] = []
    scratch_live: Dict[int, int] = {}  # scratch offset -> the result last written there
    layers = []
    for k in range(f["layer_count"]):
        d = DESCRIPTOR.unpack(blob, f["descriptors_offset"] + k * DESCRIPTOR.size)
        where = npu_partition.descriptor_where(k, d)
        try:
            op = schema.by_npu_opcode(d["op"])
        except KeyError:
            raise BlobFormatError(f"{where}: op {d['op']}") from None
        if d["post_op"]:
            try:
                schema.by_npu_opcode(d["post_op"])
            except KeyError:
                raise BlobFormatError(f"{where}: post_op {d['post_op']}") from None
        if d["dtype"] not in (layouts.DTYPE_CODES["int8"], layouts.DTYPE_CODES["uint8"]):
            raise BlobFormatError(f"{where}: dtype {d['dtype']}")
        if d["arg_count"] > layouts.NPU_MAX_ARGS:
            raise BlobFormatError(f"{where}: arg_count {d['arg_count']}")
        if d["flags"]:
            raise BlobFormatError(f"{where}: flags {d['flags']}")
        used = {o.npu_slot for o in op.inputs + op.outputs} | ({"table"} if d["post_op"] else set())
        addr = list(d["addr"])
        local = [layouts.NPU_NO_TENSOR] * len(addr)
        writes = None
        for s, slot in enumerate(layouts.NPU_SLOTS):
            value = addr[s]
            if value == layouts.NPU_NO_TENSOR:
                if slot in used:
                    raise BlobFormatError(f"{where}: addr.{slot} missing")
                continue
            if slot not in used:
                continue  # the firmware places it but the operator does not read it
            kind, offset = value >> SHIFT, value & layouts.NPU_ADDR_OFFSET_MASK
            if kind == KIND["call"]:
                if offset >= n_in + n_out:
                    raise BlobFormatError(f"{where}: addr.{slot} call index {offset} "
                                          f"(the call passes {n_in + n_out} tensors)")
                if slot == "output" and offset < n_in:
                    raise BlobFormatError(f"{where}: addr.output is call input {offset}")
                local[s] = ("call", offset)
            elif kind == KIND["constant"]:
                if slot == "output":
                    raise BlobFormatError(f"{where}: addr.output is a constant")
                shape, dtype = _constant_shape(op, slot, d)
                need = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if offset % ALIGN or offset >= const_size or need > const_size - offset:
                    raise BlobFormatError(f"{where}: addr.{slot} constant offset {offset} "
                                          f"({need} bytes; constants_size {const_size})")
                key = (offset, tuple(shape), dtype.str)
                if key not in constant_index:
                    constant_index[key] = len(constants)
                    constants.append(np.frombuffer(blob, dtype, int(np.prod(shape)),
                                                   const_at + offset).reshape(shape))
                local[s] = ("constant", constant_index[key])
            elif kind == KIND["scratch"]:
                shape = list(d["out_shape"] if slot == "output" else
                             d["in_shape"] if slot == "input" else d["in1_shape"])
                need = int(np.prod(shape, dtype=np.int64))
                if offset % ALIGN or offset >= f["scratch_size"] or \
                        need > f["scratch_size"] - offset:
                    raise BlobFormatError(f"{where}: addr.{slot} scratch offset {offset} "
                                          f"({need} bytes; scratch_size {f['scratch_size']})")
                if slot == "output":
                    writes = offset
                    local[s] = ("scratch", len(scratch_shapes))
                    scratch_shapes.append(shape)
                elif offset not in scratch_live:
                    raise BlobFormatError(f"{where}: addr.{slot} reads scratch offset {offset}, "
                                          "which no earlier layer wrote")
                else:
                    local[s] = ("scratch", scratch_live[offset])
            else:
                raise BlobFormatError(f"{where}: addr.{slot} kind {kind}")
        if writes is not None:
            scratch_live[writes] = local[layouts.NPU_SLOTS.index("output")][1]
        layers.append((d, local))
    n_c = len(constants)
    base = {"call": 0, "constant": n_in, "scratch": n_in + n_c + n_out}
    out = bytearray(HEADER.pack(magic=layouts.NPU_BLOB_MAGIC, version=layouts.NPU_BLOB_VERSION,
                                layer_count=len(layers), descriptor_size=DESCRIPTOR.size))
    for d, local in layers:
        d = dict(d)
        d["addr"] = [a if a == layouts.NPU_NO_TENSOR else
                     base[a[0]] + a[1] + (n_c if a[0] == "call" and a[1] >= n_in else 0)
                     for a in local]
        out += DESCRIPTOR.pack(**d)
    return bytes(out), constants, scratch_shapes
