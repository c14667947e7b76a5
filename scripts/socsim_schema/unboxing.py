"""The typed kernel signatures and their unboxing wrappers, from the operator schema.

A program calls a kernel through one boxed entry point, `Error fn(const KernelArgs&)`
(firmware/runtime/kernel_registry.h): operand and argument arrays with their counts. Kernel
authors write a typed function instead, with one named parameter per operand, the operator's
argument view and the scratch allocator:

    Error add_f32(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* temp);

and register it with SOCSIM_KERNEL (firmware/kernels/typed_kernel.h), which defines the boxed
entry point from `Unboxed<Op>::call`, written here per operator. The wrapper checks once what
the schema says about a call: the operand counts (at least one tensor for a variadic
operand), the argument word count (scalars plus `per_axis` words per axis of the first input
for a list argument) and the element types (every `T` operand has the first `T` operand's
type, the kernel key; an operand of a named type has that type; an operand of type `any` is
the kernel's to check). Shapes stay the kernel's.

A variadic operand is a `TensorList` (count and tensors); an operator without arguments takes
no argument view.
"""

from typing import List

import socsim_schema as schema
from socsim_schema.core import DTYPES, camel

# The runtime's ScalarType enumerator of each schema element type (firmware/runtime/tensor.h).
_SCALAR_TYPES = {"float32": "kFloat32", "int8": "kInt8", "int32": "kInt32", "uint8": "kUInt8"}
assert set(_SCALAR_TYPES) == set(DTYPES), "an element type without a ScalarType"


def _operand_exprs(op) -> List[str]:
    """C++ expressions of each input, from KernelArgs `k` (variadic: a TensorList)."""
    n = len(op.inputs)
    exprs = []
    for i, o in enumerate(op.inputs):
        if o.variadic:
            count = "k.input_count" + (f" - {n - 1}" if n > 1 else "")
            exprs.append(f"TensorList{{k.inputs + {i}, {count}}}")
        elif op.variadic and i > _variadic_index(op):
            exprs.append(f"*k.inputs[k.input_count - {n - i}]")
        else:
            exprs.append(f"*k.inputs[{i}]")
    return exprs


def _variadic_index(op) -> int:
    return next(i for i, o in enumerate(op.inputs) if o.variadic)


def _parameters(op) -> List[str]:
    params = [f"TensorList {o.name}" if o.variadic else f"const Tensor& {o.name}"
              for o in op.inputs]
    params += [f"Tensor& {o.name}" for o in op.outputs]
    if op.args:
        params.append(f"ops::{camel(op.ident)}::Args args")
    params.append("MemoryAllocator* temp")
    return params


def _if(conds: List[str], error: str) -> List[str]:
    """`if (a || b ...) return error;` within 100 columns."""
    one = f"    if ({' || '.join(conds)}) return Error::{error};"
    if len(one) <= 100:
        return [one]
    lines = [f"    if ({conds[0]} ||"]
    lines += [f"        {c} ||" for c in conds[1:-1]]
    lines += [f"        {conds[-1]}) {{", f"      return Error::{error};", "    }"]
    return lines


def _count_check(op) -> List[str]:
    t = f"ops::{camel(op.ident)}"
    n_in = len(op.inputs)
    inputs = (f"k.input_count < {n_in}" if op.variadic else f"k.input_count != {n_in}")
    conds = [inputs, f"k.output_count != {len(op.outputs)}"]
    lists = [a for a in op.args if a.type == "int32[]"]
    if lists:
        if n_in == 0:
            raise ValueError(f"{op.name}: a list argument needs an input to take the rank from")
        per_axis = "" if lists[0].per_axis == 1 else f"{lists[0].per_axis} * "
        conds.append(f"k.arg_count != {t}::kScalarArgs + {per_axis}k.inputs[0]->rank")
    else:
        conds.append(f"k.arg_count != {len(op.args)}")
    return _if(conds, "kBadOperatorArgs")


def _expected(dtype: str) -> str:
    return "t" if dtype == "T" else f"ScalarType::{_SCALAR_TYPES[dtype]}"


def _dtype_check(op) -> List[str]:
    """Element type checks: each `T` operand against the first (the kernel key, `t`), named
    types against their constant."""
    exprs = _operand_exprs(op)
    first_t = None
    checks = []  # (pointer expression of a tensor, expected type)
    loops = []  # (first index, count not covered at the end, expected type)
    n = len(op.inputs)
    for i, (o, e) in enumerate(zip(op.inputs, exprs)):
        if o.dtype == "any":
            continue
        skip_first = False
        if o.dtype == "T" and first_t is None:
            first_t = f"k.inputs[{i}]->dtype" if o.variadic or not op.variadic or \
                i < _variadic_index(op) else f"{e[1:]}->dtype"
            if not o.variadic:
                continue
            skip_first = True
        if o.variadic:
            loops.append((i + (1 if skip_first else 0), n - 1 - i, _expected(o.dtype)))
        else:
            checks.append(f"{e[1:]}->dtype != {_expected(o.dtype)}")
    for i, o in enumerate(op.outputs):
        if o.dtype == "any":
            continue
        if o.dtype == "T" and first_t is None:
            raise ValueError(f"{op.name}: output {o.name} of type T but no input of type T")
        checks.append(f"k.outputs[{i}]->dtype != {_expected(o.dtype)}")
    uses_t = any(c.endswith(" t") for c in checks) or any(x == "t" for _, _, x in loops)
    lines = [f"    const ScalarType t = {first_t};"] if uses_t else []
    if checks:
        lines += _if(checks, "kDtypeMismatch")
    for first, after, x in loops:
        end = "k.input_count" + (f" - {after}" if after else "")
        lines += [f"    for (uint32_t i = {first}; i < {end}; ++i) {{",
                  f"      if (k.inputs[i]->dtype != {x}) return Error::kDtypeMismatch;", "    }"]
    return lines


def _unboxed(op) -> List[str]:
    t = camel(op.ident)
    params = _parameters(op)
    call_args = _operand_exprs(op) + [f"*k.outputs[{i}]" for i in range(len(op.outputs))]
    if op.args:
        call_args.append(f"ops::{t}::Args(k.args)")
    call_args.append("k.temp")
    lines = [f"/// {op.name} ({', '.join(op.dtypes)}).",
             f"template <>", f"struct Unboxed<ops::{t}> {{",
             "  /// The typed kernel.",
             f"  using Fn = Error (*)({', '.join(params)});"]
    if len(lines[-1]) > 100:
        lines[-1] = "  using Fn = Error (*)(" + params[0] + ","
        lines += [f"                       {p}," for p in params[1:-1]]
        lines.append(f"                       {params[-1]});")
    lines += ["  /// kOk when `k` is what the schema declares: operand and argument counts, element",
              "  /// types.",
              "  SOCSIM_KERNEL_INLINE static Error check(const KernelArgs& k) {"]
    lines += _count_check(op)
    lines += _dtype_check(op)
    lines += ["    return Error::kOk;", "  }",
              "  /// Checks `k`, then calls fn with the operands unboxed.",
              "  SOCSIM_KERNEL_INLINE static Error call(const KernelArgs& k, Fn fn) {",
              "    const Error e = check(k);",
              "    if (e != Error::kOk) return e;"]
    lines.append(f"    return fn({', '.join(call_args)});")
    if len(lines[-1]) > 100:
        lines[-1] = f"    return fn({call_args[0]},"
        lines += [f"              {a}," for a in call_args[1:-1]]
        lines.append(f"              {call_args[-1]});")
    lines += ["  }", "};", ""]
    return lines


def signatures_header(header: str) -> str:
    """firmware/kernels/generated/signatures.h."""
    ops = [op for op in schema.operators() if op.dtypes]
    out = [header,
           "// Per operator of the schema: the typed kernel signature and the wrapper that unboxes",
           "// a KernelArgs call into it, checking operand counts, argument words and element",
           "// types once (scripts/socsim_schema/unboxing.py says what is checked).",
           "#pragma once", "", "#include <stdint.h>", "",
           "#include \"firmware/abi/generated/operators.h\"",
           "#include \"firmware/runtime/error.h\"",
           "#include \"firmware/runtime/kernel_registry.h\"",
           "#include \"firmware/runtime/memory.h\"",
           "#include \"firmware/runtime/tensor.h\"", "",
           "/// The wrappers are folded into each kernel's boxed entry point (no call of",
           "/// their own).",
           "#define SOCSIM_KERNEL_INLINE inline __attribute__((always_inline))", "",
           "namespace socsim::kernels {", "",
           "using runtime::Error;", "using runtime::KernelArgs;",
           "using runtime::MemoryAllocator;", "using runtime::ScalarType;",
           "using runtime::Tensor;", "",
           "/// The tensors of a variadic operand, in program order (at least one).",
           "struct TensorList {", "  Tensor* const* tensors;", "  uint32_t count;",
           "  const Tensor& operator[](uint32_t i) const { return *tensors[i]; }",
           "  uint32_t size() const { return count; }", "};", "",
           "/// Unboxed<Op>::Fn is operator Op's typed kernel; Unboxed<Op>::call(k, fn) checks a",
           "/// boxed call against the schema and calls fn.",
           "template <typename Op>", "struct Unboxed;", ""]
    for op in ops:
        out += _unboxed(op)
    out += ["}  // namespace socsim::kernels", ""]
    return "\n".join(out)
