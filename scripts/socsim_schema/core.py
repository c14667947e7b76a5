"""The types of the operator schema and the functions that read it (standard library only).

An `Operator` is one entry of the runtime's operator set: the name a program file's kernel
call carries (ATen / ExecuTorch style, e.g. "aten::add.out"), its tensor operands, its named
arguments with their types, the element types that have a CPU kernel, the kernel's source
file, the NPU layer that runs it (if any) and the ONNX operators it is lowered from. The
compiler (socsim_aot/schema/) attaches to each entry what only the ahead-of-time tools need:
how an ONNX node becomes it, how it is quantised, how its argument values are computed, and
its numpy reference semantics (the hook fields below, None until then). docs/extending.md
shows how to add one.

Arguments travel in a program file as a list of int32 words, in the order the schema
declares them: `pack_args` builds that list from names, `unpack_args` reads it back into an
object with one attribute per argument. Nothing else knows their positions.
"""

import dataclasses
import struct
from typing import Callable, Dict, List, Optional, Sequence, Tuple

# Element types, by the names the schema uses; their codes are in layouts.DTYPE_CODES.
DTYPES = ("float32", "int8", "int32", "uint8")

ARG_TYPES = ("int32", "float32", "bool", "int32[]")


@dataclasses.dataclass(frozen=True)
class Arg:
    """A named argument. `float32` travels as its bit pattern in an int32 word; `bool` as 0
    or 1; `int32[]` is a list of `per_axis` words per axis of the first input (the generated
    kernel wrapper checks its length)."""
    name: str
    type: str = "int32"
    doc: str = ""
    per_axis: int = 1

    def __post_init__(self):
        if self.type not in ARG_TYPES:
            raise ValueError(f"argument {self.name}: type {self.type!r} not in {ARG_TYPES}")
        if self.per_axis < 1 or (self.per_axis != 1 and self.type != "int32[]"):
            raise ValueError(f"argument {self.name}: per_axis {self.per_axis} needs a list "
                             "argument and must be at least 1")


@dataclasses.dataclass(frozen=True)
class Operand:
    """A tensor operand. dtype "T" is the operator's element type (the kernel key), "any"
    any element type (the kernel checks it); a
    variadic operand is one or more tensors. `npu_slot` names the descriptor address the
    operand travels in when an NPU layer runs the operator."""
    name: str
    dtype: str = "T"
    doc: str = ""
    variadic: bool = False
    npu_slot: str = ""


@dataclasses.dataclass(frozen=True)
class NpuLayer:
    """The NPU layer type that runs an operator.

    opcode   the descriptor's operator code
    report   OpType in the per-layer report (the layer's entry may refine it, e.g. Conv vs
             DepthwiseConv)
    classes  names an NPU preset's `operators` list uses for it (configs/npu/*.yaml)
    source   models/npu/layers/<source>.cpp defines the layer's entry
    """
    opcode: int
    report: str
    classes: Tuple[str, ...]
    source: str


class Args:
    """Argument values by name (unpack_args)."""

    def __init__(self, values: Dict[str, object]):
        self.__dict__.update(values)

    def __repr__(self):
        return f"Args({self.__dict__})"


@dataclasses.dataclass
class Operator:
    """One operator of the runtime; see the module docstring.

    The hooks are attached by the compiler (socsim_aot/schema/hooks.py) and called by it and
    by the reference executor:
      lower(node: ir.OnnxNode)            ONNX node -> IR node(s) (default: one node with
                                          the ONNX node's inputs and no attributes)
      quantize(q: ir.Quantizer, node)     int8 quantisation of an IR node (default: the
                                          output keeps its calibrated scale)
      args(g: ir.Graph, node) -> dict     argument values by name (default: none)
      reference(inputs, args, out) -> ndarray   numpy semantics, bit-exact for integers
      npu_accepts(g, node) -> class|None  the preset class when the NPU can run the node
      npu_shapes(g, node) -> (in, in1, out)  4-D shapes for the descriptor (default: the
                                          input, the `weights` slot's operand, the output)
    """
    name: str
    ident: str
    doc: str
    inputs: Tuple[Operand, ...]
    outputs: Tuple[Operand, ...] = (Operand("out"),)
    args: Tuple[Arg, ...] = ()
    dtypes: Tuple[str, ...] = ("float32",)
    kernel: str = ""
    npu: Optional[NpuLayer] = None
    onnx: Tuple[str, ...] = ()
    quantized: str = ""
    lower: Optional[Callable] = None
    quantize: Optional[Callable] = None
    arg_values: Optional[Callable] = None
    reference: Optional[Callable] = None
    npu_accepts: Optional[Callable] = None
    npu_shapes: Optional[Callable] = None

    def __post_init__(self):
        self.inputs = tuple(self.inputs)
        self.outputs = tuple(self.outputs)
        self.args = tuple(self.args)
        self.dtypes = tuple(self.dtypes)
        for d in self.dtypes:
            if d not in DTYPES:
                raise ValueError(f"{self.name}: unknown dtype {d!r}")
        if "::" not in self.name or not self.name.split("::", 1)[1]:
            raise ValueError(f"operator name {self.name!r} must be namespace::name[.overload]")

    @property
    def variadic(self) -> bool:
        return any(o.variadic for o in self.inputs)

    @property
    def fixed_arg_count(self) -> Optional[int]:
        """Words of the argument list, or None when it depends on the input's rank."""
        if any(a.type == "int32[]" for a in self.args):
            return None
        return len(self.args)

    def arg(self, name: str) -> Arg:
        for a in self.args:
            if a.name == name:
                return a
        raise KeyError(f"{self.name} has no argument {name!r}")


# ---- registry -------------------------------------------------------------------------------

_OPERATORS: Dict[str, Operator] = {}


def register(*operators: Operator) -> Tuple[Operator, ...]:
    """Adds operators to the schema (family modules call it at import)."""
    for op in operators:
        if op.name in _OPERATORS:
            raise ValueError(f"operator {op.name} registered twice")
        if any(o.ident == op.ident for o in _OPERATORS.values()):
            raise ValueError(f"operator identifier {op.ident} used twice")
        if op.npu is not None and any(o.npu and o.npu.opcode == op.npu.opcode
                                      for o in _OPERATORS.values()):
            raise ValueError(f"NPU opcode {op.npu.opcode} used twice")
        _OPERATORS[op.name] = op
    return operators


def operators() -> List[Operator]:
    """Every operator, in registration order."""
    return list(_OPERATORS.values())


def get(name: str) -> Operator:
    if name not in _OPERATORS:
        raise KeyError(f"unknown operator {name!r}")
    return _OPERATORS[name]


def find(name: str) -> Optional[Operator]:
    return _OPERATORS.get(name)


def by_npu_opcode(opcode: int) -> Operator:
    for op in _OPERATORS.values():
        if op.npu is not None and op.npu.opcode == opcode:
            return op
    raise KeyError(f"no operator has NPU opcode {opcode}")


def onnx_operators() -> Dict[str, Operator]:
    """ONNX op type -> the operator it is lowered to."""
    table = {}
    for op in _OPERATORS.values():
        for onnx_op in op.onnx:
            if onnx_op in table:
                raise ValueError(f"ONNX {onnx_op} lowered by {table[onnx_op].name} and {op.name}")
            table[onnx_op] = op
    return table


def simple_onnx_operators() -> List[str]:
    """ONNX operators that lower one to one (no attributes) to an operator of one input and
    no arguments (Relu, GlobalAveragePool, ...): the end-to-end tests build a one-node model of
    each (socsim_aot/op_models.py)."""
    return [onnx_op for onnx_op, op in onnx_operators().items()
            if op.lower is None and len(op.inputs) == 1 and not op.args and
            not op.inputs[0].variadic]


def npu_classes() -> List[str]:
    """Every name an NPU preset's `operators` list may use."""
    names = []
    for op in _OPERATORS.values():
        if op.npu is not None:
            names += [c for c in op.npu.classes if c not in names]
    return names


def operator_table() -> str:
    """Every operator as a markdown table: name, kernel dtypes, inputs, arguments (in their
    order, with types), the ONNX operators lowered to it, its NPU layer."""
    suffix = {"float32": " (f32)", "bool": " (bool)", "int32[]": "[]"}
    lines = ["| operator | dtypes | inputs | arguments | ONNX | NPU (opcode, report, class) |",
             "|---|---|---|---|---|---|"]
    for op in _OPERATORS.values():
        inputs = ", ".join(o.name + ("..." if o.variadic else "") +
                           (f" ({o.dtype})" if o.dtype != "T" else "") for o in op.inputs)
        args = ", ".join(a.name + suffix.get(a.type, "") for a in op.args) or "—"
        npu = f"{op.npu.opcode}, {op.npu.report}, {'/'.join(op.npu.classes)}" if op.npu else "—"
        lines.append(f"| `{op.name}` | {', '.join(op.dtypes)} | {inputs} | {args} | "
                     f"{', '.join(op.onnx) or '—'} | {npu} |")
    return "\n".join(lines)


# ---- argument lists -------------------------------------------------------------------------

def float_bits(value: float) -> int:
    """A float32 stored bit for bit in an int32 argument."""
    return struct.unpack("<i", struct.pack("<f", float(value)))[0]


def bits_float(bits: int) -> float:
    """The float32 whose bit pattern an int32 argument holds (exact as a Python float)."""
    return struct.unpack("<f", struct.pack("<i", int(bits)))[0]


def pack_args(op: Operator, values: Dict[str, object]) -> List[int]:
    """The int32 argument words of `op` from values by name; every argument is required and
    no other name is accepted."""
    unknown = set(values) - {a.name for a in op.args}
    missing = [a.name for a in op.args if a.name not in values]
    if unknown or missing:
        raise ValueError(f"{op.name}: arguments {sorted(unknown)} unknown, {missing} missing")
    words: List[int] = []
    for a in op.args:
        v = values[a.name]
        if a.type == "float32":
            words.append(float_bits(v))
        elif a.type == "bool":
            if v not in (0, 1, False, True):
                raise ValueError(f"{op.name}: {a.name} must be 0 or 1, got {v!r}")
            words.append(int(v))
        elif a.type == "int32[]":
            words += [_int32(op, a, x) for x in v]
        else:
            words.append(_int32(op, a, v))
    return words


def _int32(op, a, v) -> int:
    v = int(v)
    if not -2 ** 31 <= v < 2 ** 31:
        raise ValueError(f"{op.name}: {a.name} = {v} does not fit int32")
    return v


def unpack_args(op: Operator, words: Sequence[int], float_type: Callable = float) -> Args:
    """The argument values of `op` by name from its int32 words (the inverse of pack_args);
    a list argument takes the words that the scalars leave; a float32 argument is
    float_type(value) (the compiler passes numpy.float32)."""
    words = list(words)
    scalars = sum(1 for a in op.args if a.type != "int32[]")
    lists = sum(1 for a in op.args if a.type == "int32[]")
    if (lists == 0 and len(words) != scalars) or len(words) < scalars:
        raise ValueError(f"{op.name}: {len(words)} argument words, expected {scalars}")
    if lists > 1:
        raise ValueError(f"{op.name}: more than one list argument")
    values, at = {}, 0
    for a in op.args:
        if a.type == "int32[]":
            n = len(words) - scalars
            values[a.name] = words[at:at + n]
            at += n
        elif a.type == "float32":
            values[a.name] = float_type(bits_float(words[at]))
            at += 1
        else:
            values[a.name] = words[at]
            at += 1
    return Args(values)


def camel(ident: str) -> str:
    """quantized_convolution -> QuantizedConvolution (the C++ type of an operator)."""
    return "".join(p[:1].upper() + p[1:] for p in ident.split("_") if p)
