"""Numpy reference executor of socsim program files.

Runs a program file (`.pte` or `.prog`) instruction by instruction with each operator's
reference semantics from the operator schema (socsim_aot/schema/), which use the exact integer
arithmetic of the firmware kernels (docs/runtime.md), so int8 results must match the firmware
bit for bit; float32 results match within rounding (the summation order differs). An npu
delegate call runs its layers with the same semantics, from either form of the npu blob
(npu_partition.run_blob).

Example:
  python3 scripts/reference.py add8.prog --print-outputs
"""

import argparse
import sys
from typing import Callable, Dict, List, Sequence

import numpy as np

from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_aot import schema
from socsim_schema import layouts


class ReferenceError(RuntimeError):
    """An instruction the reference executor cannot run (names it)."""


def run_operator(name: str, inputs: List[np.ndarray], args: Sequence[int], out) -> np.ndarray:
    """One operator of the schema on numpy inputs; `out` is the output's tensor record."""
    op = schema.find(name)
    if op is None or op.reference is None:
        raise ReferenceError(f"operator '{name}' unknown")
    return op.reference(inputs, schema.unpack_args(op, args), out)


def _cpu_packed(blob, ins):
    rec = layouts.CPU_PACKED_BLOB
    if len(blob) != rec.size:
        raise ReferenceError("cpu-packed: bad delegate blob")
    h = rec.unpack(blob)
    if h["magic"] != layouts.CPU_PACKED_MAGIC or h["version"] != layouts.CPU_PACKED_VERSION or \
            h["op"] != layouts.CPU_PACKED_OP_ADD:
        raise ReferenceError("cpu-packed: bad delegate blob")
    a, b = ins
    elements = h["elements"]
    if a.size != elements or b.size != elements:
        raise ReferenceError("cpu-packed: element count does not match the blob")
    return ((a.astype(np.int32) + b.astype(np.int32)) & 0xFF).astype(np.uint8).view(np.int8)


def _npu(blob, ins, outs):
    """The layers of an npu blob: version 1 (a `.prog`: the call passes every tensor the
    layers read) or version 2 (a `.pte`: the call passes activations, the blob holds the
    constants), both run by npu_partition.run_blob."""
    from socsim_aot import npu_partition
    try:
        return npu_partition.run_blob(blob, ins, [t.shape for t in outs], run_operator)
    except ValueError as e:
        raise ReferenceError(str(e)) from None


# Backends take (blob, input arrays, output tensors) and return one array, or a list with one
# array per output.
BACKENDS = {"cpu-packed": lambda blob, ins, outs: _cpu_packed(blob, ins), "npu": _npu}


# ---- executor ------------------------------------------------------------------------------

def run(program: pf.Program, inputs: Sequence[np.ndarray], trace: Dict = None,
        observe: Callable[[int, np.ndarray], None] = None) -> List[np.ndarray]:
    """Executes the program on the given inputs and returns its outputs.

    Planned tensors live where the memory plan puts them (one byte array per planned buffer),
    as on the firmware: an instruction reads its inputs from there and writes its outputs
    there, so a wrong plan shows, and values placed inside another (a concatenation's inputs
    in its output) are seen through it. If `trace` is a dict it receives every value an
    instruction wrote (and the inputs), by tensor id. `observe(tensor id, value)` is called
    with each of them as it is written, and the value is not kept (calibration).
    """
    memory = [np.zeros(size, np.uint8) for size in program.buffers]
    written: Dict[int, np.ndarray] = {}

    def store(tid, array):
        t = program.tensors[tid]
        a = np.ascontiguousarray(np.asarray(array, dtype=pf.DTYPES[t.dtype]).reshape(t.shape))
        memory[t.buffer][t.offset:t.offset + t.nbytes] = a.reshape(-1).view(np.uint8)
        if observe is not None:
            observe(tid, a)
        if trace is not None:
            written[tid] = a

    def load(tid):
        t = program.tensors[tid]
        if t.is_constant:
            return t.constant
        raw = memory[t.buffer][t.offset:t.offset + t.nbytes]
        return raw.view(pf.DTYPES[t.dtype]).reshape(t.shape).copy()

    if len(inputs) != len(program.inputs):
        raise ReferenceError(f"{len(program.inputs)} inputs expected, got {len(inputs)}")
    for tid, x in zip(program.inputs, inputs):
        store(tid, x)
    for index, ins in enumerate(program.instructions):
        args = [load(i) for i in ins.inputs]
        out = program.tensors[ins.outputs[0]]
        if ins.name:
            try:
                result = run_operator(ins.name, args, ins.args, out)
            except ReferenceError as e:
                raise ReferenceError(f"instruction {index} ({ins.name}): {e}") from None
        else:
            d = program.delegates[ins.delegate]
            if d.backend not in BACKENDS:
                raise ReferenceError(f"instruction {index}: backend '{d.backend}' unknown")
            try:
                result = BACKENDS[d.backend](d.blob, args,
                                             [program.tensors[o] for o in ins.outputs])
            except ReferenceError as e:
                raise ReferenceError(f"instruction {index} ({d.backend}): {e}") from None
            if isinstance(result, list):
                for o, r in zip(ins.outputs[1:], result[1:]):
                    store(o, r)
                result = result[0]
        result = np.asarray(result)
        if list(result.shape) != list(out.shape) or result.dtype != pf.DTYPES[out.dtype]:
            raise ReferenceError(
                f"instruction {index} ({ins.name or d.backend}): produced {result.dtype}"
                f"{list(result.shape)}, program says {pf.DTYPE_NAMES[out.dtype]}{out.shape}")
        store(ins.outputs[0], result)
    if trace is not None:
        trace.update({i: t.constant for i, t in enumerate(program.tensors) if t.is_constant})
        trace.update(written)
    return [load(i) for i in program.outputs]


def default_inputs(program: pf.Program) -> List[np.ndarray]:
    """The runner's default inputs: element i of every input is i % 128."""
    result = []
    for tid in program.inputs:
        t = program.tensors[tid]
        n = int(np.prod(t.shape, dtype=np.int64))
        result.append((np.arange(n) % 128).astype(pf.DTYPES[t.dtype]).reshape(t.shape))
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Run a socsim program file with numpy, using the same integer arithmetic "
                    "as the firmware kernels (a reference for firmware and NPU outputs).")
    parser.add_argument("program", help="program file written by compile_model.py (.pte or "
                                        ".prog)")
    parser.add_argument("--input", action="append", default=[],
                        help="raw little-endian input file, one per model input in order "
                             "(default: element i of each input is i %% 128, as the runner)")
    parser.add_argument("--print-outputs", action="store_true",
                        help="print 'res[i] = v' lines; int8 outputs print as unsigned bytes, "
                             "as the firmware runner does")
    parser.add_argument("--save", metavar="FILE", help="write the raw output bytes to FILE")
    args = parser.parse_args(argv)
    try:
        with open(args.program, "rb") as f:
            program = pte_format.read_any(f.read())
    except (OSError, pf.ProgramFormatError, pte_format.PteFormatError) as e:
        print(f"reference: {args.program}: {e}", file=sys.stderr)
        return 1
    if args.input:
        inputs = []
        for path, tid in zip(args.input, program.inputs):
            t = program.tensors[tid]
            inputs.append(np.fromfile(path, dtype=pf.DTYPES[t.dtype]).reshape(t.shape))
    else:
        inputs = default_inputs(program)
    try:
        outputs = run(program, inputs)
    except ReferenceError as e:
        print(f"reference: {args.program}: {e}", file=sys.stderr)
        return 1
    if args.print_outputs:
        for out in outputs:
            flat = out.reshape(-1)
            if flat.dtype == np.int8:
                flat = flat.view(np.uint8)
            for i, v in enumerate(flat):
                print(f"res[{i}] = {v:.6g}" if flat.dtype == np.float32 else f"res[{i}] = {v}")
    if args.save:
        with open(args.save, "wb") as f:
            for out in outputs:
                f.write(np.ascontiguousarray(out).tobytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
