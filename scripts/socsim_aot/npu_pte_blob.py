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
