"""TFLite front end, the resizes, on the model's own NHWC axes (no transpose); the output
keeps the input's quantisation (TFLite's int8 kernels require it).

- RESIZE_NEAREST_NEIGHBOR: a gather of rows, then of columns, at the source indices TFLite's
  rule gives (tflite_eval.nearest_indices: float32 scale, half-pixel centres, align_corners),
  as two `aten::index_select.out` with constant indices.
- RESIZE_BILINEAR: `tflite::resize_bilinear.out` with the per-row and per-column tables of
  source positions in 1/1024ths and their neighbours (tflite_eval.bilinear_coords), the
  kernel weighting the four neighbours with TFLite's 10-bit fractions and rounding.
"""

import numpy as np

from socsim_aot import tflite_eval
from socsim_aot import tflite_frontend as tf
from socsim_aot import tflite_reader as tr
from socsim_aot.ir import CompileError, Node, Value
from socsim_aot.schema import data_movement
from socsim_aot.schema import tflite as tflite_hooks


def _check_resize(b, op: tr.Operator):
    """(input, output, align_corners, half_pixel_centers) of a resize, checked."""
    tf._same_quantisation(b, op, op.inputs[:1])
    ts = b.model.tensors
    x, y = ts[op.inputs[0]], ts[op.outputs[0]]
    if len(x.shape) != 4 or len(y.shape) != 4 or x.shape[0] != y.shape[0] or \
            x.shape[3] != y.shape[3]:
        raise CompileError(f"{op.where}: input {x.shape} and output {y.shape} must be NHWC "
                           "with the same batch and channels")
    size = [int(v) for v in tf._constant(b, op, op.inputs[1], "the size").reshape(-1)]
    if size != list(y.shape[1:3]):
        raise CompileError(f"{op.where}: size {size} is not the output's {y.shape[1:3]}")
    return x, y, bool(op.options.get("align_corners", False)), \
        bool(op.options.get("half_pixel_centers", False))


def _resize_nearest(b, op: tr.Operator):
    x, y, ac, hp = _check_resize(b, op)
    rows = tflite_eval.nearest_indices(y.shape[1], x.shape[1], ac, hp)
    cols = tflite_eval.nearest_indices(y.shape[2], x.shape[2], ac, hp)
    if min(rows + cols) < 0:
        raise CompileError(f"{op.where}: a source index before the input (not supported)")
    g = b.g
    yname = b.value(op.outputs[0])
    mid = f"{yname}::rows"
    g.values[mid] = Value(mid, [x.shape[0], y.shape[1], x.shape[2], x.shape[3]],
                          np.dtype(np.int8), scale=float(y.scale[0]),
                          zero_point=int(y.zero_point[0]))
    ri = g.add_const(f"{yname}::row_index", np.array(rows, np.int32))
    ci = g.add_const(f"{yname}::column_index", np.array(cols, np.int32))
    g.nodes.append(Node(data_movement.INDEX_SELECT.name, [b.value(op.inputs[0]), ri], [mid],
                        {"dim": 1}, op.where))
    g.nodes.append(Node(data_movement.INDEX_SELECT.name, [mid, ci], [yname], {"dim": 2},
                        op.where))


def _resize_bilinear(b, op: tr.Operator):
    x, y, ac, hp = _check_resize(b, op)
    g = b.g
    yname = b.value(op.outputs[0])
    tables = []
    for what, o_size, i_size in (("rows", y.shape[1], x.shape[1]),
                                 ("columns", y.shape[2], x.shape[2])):
        coords = np.array(tflite_eval.bilinear_coords(o_size, i_size, ac, hp), np.int64)
        if np.any(np.abs(coords) >= 1 << 31) or \
                np.any(np.abs(coords[:, 0] - 1024 * coords[:, 1]) > 1024):
            raise CompileError(f"{op.where}: a resize from {i_size} to {o_size} is outside "
                               "the supported range")
        tables.append(g.add_const(f"{yname}::{what}", coords.astype(np.int32)))
    g.nodes.append(Node(tflite_hooks.TFLITE_RESIZE_BILINEAR.name,
                        [b.value(op.inputs[0])] + tables, [yname], {}, op.where))


LOWERINGS = {"RESIZE_NEAREST_NEIGHBOR": (_resize_nearest, data_movement.INDEX_SELECT.name),
             "RESIZE_BILINEAR": (_resize_bilinear,
                                 tflite_hooks.TFLITE_RESIZE_BILINEAR.name)}
ARITY = {"RESIZE_NEAREST_NEIGHBOR": (2, 1), "RESIZE_BILINEAR": (2, 1)}
