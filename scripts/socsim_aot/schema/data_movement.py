"""The compiler's hooks (quantisation, numpy reference) for the data movement family.

Its operators and their rules are declared in socsim_schema/data_movement.py.
"""

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.hooks import hooks
from socsim_schema.data_movement import PAD2D_ARGS


def _lower_reshape(n):
    out = n.output()
    x = n.g.value(n.inputs[0])
    if x.const is not None:  # folded: the compiler keeps the reshaped constant
        n.g.add_const(n.outputs[0], x.const.reshape(out.shape))
        return
    n.emit(VIEW_COPY.name, n.inputs[:1])


def _lower_transpose(n):
    x = n.g.value(n.inputs[0])
    # ONNX's default perm reverses the axes; the reader writes it out when the input's rank is
    # known at load, otherwise (an input whose shape only inference gives) it is written here
    perm = n.attrs.get("perm")
    if perm is None:
        perm = list(reversed(range(len(x.shape))))
    if x.const is not None:
        n.g.add_const(n.outputs[0], np.transpose(x.const, perm).reshape(n.output().shape))
        return
    n.emit(PERMUTE_COPY.name, n.inputs[:1], perm=list(perm))


MAX_REPEAT = 255  # an instruction reads at most 255 tensors


def _lower_repeat(n):
    """Expand and Tile of an activation: per axis that grows, a concatenation of copies along
    it (Expand: of an axis of size 1; Tile: of the whole axis), after a reshape that adds
    Expand's leading axes."""
    x, out = n.g.value(n.inputs[0]), n.output()
    if x.const is not None:  # folding left it (large): the compiler keeps the constant
        want = list(out.shape)
        value = np.broadcast_to(x.const, want) if n.op_type == "Expand" else \
            np.tile(x.const, [int(r) for r in n.const(n.inputs[1], "repeats")])
        n.g.add_const(n.outputs[0], np.ascontiguousarray(value).reshape(want))
        return
    shape = [1] * (len(out.shape) - len(x.shape)) + list(x.shape)
    repeats = [o // s if s else 0 for o, s in zip(out.shape, shape)]
    if any(s * r != o for s, r, o in zip(shape, repeats, out.shape)):
        n.fail(f"{n.op_type} of {x.shape} to {out.shape} is not a repetition")
    if any(r > MAX_REPEAT for r in repeats):
        n.fail(f"{n.op_type} repeats an axis more than {MAX_REPEAT} times")
    steps = [axis for axis, r in enumerate(repeats) if r > 1]
    cur = n.inputs[0]
    if shape != list(x.shape):
        if not steps:
            n.emit(VIEW_COPY.name, [cur])
            return
        cur = n.value("ranked", shape, x.dtype)
        n.emit_to(VIEW_COPY.name, [n.inputs[0]], cur)
    if not steps:
        n.emit(VIEW_COPY.name, [cur])
        return
    for i, axis in enumerate(steps):
        shape = shape[:axis] + [shape[axis] * repeats[axis]] + shape[axis + 1:]
        if i + 1 == len(steps):
            n.emit(CAT.name, [cur] * repeats[axis], axis=axis)
        else:
            grown = n.value(f"repeated{axis}", shape, x.dtype)
            n.emit_to(CAT.name, [cur] * repeats[axis], grown, axis=axis)
            cur = grown


def _lower_concat(n):
    if n.op_type in ("Expand", "Tile"):
        _lower_repeat(n)
        return
    rank = len(n.output().shape)
    n.emit(CAT.name, n.inputs, axis=int(n.attrs["axis"]) % rank)


def _quantize_concat(q, node):
    y = q.g.values[node.outputs[0]]
    node.inputs = [q.requantized(name, y.scale, node.where, y.zero_point)
                   for name in node.inputs]
    node.inputs = [q.constant(i) for i in node.inputs]


VIEW_COPY, PERMUTE_COPY, CAT = (
    hooks("aten::view_copy.out", lower=_lower_reshape, quantize=same_scale,
          reference=lambda ins, a, out: ins[0].reshape(out.shape)),
    hooks("aten::permute_copy.out", lower=_lower_transpose, quantize=same_scale,
          arg_values=lambda g, node: dict(perm=node.attrs["perm"]),
          reference=lambda ins, a, out: np.ascontiguousarray(np.transpose(ins[0], a.perm))),
    hooks("aten::cat.out", lower=_lower_concat, quantize=_quantize_concat,
          arg_values=lambda g, node: dict(axis=node.attrs["axis"]),
          reference=lambda ins, a, out: np.concatenate(ins, axis=a.axis)))


# ---- slicing ----------------------------------------------------------------------------------

def slice_axis(size, start, end, step):
    """ONNX/numpy slice bounds of one axis: (first index, step, length)."""
    first, stop, step = slice(start, end, step).indices(size)
    return first, step, len(range(first, stop, step))


def _lower_slice(n):
    x = n.g.value(n.inputs[0])
    rank = len(x.shape)
    if len(n.inputs) < 3:
        n.fail("Slice needs starts and ends as inputs (opset 10 or later)")
    starts, ends = (np.asarray(n.const(i, what)).reshape(-1).tolist()
                    for i, what in ((n.inputs[1], "starts"), (n.inputs[2], "ends")))
    axes = list(range(len(starts)))
    if len(n.inputs) > 3 and n.inputs[3]:
        axes = np.asarray(n.const(n.inputs[3], "axes")).reshape(-1).tolist()
    steps = [1] * len(starts)
    if len(n.inputs) > 4 and n.inputs[4]:
        steps = np.asarray(n.const(n.inputs[4], "steps")).reshape(-1).tolist()
    slices = [[0, 1, size] for size in x.shape]
    for axis, start, end, step in zip(axes, starts, ends, steps):
        if step == 0:
            n.fail("Slice with step 0")
        if not -rank <= int(axis) < rank:
            n.fail(f"Slice axis {int(axis)} is outside the rank-{rank} input")
        axis = int(axis) % rank
        # int64 ends beyond the axis (INT64_MAX, -INT64_MAX) clamp like Python's slices.
        slices[axis] = list(slice_axis(x.shape[axis], int(start), int(end), int(step)))
    emit_slice(n, n.inputs[0], n.outputs[0], slices)


def emit_slice(n, source, output, slices):
    """A slice_copy of `source` into `output`; slices = (first, step, length) per axis."""
    want = [length for _, _, length in slices]
    if list(n.g.value(output).shape) != want:
        n.fail(f"slice of shape {want} does not match the output shape "
               f"{n.g.value(output).shape}")
    x = n.g.value(source)
    if x.const is not None:  # folded
        n.g.add_const(output, np.ascontiguousarray(x.const[_slice_index(slices)]).reshape(want))
        return
    n.emit_to(SLICE_COPY.name, [source], output,
              slices=[v for first, step, _ in slices for v in (first, step)])


def _slice_index(slices):
    """A numpy index of (first, step, length) per axis."""
    return np.ix_(*[first + step * np.arange(length) for first, step, length in slices])


def _lower_split(n):
    x = n.g.value(n.inputs[0])
    rank = len(x.shape)
    axis = int(n.attrs.get("axis", 0)) % rank
    if len(n.inputs) > 1 and n.inputs[1]:
        sizes = np.asarray(n.const(n.inputs[1], "split")).reshape(-1).tolist()
    elif "split" in n.attrs:
        sizes = list(n.attrs["split"])
    else:
        sizes = [n.g.value(o).shape[axis] for o in n.outputs]
    if sum(sizes) != x.shape[axis] or len(sizes) != len(n.outputs):
        n.fail(f"split sizes {sizes} do not fit axis {axis} of {x.shape}")
    first = 0
    for out, size in zip(n.outputs, sizes):
        slices = [[0, 1, d] for d in x.shape]
        slices[axis] = [first, 1, int(size)]
        emit_slice(n, n.inputs[0], out, slices)
        first += int(size)


def _slice(ins, a, out):
    x = ins[0]
    slices = [(a.slices[2 * d], a.slices[2 * d + 1], out.shape[d]) for d in range(x.ndim)]
    return np.ascontiguousarray(x[_slice_index(slices)]) if x.ndim else x.copy()


# ---- gathering --------------------------------------------------------------------------------

def _lower_gather(n):
    x = n.g.value(n.inputs[0])
    rank = len(x.shape)
    axis = int(n.attrs.get("axis", 0)) % rank
    size = x.shape[axis]
    if n.g.value(n.inputs[1]).const is None:  # indices computed at run time (token ids)
        if n.g.value(n.inputs[1]).dtype != np.int32:
            n.fail("Gather's indices must be a constant or an int32/int64 tensor")
        n.emit(INDEX_SELECT.name, n.inputs[:2], dim=axis)
        return
    index = np.asarray(n.const(n.inputs[1], "the indices of Gather")).astype(np.int64)
    if np.any(index < -size) or np.any(index >= size):
        n.fail(f"Gather indices outside axis {axis} of size {size}")
    index = np.where(index < 0, index + size, index).astype(np.int32)
    if x.const is not None:
        n.g.add_const(n.outputs[0], np.take(x.const, index, axis=axis))
        return
    name = n.g.add_const(n.outputs[0] + "::index", index)
    n.emit(INDEX_SELECT.name, [n.inputs[0], name], dim=axis)


def _quantize_gather(q, node):
    """A table gathered at run-time indices (an embedding) is an int8 constant; its rows keep
    its scale."""
    node.inputs = [q.constant(node.inputs[0])] + node.inputs[1:]
    same_scale(q, node)


def _gather(ins, a, out):
    from socsim_aot.reference import ReferenceError
    index = ins[1].astype(np.int64)
    size = ins[0].shape[a.dim]
    bad = (index < 0) | (index >= size)
    if bad.any():
        # the firmware's kernel refuses it too (kBadOperatorArgs)
        raise ReferenceError(f"index {int(index[bad].flat[0])} out of range: axis {a.dim} of "
                             f"the table has {size} entries")
    return np.take(ins[0], index, axis=a.dim).reshape(out.shape)


# ---- padding ----------------------------------------------------------------------------------

def _lower_pad(n):
    x = n.g.value(n.inputs[0])
    rank = len(x.shape)
    mode = n.attrs.get("mode", b"constant")
    mode = mode.decode() if isinstance(mode, bytes) else mode
    if len(n.inputs) > 1 and n.inputs[1]:
        pads = np.asarray(n.const(n.inputs[1], "pads")).reshape(-1).tolist()
    else:
        pads = list(n.attrs.get("pads", []))
    if len(n.inputs) > 3 and n.inputs[3]:
        n.fail("Pad with an axes input is not supported")
    if len(pads) != 2 * rank or any(p < 0 for p in pads):
        n.fail(f"pads {pads}: two non-negative entries per axis are supported")
    pairs = [[int(pads[d]), int(pads[d + rank])] for d in range(rank)]
    if mode == "constant":
        value = 0.0
        if len(n.inputs) > 2 and n.inputs[2]:
            value = float(np.asarray(n.const(n.inputs[2], "constant_value")).reshape(-1)[0])
        name = n.g.add_const(n.outputs[0] + "::value", np.array([value], np.float32))
        n.emit(CONSTANT_PAD_ND.name, [n.inputs[0], name], pads=[p for pair in pairs for p in pair])
        return
    target = {"reflect": REFLECTION_PAD2D, "edge": REPLICATION_PAD2D}.get(mode)
    if target is None:
        n.fail(f"Pad mode {mode!r} is not supported (constant, reflect, edge)")
    if rank < 2 or any(p != [0, 0] for p in pairs[:-2]):
        n.fail(f"Pad mode {mode} pads the last two axes only")
    (top, bottom), (left, right) = pairs[-2:]
    if mode == "reflect" and (max(top, bottom) >= x.shape[-2] or
                              max(left, right) >= x.shape[-1]):
        n.fail("reflect padding must be smaller than the padded axis")
    n.emit(target.name, n.inputs[:1], pad_left=left, pad_right=right, pad_top=top,
           pad_bottom=bottom)


def _quantize_pad(q, node):
    """The pad value in the input's quantisation; the output keeps it."""
    same_scale(q, node)
    x = q.g.values[node.inputs[0]]
    value = q.g.values[node.inputs[1]].const
    node.inputs[1] = q.g.add_const(node.outputs[0] + "::value_q8",
                                   fx.quantize_f32(value, x.scale, x.zero_point))


def _constant_pad(ins, a, out):
    x, value = ins
    pairs = [(a.pads[2 * d], a.pads[2 * d + 1]) for d in range(x.ndim)]
    return np.pad(x, pairs, constant_values=value.reshape(-1)[0])


def _pad2d(mode):
    def run(ins, a, out):
        x = ins[0]
        pairs = [(0, 0)] * (x.ndim - 2) + [(a.pad_top, a.pad_bottom), (a.pad_left, a.pad_right)]
        return np.pad(x, pairs, mode=mode)
    return run


def _lower_slice_or_split(n):
    (_lower_split if n.op_type == "Split" else _lower_slice)(n)


SLICE_COPY, INDEX_SELECT, CONSTANT_PAD_ND, REFLECTION_PAD2D, REPLICATION_PAD2D = (
    hooks("aten::slice_copy.Tensor_out", lower=_lower_slice_or_split, quantize=same_scale,
          arg_values=lambda g, node: dict(slices=node.attrs["slices"]), reference=_slice),
    hooks("aten::index_select.out", lower=_lower_gather, quantize=_quantize_gather,
          arg_values=lambda g, node: dict(dim=node.attrs["dim"]), reference=_gather),
    hooks("aten::constant_pad_nd.out", lower=_lower_pad, quantize=_quantize_pad,
          arg_values=lambda g, node: dict(pads=node.attrs["pads"]), reference=_constant_pad),
    hooks("aten::reflection_pad2d.out", quantize=same_scale,
          arg_values=lambda g, node: {a.name: node.attrs[a.name] for a in PAD2D_ARGS},
          reference=_pad2d("reflect")),
    hooks("aten::replication_pad2d.out", quantize=same_scale,
          arg_values=lambda g, node: {a.name: node.attrs[a.name] for a in PAD2D_ARGS},
          reference=_pad2d("edge")))


def _as_strided(ins, a, out):
    flat = ins[0].reshape(-1)
    index = np.full(out.shape, a.storage_offset, np.int64)
    for d, stride in enumerate(a.strides):
        shape = [1] * len(out.shape)
        shape[d] = out.shape[d]
        index = index + np.arange(out.shape[d], dtype=np.int64).reshape(shape) * stride
    return flat[index]


AS_STRIDED_COPY, EXPAND_COPY = (
    hooks("aten::as_strided_copy.out", reference=_as_strided),
    hooks("aten::expand_copy.out",
          reference=lambda ins, a, out: np.broadcast_to(ins[0], out.shape).copy()))
