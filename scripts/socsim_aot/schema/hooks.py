"""Attaches the compiler's hooks to the operators the schema declares (socsim_schema/).

Each family module here gives every operator of its namesake in socsim_schema/ the hooks
core.Operator lists (lower, quantize, arg_values, reference, npu_accepts, npu_shapes), by the
operator's name, exactly once; `check_complete` then finds any declared operator that got
none.
"""

from socsim_schema import core

HOOKS = ("lower", "quantize", "arg_values", "reference", "npu_accepts", "npu_shapes")

_attached = set()


def hooks(name: str, **values) -> core.Operator:
    """The declared operator `name` with the given hooks attached; returns the operator."""
    op = core.get(name)
    unknown = set(values) - set(HOOKS)
    if unknown:
        raise ValueError(f"{name}: no hooks {sorted(unknown)} (known: {', '.join(HOOKS)})")
    if name in _attached:
        raise ValueError(f"{name}: hooks attached twice")
    for hook, value in values.items():
        setattr(op, hook, value)
    _attached.add(name)
    return op


def check_complete():
    """Raises when a declared operator has no hooks: every operator needs at least its
    reference semantics."""
    missing = [op.name for op in core.operators() if op.name not in _attached]
    if missing:
        raise ValueError(f"operators declared without the compiler's hooks: {missing}")
    without_reference = [op.name for op in core.operators() if op.reference is None]
    if without_reference:
        raise ValueError(f"operators without a reference: {without_reference}")
