"""The compiler's hooks (quantisation, numpy reference) for the resize family.

Its operators and their rules are declared in socsim_schema/resize.py.
"""

import numpy as np

from socsim_aot.schema.activations import same_scale
from socsim_aot.schema.hooks import hooks

WEIGHT_BITS = 15
_COORDINATES = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                "tf_half_pixel_for_nearest")
_NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil")


def _text(value, default):
    if value is None:
        return default
    return value.decode() if isinstance(value, bytes) else value


def source_coordinates(size_in, size_out, scale, mode):
    """ONNX Resize's source coordinate of every output index along one axis."""
    out = np.arange(size_out, dtype=np.float64)
    if mode == "half_pixel":
        return (out + 0.5) / scale - 0.5
    if mode == "pytorch_half_pixel":
        return (out + 0.5) / scale - 0.5 if size_out > 1 else np.zeros(size_out)
    if mode == "align_corners":
        return out * (size_in - 1) / (size_out - 1) if size_out > 1 else np.zeros(size_out)
    if mode == "asymmetric":
        return out / scale
    return (out + 0.5) / scale  # tf_half_pixel_for_nearest


def nearest_index(coords, size_in, rounding):
    if rounding == "floor":
        index = np.floor(coords)
    elif rounding == "ceil":
        index = np.ceil(coords)
    else:
        half = np.floor(coords) + 0.5 == coords
        index = np.where(half, np.floor(coords) if rounding == "round_prefer_floor"
                         else np.ceil(coords), np.floor(coords + 0.5))
    return np.clip(index, 0, size_in - 1).astype(np.int32)


def linear_neighbours(coords, size_in):
    """(first, second) source index and the second's weight of every coordinate."""
    coords = np.clip(coords, 0, size_in - 1)
    first = np.floor(coords).astype(np.int32)
    second = np.minimum(first + 1, size_in - 1).astype(np.int32)
    return np.stack([first, second], axis=1), (coords - first).astype(np.float64)


def _lower(n):
    x = n.g.value(n.inputs[0])
    y = n.g.value(n.outputs[0])
    if len(x.shape) != 4:
        n.fail("Resize of a tensor other than NCHW (rank 4)")
    if list(y.shape[:2]) != list(x.shape[:2]):
        n.fail("Resize of the batch or channel axis is not supported")
    mode = _text(n.attrs.get("mode"), "nearest")
    coordinates = _text(n.attrs.get("coordinate_transformation_mode"), "half_pixel")
    rounding = _text(n.attrs.get("nearest_mode"), "round_prefer_floor")
    if mode not in ("nearest", "linear"):
        n.fail(f"Resize mode {mode!r} is not supported (nearest, linear)")
    if coordinates not in _COORDINATES:
        n.fail(f"Resize coordinate_transformation_mode {coordinates!r} is not supported")
    if rounding not in _NEAREST:
        n.fail(f"Resize nearest_mode {rounding!r} is not supported")
    if n.attrs.get("exclude_outside", 0) or _text(n.attrs.get("keep_aspect_ratio_policy"),
                                                   "stretch") != "stretch":
        n.fail("Resize with exclude_outside or keep_aspect_ratio_policy is not supported")
    scales = None
    if len(n.inputs) > 2 and n.inputs[2]:
        given = np.asarray(n.const(n.inputs[2], "the scales"), np.float64).reshape(-1)
        scales = given if given.size else None
    if scales is None:  # sizes given: the scale is the ratio of the sizes
        scales = [o / i for o, i in zip(y.shape, x.shape)]
    axes = [source_coordinates(x.shape[d], y.shape[d], float(scales[d]), coordinates)
            for d in (2, 3)]
    g = n.g
    if mode == "nearest":
        index = np.concatenate([nearest_index(c, x.shape[d], rounding)
                                for c, d in zip(axes, (2, 3))])
        name = g.add_const(n.outputs[0] + "::index", index)
        n.emit(UPSAMPLE_NEAREST2D.name, [n.inputs[0], name])
        return
    pairs, weights = zip(*[linear_neighbours(c, x.shape[d]) for c, d in zip(axes, (2, 3))])
    index = g.add_const(n.outputs[0] + "::index", np.concatenate(pairs))
    weight = g.add_const(n.outputs[0] + "::weight",
                         np.concatenate(weights).astype(np.float32))
    n.emit(UPSAMPLE_BILINEAR2D.name, [n.inputs[0], index, weight])


def _quantize_bilinear(q, node):
    same_scale(q, node)
    w = q.g.values[node.inputs[2]].const.astype(np.float64)
    node.inputs[2] = q.g.add_const(node.outputs[0] + "::weight_q15",
                                   np.floor(w * 2 ** WEIGHT_BITS + 0.5).astype(np.int32))


def _split(table, out):
    ho = out.shape[2]
    return table[:ho], table[ho:]


def _nearest(ins, a, out):
    x, index = ins
    rows, cols = _split(index.astype(np.int64), out)
    # one gather of both axes: no intermediate of the output's rows by the input's columns
    return np.ascontiguousarray(x[:, :, rows[:, None], cols[None, :]])


def _gathered(x, index, out):
    (r, c) = (t.astype(np.int64) for t in _split(index, out))
    return [[x[:, :, r[:, i, None], c[None, :, j]] for j in (0, 1)] for i in (0, 1)]


def _bilinear(ins, a, out):
    x, index, weight = ins
    (p00, p01), (p10, p11) = _gathered(x, index, out)
    wy, wx = _split(weight.astype(np.float32), out)
    wy, wx = wy.reshape(-1, 1), wx.reshape(1, -1)
    one = np.float32(1)
    top = (one - wx) * p00 + wx * p01
    bottom = (one - wx) * p10 + wx * p11
    return ((one - wy) * top + wy * bottom).astype(np.float32)


def _quantized_bilinear(ins, a, out):
    x, index, weight = ins
    (p00, p01), (p10, p11) = (tuple(v.astype(np.int64) for v in pair)
                              for pair in _gathered(x, index, out))
    wy, wx = (t.astype(np.int64) for t in _split(weight, out))
    wy, wx = wy.reshape(-1, 1), wx.reshape(1, -1)
    one = np.int64(1) << WEIGHT_BITS
    acc = (p00 * (one - wx) + p01 * wx) * (one - wy) + (p10 * (one - wx) + p11 * wx) * wy
    return ((acc + (np.int64(1) << (2 * WEIGHT_BITS - 1))) >> (2 * WEIGHT_BITS)).astype(np.int8)


NPU_MAX_SCALE = 64  # models/npu/layers/resize.cpp


def repeat_index(size_in, size_out):
    """The index of one axis that repeats every source index size_out / size_in times (None
    when the scale is not an integer within the NPU's limit)."""
    if size_out % size_in or size_out // size_in > NPU_MAX_SCALE:
        return None
    return np.arange(size_out, dtype=np.int32) // (size_out // size_in)


def _npu_nearest(g, node):
    """An int8 nearest resize by integer scale factors, the tables repeating each source row
    and column (the NPU's resize unit)."""
    x, y = g.input_value(node), g.output_value(node)
    index = g.value(node.inputs[1]).const
    if x.const is not None or index is None or len(x.shape) != 4:
        return None
    axes = [repeat_index(x.shape[d], y.shape[d]) for d in (2, 3)]
    if any(a is None for a in axes) or \
            not np.array_equal(np.asarray(index).reshape(-1), np.concatenate(axes)):
        return None
    return "resize_nearest"


UPSAMPLE_NEAREST2D, UPSAMPLE_BILINEAR2D, QUANTIZED_UPSAMPLE_BILINEAR2D = (
    hooks("aten::upsample_nearest2d.out", lower=_lower, quantize=same_scale, reference=_nearest,
          npu_accepts=_npu_nearest),
    hooks("aten::upsample_bilinear2d.out", quantize=_quantize_bilinear, reference=_bilinear),
    hooks("quantized_decomposed::upsample_bilinear2d.out", reference=_quantized_bilinear))
