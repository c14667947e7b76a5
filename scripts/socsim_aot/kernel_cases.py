"""Single-operator programs with numpy expected outputs, for the firmware kernel tests.

Writes, for every case, NAME.pte (an ExecuTorch program with one instruction, the kernel as
a socsim:: operator; NAME.prog, the same program in socsim's legacy format, for the legacy
reader's tests while the runtime reads it), NAME.in (the raw input
bytes, inputs in order) and NAME.out (the expected raw output bytes from the numpy reference
executor), plus manifest.txt with one line per case: "NAME TOLERANCE OPERATOR DTYPE NPU" (0 =
bit-exact; the operator's schema name and the dtype code of its first input, the kernel key;
NPU 1 when NAME.npu holds the case as an NPU layer, see npu_layer()). The firmware's host
test runs each program through the runtime, the NPU model's test each NAME.npu, and both
compare with NAME.out.
"""

import argparse
import os
import struct
import sys

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import ir, npu_partition
from socsim_aot import program_format as pf
from socsim_aot import pte_format
from socsim_aot import reference
from socsim_aot import schema
from socsim_aot.schema import activations
from socsim_aot.schema.activations import CLAMP, QUANTIZED_CLAMP, QUANTIZED_RELU, RELU
from socsim_aot.schema.conv_transpose import ZERO_INSERT
from socsim_aot.schema.masking import MASKED_SOFTMAX, QUANTIZED_MASKED_SOFTMAX
from socsim_aot.schema.indexing import ARGMAX, ARGMIN, INT64_TO_FLOAT, TO_COPY
from socsim_aot.schema.selection import (EQ, GE, GT, LE, LOGICAL_AND, LOGICAL_NOT,
                                         LOGICAL_OR, LOGICAL_XOR, LT, TOPK_INDICES,
                                         TOPK_VALUES, WHERE)
from socsim_aot.schema.conv import (CONVOLUTION, LINEAR, QUANTIZED_CONVOLUTION,
                                    QUANTIZED_LINEAR, window_out)
from socsim_aot.schema.data_movement import (CAT, CONSTANT_PAD_ND, INDEX_SELECT, PERMUTE_COPY,
                                             REFLECTION_PAD2D, REPLICATION_PAD2D, SLICE_COPY,
                                             VIEW_COPY)
from socsim_aot.schema import normalization
from socsim_aot.schema.matmul import MATMUL, QUANTIZED_MATMUL
from socsim_aot.schema.data_movement import AS_STRIDED_COPY, EXPAND_COPY
from socsim_aot.schema.normalization import BATCH_NORM
from socsim_aot.schema.pooling import ADAPTIVE_AVG_POOL2D_WINDOWS, MAX_POOL2D_INDICES
from socsim_aot.schema.quantization import DEQUANTIZE_PER_CHANNEL, QUANTIZE_RECIPROCAL
from socsim_aot.schema.normalization import (LAYER_NORM, LAYER_NORM_STAT, LAYER_NORM_SUMSQ,
                                             QUANTIZED_LAYER_NORM)
from socsim_aot.schema import resize
from socsim_aot.schema.resize import (QUANTIZED_UPSAMPLE_BILINEAR2D, UPSAMPLE_BILINEAR2D,
                                      UPSAMPLE_NEAREST2D)
from socsim_aot.schema.elementwise import (ADD, DIV, MUL, QUANTIZED_ADD, QUANTIZED_DIV,
                                           QUANTIZED_MUL, QUANTIZED_SUB, SUB)
from socsim_aot.schema.pooling import (ADAPTIVE_AVG_POOL2D, AVG_POOL2D, MAX_POOL2D,
                                       QUANTIZED_ADAPTIVE_AVG_POOL2D, QUANTIZED_AVG_POOL2D)
from socsim_aot.schema.quantization import DEQUANTIZE, QUANTIZE, REQUANTIZE
from socsim_aot.schema.reduction import AMAX, MEAN, QUANTIZED_MEAN, QUANTIZED_SUM, SUM
from socsim_aot.schema.softmax import QUANTIZED_SOFTMAX, SOFTMAX
from socsim_aot.schema.tflite import TFLITE_ADD
from socsim_aot.schema import tflite as tflite_ops
from socsim_aot import tflite_arith
from socsim_schema import layouts

FLOAT_TOLERANCE = 1e-5  # relative to max(1, |expected|)


class Const:
    """Marks a constant input of a case."""

    def __init__(self, value):
        self.value = np.asarray(value)


def single_op_program(op, inputs, out_shape, out_dtype, args):
    """A program running operator `op` (a schema operator, or its name) once with `args` (by
    name, or the argument words); non-Const inputs become program inputs."""
    op = schema.get(op) if isinstance(op, str) else op
    words = schema.pack_args(op, args) if isinstance(args, dict) else list(args)
    tensors, ins_ids, prog_inputs, offset = [], [], [], 0

    def planned(shape, dtype):
        nonlocal offset
        t = pf.Tensor(dtype=pf.dtype_code(dtype), shape=list(shape), offset=offset)
        offset += (t.nbytes + 15) // 16 * 16
        return t

    for x in inputs:
        if isinstance(x, Const):
            tensors.append(pf.Tensor(dtype=pf.dtype_code(x.value.dtype), shape=list(x.value.shape),
                                     constant=x.value))
        else:
            tensors.append(planned(x.shape, x.dtype))
            prog_inputs.append(len(tensors) - 1)
        ins_ids.append(len(tensors) - 1)
    tensors.append(planned(out_shape, out_dtype))
    out_id = len(tensors) - 1
    return pf.Program(tensors=tensors,
                      instructions=[pf.Instruction(op.name, ins_ids, [out_id], words)],
                      buffers=[offset], delegates=[], inputs=prog_inputs, outputs=[out_id])


def _i8(rng, shape):
    return rng.integers(-128, 128, size=shape, dtype=np.int64).astype(np.int8)


def _u8(rng, shape):
    return rng.integers(0, 256, shape).astype(np.uint8)


def _f32(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _requant_table(rng, channels):
    rows = [fx.quantize_multiplier(float(s)) for s in rng.uniform(0.0005, 0.02, channels)]
    return Const(np.array(rows, dtype=np.int32))


def _conv_args(geo, zp_in, zp_out, lo, hi):
    return dict(geo, zp_in=zp_in, zp_out=zp_out, act_min=lo, act_max=hi)


def cases(seed=7):
    """Yields (name, operator, inputs, out_shape, out_dtype, args by name). Every kernel of
    the schema (operator and element type) has at least one case: kernel_cases_test checks."""
    rng = np.random.default_rng(seed)
    f = np.float32
    inf = float("inf")
    for name, plain, quantized in (("add", ADD, QUANTIZED_ADD), ("sub", SUB, QUANTIZED_SUB),
                                   ("mul", MUL, QUANTIZED_MUL)):
        yield f"{name}_f32", plain, [_f32(rng, (2, 3, 4)), _f32(rng, (2, 3, 4))], (2, 3, 4), f, {}
        yield f"{name}_f32_broadcast", plain, [_f32(rng, (2, 3, 4)), _f32(rng, (3, 1))], \
            (2, 3, 4), f, {}
        yield f"{name}_i8_wrap", plain, [_i8(rng, (37,)), _i8(rng, (37,))], (37,), np.int8, {}
        yield f"{name}_i8_wrap_broadcast", plain, [_i8(rng, (4, 1, 5)), _i8(rng, (3, 1))], \
            (4, 3, 5), np.int8, {}
    ma, n = fx.quantize_multiplier(0.8)
    mb = fx.multiplier_at_shift(0.35, n)
    for name, op in (("add", QUANTIZED_ADD), ("sub", QUANTIZED_SUB)):
        sum_args = dict(zp_a=3, m_a=ma, zp_b=-7, m_b=mb, n=n, zp_out=-2, act_min=-128,
                        act_max=127)
        yield f"{name}_i8_quant", op, [_i8(rng, (2, 8, 5)), _i8(rng, (2, 8, 5))], (2, 8, 5), \
            np.int8, sum_args
        yield f"{name}_i8_quant_relu", op, [_i8(rng, (64,)), _i8(rng, (1,))], (64,), np.int8, \
            dict(sum_args, zp_a=-5, zp_b=9, zp_out=-20, act_min=-20)
    m, n = fx.quantize_multiplier(0.0123)
    yield "mul_i8_quant", QUANTIZED_MUL, [_i8(rng, (3, 7)), _i8(rng, (3, 7))], (3, 7), np.int8, \
        dict(zp_a=4, zp_b=-3, m=m, n=n, zp_out=1, act_min=-128, act_max=127)
    # TFLite's ADD: inputs at scales 0.05 and 0.02, output 0.06 (its rescaling as the TFLite
    # front end computes it: both inputs at twice the larger scale, after a shift of 20)
    tw = 2 * 0.05
    (m_a, e_a), (m_b, e_b), (m_o, e_o) = (tflite_arith.quantize_multiplier(r) for r in
                                          (0.05 / tw, 0.02 / tw, tw / ((1 << 20) * 0.06)))
    tfl_args = dict(zp_a=-3, m_a=m_a, e_a=e_a, zp_b=11, m_b=m_b, e_b=e_b, m_out=m_o, e_out=e_o,
                    zp_out=-6, act_min=-128, act_max=127)
    yield "tflite_add_i8", TFLITE_ADD, [_i8(rng, (2, 8, 5)), _i8(rng, (2, 8, 5))], (2, 8, 5), \
        np.int8, tfl_args
    yield "tflite_add_i8_broadcast_relu", TFLITE_ADD, [_i8(rng, (3, 1, 6)), _i8(rng, (4, 1))], \
        (3, 4, 6), np.int8, dict(tfl_args, act_min=-6)
    yield "relu_f32", RELU, [_f32(rng, (5, 9))], (5, 9), f, {}
    yield "relu_i8", QUANTIZED_RELU, [_i8(rng, (5, 9))], (5, 9), np.int8, dict(zero_point=-17)
    yield "clip_f32", CLAMP, [_f32(rng, (40,), 8)], (40,), f, dict(lo=0.0, hi=6.0)
    yield "clip_i8", QUANTIZED_CLAMP, [_i8(rng, (40,))], (40,), np.int8, dict(lo=-30, hi=90)

    conv_geoms = [  # name, x shape, out channels, kernel, stride, pads (t,l,b,r), dilation, groups
        ("3x3_pad1", (1, 3, 8, 8), 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
        ("3x3_stride2_asym", (2, 4, 9, 7), 6, (3, 3), (2, 2), (0, 1, 1, 0), (1, 1), 1),
        ("dilated", (1, 2, 10, 10), 3, (3, 3), (1, 1), (2, 2, 2, 2), (2, 2), 1),
        ("groups2", (1, 4, 6, 6), 6, (3, 1), (1, 2), (1, 0, 1, 0), (1, 1), 2),
        ("depthwise", (1, 8, 7, 7), 8, (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 8),
        ("1x1", (1, 16, 4, 4), 8, (1, 1), (1, 1), (0, 0, 0, 0), (1, 1), 1),
    ]
    for gname, xs, cout, (kh, kw), (sh, sw), pads, (dh, dw), g in conv_geoms:
        oh = window_out(xs[2], kh, sh, pads[0], pads[2], dh, False)
        ow = window_out(xs[3], kw, sw, pads[1], pads[3], dw, False)
        geo = dict(stride_h=sh, stride_w=sw, pad_top=pads[0], pad_left=pads[1],
                   pad_bottom=pads[2], pad_right=pads[3], dilation_h=dh, dilation_w=dw,
                   groups=g)
        oshape = (xs[0], cout, oh, ow)
        wshape = (cout, xs[1] // g, kh, kw)
        yield f"conv2d_f32_{gname}", CONVOLUTION, \
            [_f32(rng, xs), Const(_f32(rng, wshape, 0.3)), Const(_f32(rng, (cout,)))], oshape, f, \
            dict(geo, act_min=-inf, act_max=inf)
        yield f"conv2d_f32_{gname}_relu6", CONVOLUTION, \
            [_f32(rng, xs), Const(_f32(rng, wshape, 0.3)), Const(_f32(rng, (cout,)))], oshape, f, \
            dict(geo, act_min=0.0, act_max=6.0)
        bias = Const(rng.integers(-3000, 3000, cout).astype(np.int32))
        yield f"conv2d_i8_{gname}", QUANTIZED_CONVOLUTION, \
            [_i8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], oshape, \
            np.int8, _conv_args(geo, -3, 5, -128, 127)
        yield f"conv2d_i8_{gname}_relu", QUANTIZED_CONVOLUTION, \
            [_i8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], oshape, \
            np.int8, _conv_args(geo, 11, -9, -9, 127)
        if gname in ("3x3_pad1", "depthwise"):  # a model's uint8 input (the first layer)
            yield f"conv2d_u8_{gname}", QUANTIZED_CONVOLUTION, \
                [_u8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], \
                oshape, np.int8, _conv_args(geo, 0, 3, -128, 127)
            yield f"conv2d_u8_{gname}_zp200", QUANTIZED_CONVOLUTION, \
                [_u8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], \
                oshape, np.int8, _conv_args(geo, 200, -7, -20, 127)
    yield "linear_f32", LINEAR, [_f32(rng, (3, 20)), Const(_f32(rng, (7, 20), 0.2)),
                                 Const(_f32(rng, (7,)))], (3, 7), f, dict(act_min=-inf, act_max=inf)
    yield "linear_i8", QUANTIZED_LINEAR, [_i8(rng, (2, 33)), Const(_i8(rng, (10, 33))),
                                          Const(rng.integers(-5000, 5000, 10).astype(np.int32)),
                                          _requant_table(rng, 10)], (2, 10), np.int8, \
        dict(zp_in=2, zp_out=-4, act_min=-128, act_max=127)

    pool_geoms = [  # name, x shape, kernel, stride, pads, ceil_mode
        ("3x3_s2_p1", (1, 3, 9, 9), (3, 3), (2, 2), (1, 1, 1, 1), 0),
        ("2x2_s2", (2, 2, 8, 6), (2, 2), (2, 2), (0, 0, 0, 0), 0),
        ("3x3_s2_ceil", (1, 2, 8, 8), (3, 3), (2, 2), (0, 0, 0, 0), 1),
        ("3x2_s1_asym", (1, 2, 5, 6), (3, 2), (1, 1), (1, 0, 0, 1), 0),
    ]
    for gname, xs, (kh, kw), (sh, sw), pads, ceil in pool_geoms:
        oh = window_out(xs[2], kh, sh, pads[0], pads[2], 1, bool(ceil))
        ow = window_out(xs[3], kw, sw, pads[1], pads[3], 1, bool(ceil))
        geo = dict(kernel_h=kh, kernel_w=kw, stride_h=sh, stride_w=sw, pad_top=pads[0],
                   pad_left=pads[1], pad_bottom=pads[2], pad_right=pads[3], ceil_mode=ceil)
        oshape = (xs[0], xs[1], oh, ow)
        yield f"max_pool2d_f32_{gname}", MAX_POOL2D, [_f32(rng, xs)], oshape, f, geo
        yield f"max_pool2d_i8_{gname}", MAX_POOL2D, [_i8(rng, xs)], oshape, np.int8, geo
        m, n = fx.quantize_multiplier(0.9, bits=23, max_shift=30)
        for include_pad in (0, 1):
            yield f"avg_pool2d_f32_{gname}_pad{include_pad}", AVG_POOL2D, [_f32(rng, xs)], \
                oshape, f, dict(geo, count_include_pad=include_pad)
            yield f"avg_pool2d_i8_{gname}_pad{include_pad}", QUANTIZED_AVG_POOL2D, \
                [_i8(rng, xs)], oshape, np.int8, \
                dict(geo, count_include_pad=include_pad, zp_in=3, zp_out=-6, m=m, n=n)
    m, n = fx.quantize_multiplier(1.3, bits=23, max_shift=30)
    yield "global_avg_pool2d_f32", ADAPTIVE_AVG_POOL2D, [_f32(rng, (2, 5, 4, 3))], \
        (2, 5, 1, 1), f, {}
    yield "global_avg_pool2d_i8", QUANTIZED_ADAPTIVE_AVG_POOL2D, [_i8(rng, (2, 5, 4, 3))], \
        (2, 5, 1, 1), np.int8, dict(zp_in=-4, zp_out=2, m=m, n=n)
    yield "softmax_f32", SOFTMAX, [_f32(rng, (3, 10), 3)], (3, 10), f, dict(dim=1)
    yield "softmax_f32_dim1", SOFTMAX, [_f32(rng, (2, 5, 3, 2), 3)], (2, 5, 3, 2), f, dict(dim=1)
    yield "softmax_f32_dim0", SOFTMAX, [_f32(rng, (4, 3), 30)], (4, 3), f, dict(dim=0)
    yield "softmax_i8", QUANTIZED_SOFTMAX, [_i8(rng, (4, 10)), Const(fx.softmax_table(0.05))], \
        (4, 10), np.int8, dict(dim=1)
    yield "softmax_i8_dim2", QUANTIZED_SOFTMAX, \
        [_i8(rng, (2, 3, 7, 4)), Const(fx.softmax_table(0.02))], (2, 3, 7, 4), np.int8, dict(dim=2)
    yield "reshape_f32", VIEW_COPY, [_f32(rng, (2, 3, 4))], (6, 4), f, {}
    yield "reshape_i8", VIEW_COPY, [_i8(rng, (2, 3, 4))], (24,), np.int8, {}
    yield "transpose_f32", PERMUTE_COPY, [_f32(rng, (2, 3, 4))], (4, 2, 3), f, dict(perm=[2, 0, 1])
    yield "transpose_i8", PERMUTE_COPY, [_i8(rng, (2, 3, 4, 5))], (3, 5, 2, 4), np.int8, \
        dict(perm=[1, 3, 0, 2])
    yield "concat_f32", CAT, [_f32(rng, (2, 3, 2)), _f32(rng, (2, 1, 2)),
                              _f32(rng, (2, 4, 2))], (2, 8, 2), f, dict(axis=1)
    yield "concat_i8", CAT, [_i8(rng, (3, 2)), _i8(rng, (3, 5))], (3, 7), np.int8, dict(axis=1)
    x = _f32(rng, (50,), 4)
    x[:4] = [0.25, -0.25, 0.75, 1e9]  # halves round to even; saturation
    yield "quantize", QUANTIZE, [x], (50,), np.int8, dict(scale=0.5, zero_point=-3)
    yield "dequantize", DEQUANTIZE, [_i8(rng, (50,))], (50,), f, dict(scale=0.037, zero_point=5)
    m, n = fx.quantize_multiplier(0.61)
    yield "requantize", REQUANTIZE, [_i8(rng, (50,))], (50,), np.int8, \
        dict(zp_in=-7, zp_out=12, m=m, n=n)
    # m / 2^n = 0.5: every odd input is an exact half, which must round towards +infinity.
    yield "requantize_ties", REQUANTIZE, [np.arange(-128, 128).astype(np.int8)], (256,), \
        np.int8, dict(zp_in=0, zp_out=0, m=1 << 30, n=31)
    yield "relu_i8_plain", RELU, [_i8(rng, (5, 9))], (5, 9), np.int8, {}
    yield "reshape_i32", VIEW_COPY, [rng.integers(-2 ** 31, 2 ** 31, (3, 4)).astype(np.int32)], \
        (2, 6), np.int32, {}
    yield from lookup_cases(rng)
    yield from reduction_cases(rng)
    yield from data_movement_cases(rng)
    yield from division_cases(rng)
    yield from matmul_cases(rng)
    yield from layer_norm_cases(rng)
    yield from resize_cases(rng)
    yield from per_channel_cases(rng)
    yield from one_d_window_cases(rng)
    yield from conv_transpose_cases(rng)
    yield from tflite_cases(np.random.default_rng(seed + 29))
    yield from masked_softmax_cases(rng)
    yield from indexing_cases(rng)
    yield from selection_cases(rng)
    yield from executorch_cases(rng)


def executorch_cases(rng):
    """The kernels of ExecuTorch's operators (docs/executorch.md): adaptive average pooling
    (windows that overlap, that are the identity, and of uneven sizes), strided copies (an
    overlapping window view, a transposing view, an offset), broadcast copies of every type,
    inference batch norm, per-channel dequantisation and ExecuTorch's quantize."""
    f = np.float32
    for name, xs, out in (("overlap", (1, 3, 6, 6), (1, 3, 7, 7)),
                          ("identity", (2, 2, 7, 7), (2, 2, 7, 7)),
                          ("uneven", (1, 4, 13, 10), (1, 4, 3, 4)),
                          ("global", (2, 3, 5, 4), (2, 3, 1, 1))):
        yield f"adaptive_avg_pool2d_f32_{name}", ADAPTIVE_AVG_POOL2D_WINDOWS, [_f32(rng, xs)], \
            out, f, {}
    u8 = rng.integers(0, 2, (2, 3, 4)).astype(np.uint8)
    data = {"f32": _f32(rng, (2, 3, 4)), "i8": _i8(rng, (2, 3, 4)), "u8": u8,
            "i32": rng.integers(-2 ** 31, 2 ** 31, (2, 3, 4)).astype(np.int32)}
    for name, x in data.items():
        # overlapping windows of 3 along each row, and a transpose of the last two axes
        yield f"as_strided_{name}_windows", AS_STRIDED_COPY, [x], (2, 2, 3), x.dtype, \
            dict(storage_offset=0, strides=[12, 1, 1])
        yield f"as_strided_{name}_transpose", AS_STRIDED_COPY, [x], (2, 4, 3), x.dtype, \
            dict(storage_offset=0, strides=[12, 1, 4])
        yield f"expand_{name}", EXPAND_COPY, [x[:, :1, :]], (3, 2, 5, 4), x.dtype, {}
    yield "as_strided_f32_offset", AS_STRIDED_COPY, [data["f32"]], (2, 2, 2), f, \
        dict(storage_offset=5, strides=[8, 0, 3])
    yield "slice_u8", SLICE_COPY, [u8], (2, 1, 4), np.uint8, \
        dict(slices=[0, 1, 2, 1, 0, 1])
    c = 5
    for name, shape in (("nchw", (2, c, 4, 3)), ("nc", (3, c))):
        var = Const(rng.uniform(0.01, 3.0, c).astype(f))
        yield f"batch_norm_f32_{name}", BATCH_NORM, \
            [_f32(rng, shape, 2), Const(_f32(rng, (c,))), Const(_f32(rng, (c,))),
             Const(_f32(rng, (c,))), var], shape, f, dict(eps=1e-5)
    scales = Const(rng.uniform(0.001, 0.1, 6).astype(f))
    zps = Const(rng.integers(-128, 128, 6).astype(np.int32))
    for axis, shape in ((0, (6, 3, 2, 2)), (1, (2, 6, 5))):
        yield f"dequantize_per_channel_axis{axis}", DEQUANTIZE_PER_CHANNEL, \
            [_i8(rng, shape), scales, zps], shape, f, dict(axis=axis)
    # ExecuTorch's quantize at the rounding boundaries (k + 1/2) * scale and one ulp either
    # side, where the reciprocal's product and the division round to different integers for
    # 150 of these 840 inputs; then infinities, NaN and values far outside a narrow range.
    scale = f(0.0123)
    base = ((np.arange(-140, 140).astype(f) + f(0.5)) * scale).astype(f)
    xs = np.concatenate([base, np.nextafter(base, f(np.inf)), np.nextafter(base, f(-np.inf))])
    yield "quantize_reciprocal_boundaries", QUANTIZE_RECIPROCAL, [xs.reshape(20, 42)], (20, 42), \
        np.int8, dict(scale=float(scale), zero_point=3, quant_min=-127, quant_max=127)
    edges = np.array([np.inf, -np.inf, np.nan, 1e30, -1e30, 0.0, -0.0, 0.4, 2.5, -3.5] * 2, f)
    yield "quantize_reciprocal_range", QUANTIZE_RECIPROCAL, [edges], (20,), np.int8, \
        dict(scale=0.05, zero_point=-20, quant_min=-100, quant_max=50)
    # max pooling's int64 indices (as bytes): ties (the first maximum wins), a NaN, padding,
    # overlapping windows and ceil mode
    x = np.round(_f32(rng, (2, 3, 7, 6), 2)).astype(f)  # rounded: many ties
    x[1, 2, 3, 3] = np.nan
    geometry = dict(kernel_h=3, kernel_w=2, stride_h=2, stride_w=2, pad_top=1, pad_left=1,
                    pad_bottom=1, pad_right=1, ceil_mode=0)
    yield "max_pool2d_indices_pad", MAX_POOL2D_INDICES, [x], (2, 3, 4, 4, 8), np.uint8, geometry
    yield "max_pool2d_indices_ceil", MAX_POOL2D_INDICES, [x], (2, 3, 3, 3, 8), np.uint8, \
        dict(geometry, kernel_h=3, kernel_w=3, stride_h=2, stride_w=2, pad_top=0, pad_left=0,
             pad_bottom=0, pad_right=0, ceil_mode=1)
    # int64 (bytes) to float32: small values, the int64 extremes and values float32 rounds
    values = np.array([0, 1, -1, 7, -300, 2 ** 24 + 1, -(2 ** 24) - 3, 2 ** 31, 2 ** 53 + 1,
                       2 ** 63 - 1, -2 ** 63, 123456789012345], np.int64)
    yield "int64_to_float", INT64_TO_FLOAT, [values.astype("<i8").view(np.uint8).reshape(3, 4, 8)], \
        (3, 4), f, {}
    # ExecuTorch's layer norm (rows of 20, an offset that makes E[x^2] - mean^2 cancel), its
    # mean and 1 / std per row
    x = _f32(rng, (3, 4, 5), 3) + f(4)
    yield "layer_norm_sumsq", LAYER_NORM_SUMSQ, \
        [x, Const(_f32(rng, (4, 5))), Const(_f32(rng, (4, 5)))], (3, 4, 5), f, \
        dict(axis=1, eps=1e-6)
    for stat in (0, 1):
        yield f"layer_norm_stat{stat}", LAYER_NORM_STAT, [x], (3, 1, 1), f, \
            dict(axis=1, eps=1e-6, stat=stat)


def one_d_window_cases(rng):
    """1-D convolution and pooling ([N, C, L] activations, run as 2-D windows of height 1)
    and dilation on the depthwise path."""
    f = np.float32
    inf = float("inf")
    conv_geoms = [  # name, x shape, out channels, k, stride, pads (l, r), dilation, groups
        ("k5_s2", (2, 4, 21), 6, 5, 2, (2, 1), 1, 1),
        ("dilated4", (1, 3, 30), 5, 3, 1, (4, 4), 4, 1),
        ("depthwise_dilated2", (1, 6, 17), 6, 3, 1, (2, 2), 2, 6),
    ]
    for gname, xs, cout, k, stride, (pl, pr), dil, g in conv_geoms:
        ow = window_out(xs[2], k, stride, pl, pr, dil, False)
        geo = dict(stride_h=1, stride_w=stride, pad_top=0, pad_left=pl, pad_bottom=0,
                   pad_right=pr, dilation_h=1, dilation_w=dil, groups=g)
        oshape, wshape = (xs[0], cout, ow), (cout, xs[1] // g, 1, k)
        yield f"conv1d_f32_{gname}", CONVOLUTION, \
            [_f32(rng, xs), Const(_f32(rng, wshape, 0.3)), Const(_f32(rng, (cout,)))], oshape, f, \
            dict(geo, act_min=-inf, act_max=inf)
        bias = Const(rng.integers(-3000, 3000, cout).astype(np.int32))
        yield f"conv1d_i8_{gname}", QUANTIZED_CONVOLUTION, \
            [_i8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], oshape, \
            np.int8, _conv_args(geo, 6, -2, -128, 127)
    xs = (1, 8, 9, 9)  # a dilated depthwise 2-D convolution (DeepLab's atrous blocks)
    geo = dict(stride_h=1, stride_w=1, pad_top=2, pad_left=2, pad_bottom=2, pad_right=2,
               dilation_h=2, dilation_w=2, groups=8)
    yield "conv2d_i8_depthwise_dilated", QUANTIZED_CONVOLUTION, \
        [_i8(rng, xs), Const(_i8(rng, (8, 1, 3, 3))),
         Const(rng.integers(-3000, 3000, 8).astype(np.int32)), _requant_table(rng, 8)], \
        xs, np.int8, _conv_args(geo, -1, 4, -128, 127)
    xs = (2, 3, 20)
    geo = dict(kernel_h=1, kernel_w=3, stride_h=1, stride_w=2, pad_top=0, pad_left=1,
               pad_bottom=0, pad_right=1, ceil_mode=0)
    oshape = (2, 3, window_out(20, 3, 2, 1, 1, 1, False))
    yield "max_pool1d_f32", MAX_POOL2D, [_f32(rng, xs)], oshape, f, geo
    yield "max_pool1d_i8", MAX_POOL2D, [_i8(rng, xs)], oshape, np.int8, geo
    yield "avg_pool1d_f32", AVG_POOL2D, [_f32(rng, xs)], oshape, f, \
        dict(geo, count_include_pad=0)
    m, n = fx.quantize_multiplier(0.9, bits=23, max_shift=30)
    yield "avg_pool1d_i8", QUANTIZED_AVG_POOL2D, [_i8(rng, xs)], oshape, np.int8, \
        dict(geo, count_include_pad=1, zp_in=3, zp_out=-6, m=m, n=n)
    yield "global_avg_pool1d_f32", ADAPTIVE_AVG_POOL2D, [_f32(rng, (2, 5, 13))], (2, 5, 1), f, {}
    m, n = fx.quantize_multiplier(1.1, bits=23, max_shift=30)
    yield "global_avg_pool1d_i8", QUANTIZED_ADAPTIVE_AVG_POOL2D, [_i8(rng, (2, 5, 13))], \
        (2, 5, 1), np.int8, dict(zp_in=-4, zp_out=2, m=m, n=n)


def conv_transpose_cases(rng):
    """Zero insertion, the first half of a transposed convolution (the convolution that
    follows has its own cases): strides, borders, a 1-D layer's [N, C, L], the int8 fill."""
    geoms = [  # name, x shape, stride (h, w), pads (t, l, b, r)
        ("s2_k3", (1, 3, 4, 5), (2, 2), (1, 1, 2, 2)),
        ("s2x3_asym", (2, 2, 3, 3), (2, 3), (0, 2, 1, 0)),
        ("1d_s4", (1, 4, 6), (1, 4), (0, 3, 0, 3)),
    ]
    for gname, xs, (sh, sw), (pt, pl, pb, pr) in geoms:
        oshape = xs[:-2] + ((xs[-2] - 1) * sh + 1 + pt + pb, (xs[-1] - 1) * sw + 1 + pl + pr)
        geo = dict(stride_h=sh, stride_w=sw, pad_top=pt, pad_left=pl, pad_bottom=pb, pad_right=pr)
        yield f"zero_insert_f32_{gname}", ZERO_INSERT, [_f32(rng, xs)], oshape, np.float32, \
            dict(geo, zero_point=0)
        yield f"zero_insert_i8_{gname}", ZERO_INSERT, [_i8(rng, xs)], oshape, np.int8, \
            dict(geo, zero_point=-5)


def masked_softmax_cases(rng):
    """Causal masks (the upper triangle excluded), a key-padding mask over another axis and a
    line excluded whole (all 0)."""
    causal = np.broadcast_to(np.triu(np.ones((6, 6), np.uint8), 1), (2, 3, 6, 6)).copy()
    causal[1, 2, 4] = 1  # a line masked whole
    padding = np.zeros((2, 5, 4), np.uint8)
    padding[:, 3:] = 1  # the last two keys along axis 1
    yield "masked_softmax_f32_causal", MASKED_SOFTMAX, \
        [_f32(rng, (2, 3, 6, 6), 4), Const(causal)], (2, 3, 6, 6), np.float32, dict(dim=3)
    yield "masked_softmax_f32_axis1", MASKED_SOFTMAX, \
        [_f32(rng, (2, 5, 4), 4), Const(padding)], (2, 5, 4), np.float32, dict(dim=1)
    yield "masked_softmax_i8_causal", QUANTIZED_MASKED_SOFTMAX, \
        [_i8(rng, (2, 3, 6, 6)), Const(causal), Const(fx.softmax_table(0.04))], (2, 3, 6, 6), \
        np.int8, dict(dim=3)
    yield "masked_softmax_i8_axis1", QUANTIZED_MASKED_SOFTMAX, \
        [_i8(rng, (2, 5, 4)), Const(padding), Const(fx.softmax_table(0.1))], (2, 5, 4), \
        np.int8, dict(dim=1)


def indexing_cases(rng):
    """ArgMax/ArgMin with ties (the first index wins) over each axis, and Cast between every
    pair of the runtime's types with the edges: truncation, saturation, NaN."""
    ties = rng.integers(-3, 3, (3, 4, 5)).astype(np.float32)
    for dim in range(3):
        out = ties.shape[:dim] + ties.shape[dim + 1:]
        yield f"argmax_f32_dim{dim}", ARGMAX, [ties], out, np.int32, dict(dim=dim)
        yield f"argmin_f32_dim{dim}", ARGMIN, [ties], out, np.int32, dict(dim=dim)
    yield "argmax_i8_keepdims", ARGMAX, [_i8(rng, (2, 9, 3))], (2, 1, 3), np.int32, dict(dim=1)
    yield "argmin_i8", ARGMIN, [_i8(rng, (6, 7))], (6,), np.int32, dict(dim=1)
    floats = np.array([0.0, -0.0, 0.5, -0.5, 1.99, -1.99, 127.9, -128.9, 255.5, 300.0, -300.0,
                       3e9, -3e9, np.nan, np.inf, -np.inf, 65535.7, -2147483520.0], np.float32)
    ints = np.array([0, 1, -1, 127, 128, -128, -129, 255, 256, 2 ** 31 - 1, -2 ** 31, 16777217,
                     -70000, 99], np.int32)
    sources = {"f32": floats, "i32": ints, "i8": np.arange(-128, 128, 5).astype(np.int8),
               "u8": np.arange(0, 256, 5).astype(np.uint8)}
    targets = {"f32": np.float32, "i32": np.int32, "i8": np.int8, "u8": np.uint8}
    for src, x in sources.items():
        for dst, dtype in targets.items():
            if src != dst:
                yield f"cast_{src}_to_{dst}", TO_COPY, [x], x.shape, dtype, {}


def selection_cases(rng):
    """TopK (largest and smallest, every axis, ties: the lower index first, k = the whole
    axis), the five comparisons with broadcasting and equal values, Where with a broadcast
    condition."""
    ties = rng.integers(-3, 4, (3, 5, 4)).astype(np.float32)
    for dim, k in ((0, 2), (1, 5), (2, 3)):
        shape = tuple(k if d == dim else s for d, s in enumerate(ties.shape))
        for largest in (True, False):
            tag = f"{'max' if largest else 'min'}_dim{dim}"
            args = dict(k=k, dim=dim, largest=largest)
            yield f"topk_f32_{tag}", TOPK_VALUES, [ties], shape, np.float32, args
            yield f"topk_indices_f32_{tag}", TOPK_INDICES, [ties], shape, np.int32, args
    x8 = _i8(rng, (4, 40))
    yield "topk_i8", TOPK_VALUES, [x8], (4, 7), np.int8, dict(k=7, dim=1, largest=True)
    yield "topk_indices_i8", TOPK_INDICES, [x8], (4, 7), np.int32, \
        dict(k=7, dim=1, largest=False)
    a = rng.integers(-2, 3, (2, 3, 4))
    b = rng.integers(-2, 3, (3, 1))
    for op in (EQ, LT, GT, LE, GE):
        kind = op.name.split("::")[1].split(".")[0]
        for tag, dtype in (("f32", np.float32), ("i8", np.int8), ("i32", np.int32)):
            yield f"{kind}_{tag}", op, [a.astype(dtype), b.astype(dtype)], (2, 3, 4), \
                np.uint8, {}
        yield f"{kind}_u8", op, [(a + 128).astype(np.uint8), (b * 60 + 128).astype(np.uint8)], \
            (2, 3, 4), np.uint8, {}
    cond = (rng.integers(0, 3, (1, 3, 1)) * 60).astype(np.uint8)  # nonzero bytes other than 1
    yield "reshape_u8", VIEW_COPY, [cond], (3, 1), np.uint8, {}
    masks = (rng.integers(0, 3, (2, 3, 4)) * 100).astype(np.uint8), cond  # 0, 100 and 200
    for op in (LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR):
        yield op.name.split("::")[1].split(".")[0], op, list(masks), (2, 3, 4), np.uint8, {}
    yield "logical_not", LOGICAL_NOT, [masks[0]], (2, 3, 4), np.uint8, {}
    yield "where_f32", WHERE, [_f32(rng, (2, 3, 4)), cond, _f32(rng, (4,))], (2, 3, 4), \
        np.float32, {}
    yield "where_i8", WHERE, [_i8(rng, (2, 1, 4)), cond, _i8(rng, (2, 3, 4))], (2, 3, 4), \
        np.int8, {}
    yield "where_i32", WHERE, [rng.integers(-9, 9, (3, 4)).astype(np.int32), cond,
                               rng.integers(-9, 9, (2, 3, 4)).astype(np.int32)], (2, 3, 4), \
        np.int32, {}


def per_channel_cases(rng):
    """Quantised mul and add of an NCHW activation and a per-channel [N, C, 1, 1] one
    (squeeze-and-excitation; the NPU's per-channel operand), with zero points and a bound."""
    m, n = fx.quantize_multiplier(0.0071)
    yield "mul_i8_per_channel", QUANTIZED_MUL, [_i8(rng, (2, 5, 6, 7)), _i8(rng, (2, 5, 1, 1))], \
        (2, 5, 6, 7), np.int8, dict(zp_a=-6, zp_b=-128, m=m, n=n, zp_out=3, act_min=-100,
                                    act_max=127)
    ma, n = fx.quantize_multiplier(0.6)
    yield "add_i8_per_channel", QUANTIZED_ADD, [_i8(rng, (1, 9, 4, 5)), _i8(rng, (1, 9, 1, 1))], \
        (1, 9, 4, 5), np.int8, dict(zp_a=2, m_a=ma, zp_b=-4, m_b=fx.multiplier_at_shift(0.45, n),
                                    n=n, zp_out=-1, act_min=-1, act_max=127)


def _reduced(shape, axes, keepdim):
    out = [1 if d in axes else n for d, n in enumerate(shape)]
    return tuple(out if keepdim else [n for d, n in enumerate(shape) if d not in axes])


def resize_cases(rng):
    """Nearest and bilinear resizing, up and down, from the compiler's tables for several
    coordinate modes; int8 bilinear over extreme values (weights 0, 1 and between)."""
    f = np.float32
    shape = (2, 3, 5, 4)
    for name, size, coordinates, rounding in (
            ("up_asymmetric_floor", (10, 8), "asymmetric", "floor"),
            ("down_half_pixel", (2, 3), "half_pixel", "round_prefer_floor"),
            ("odd_align_corners_ceil", (7, 9), "align_corners", "ceil"),
            ("up3x2_pytorch_half_pixel", (15, 8), "pytorch_half_pixel", "round_prefer_ceil")):
        index = np.concatenate([resize.nearest_index(
            resize.source_coordinates(shape[d], size[d - 2], size[d - 2] / shape[d],
                                      coordinates), shape[d], rounding) for d in (2, 3)])
        out = shape[:2] + size
        yield f"upsample_nearest_f32_{name}", UPSAMPLE_NEAREST2D, \
            [_f32(rng, shape), Const(index)], out, f, {}
        yield f"upsample_nearest_i8_{name}", UPSAMPLE_NEAREST2D, \
            [_i8(rng, shape), Const(index)], out, np.int8, {}
    for name, size, coordinates in (("up_half_pixel", (10, 7), "half_pixel"),
                                    ("down_pytorch", (3, 1), "pytorch_half_pixel"),
                                    ("align_corners", (9, 6), "align_corners")):
        pairs, weights = zip(*[resize.linear_neighbours(resize.source_coordinates(
            shape[d], size[d - 2], size[d - 2] / shape[d], coordinates), shape[d])
            for d in (2, 3)])
        index, weight = np.concatenate(pairs), np.concatenate(weights)
        out = shape[:2] + size
        yield f"upsample_bilinear_f32_{name}", UPSAMPLE_BILINEAR2D, \
            [_f32(rng, shape), Const(index), Const(weight.astype(f))], out, f, {}
        x = _i8(rng, shape)
        x[0, 0] = np.where(np.arange(4) % 2, 127, -128)
        yield f"upsample_bilinear_i8_{name}", QUANTIZED_UPSAMPLE_BILINEAR2D, \
            [x, Const(index), Const(np.floor(weight * 2 ** 15 + 0.5).astype(np.int32))], out, \
            np.int8, {}


def layer_norm_cases(rng):
    """Layer normalisation over one and over two trailing axes; int8 with zero points, constant
    rows (V = eps_q, and V = 0), and a row of 4096 extreme values."""
    f = np.float32
    for name, shape, axis in (("", (3, 4, 10), 2), ("_two_axes", (2, 3, 4, 5), 2)):
        row = int(np.prod(shape[axis:]))
        yield f"layer_norm_f32{name}", LAYER_NORM, \
            [_f32(rng, shape, 3) + f(1), _f32(rng, (row,)), _f32(rng, (row,))], shape, f, \
            dict(axis=axis, eps=1e-5)
    w = Const(np.floor(rng.uniform(0.5, 1.5, 64) * 2 ** 16 / 0.03 + 0.5).astype(np.int32))
    b = Const(rng.integers(-40, 40, 64).astype(np.int32))
    eps_q = normalization.epsilon_units(1e-5, 64, 0.05)
    yield "layer_norm_i8", QUANTIZED_LAYER_NORM, [_i8(rng, (6, 64)), w, b], (6, 64), np.int8, \
        dict(axis=1, zp_in=3, zp_out=-2, eps_q=eps_q)
    flat = np.repeat(rng.integers(-128, 128, (4, 1)), 64, axis=1).astype(np.int8)
    for name, eps in (("", eps_q), ("_no_eps", 0)):
        yield f"layer_norm_i8_constant_rows{name}", QUANTIZED_LAYER_NORM, [flat, w, b], \
            (4, 64), np.int8, dict(axis=1, zp_in=0, zp_out=5, eps_q=eps)
    x = np.tile(np.array([-128, 127], np.int8), 2048).reshape(1, 2, 2048)
    x[0, 1, :7] = 127
    big = Const(np.full(4096, 2 ** 31 - 1, np.int32))
    yield "layer_norm_i8_extremes", QUANTIZED_LAYER_NORM, \
        [x, big, Const(np.zeros(4096, np.int32))], x.shape, np.int8, \
        dict(axis=1, zp_in=-128, zp_out=0, eps_q=2 ** 31 - 1)


def matmul_cases(rng):
    """Products of two activations: batched, with broadcast batch axes (of size 1 and missing),
    and plain matrices; int8 with zero points, a ReLU's bound and extreme values."""
    f = np.float32
    yield "matmul_f32_batched", MATMUL, [_f32(rng, (2, 3, 4, 5)), _f32(rng, (3, 5, 6))], \
        (2, 3, 4, 6), f, {}
    yield "matmul_f32_broadcast", MATMUL, [_f32(rng, (4, 5)), _f32(rng, (2, 1, 5, 3))], \
        (2, 1, 4, 3), f, {}
    yield "matmul_f32_2d", MATMUL, [_f32(rng, (7, 9)), _f32(rng, (9, 1))], (7, 1), f, {}
    m, n = fx.quantize_multiplier(0.0007)
    args = dict(zp_a=3, zp_b=-2, m=m, n=n, zp_out=-1, act_min=-128, act_max=127)
    yield "matmul_i8_batched", QUANTIZED_MATMUL, [_i8(rng, (2, 4, 33)), _i8(rng, (2, 33, 5))], \
        (2, 4, 5), np.int8, args
    yield "matmul_i8_broadcast_relu", QUANTIZED_MATMUL, \
        [_i8(rng, (3, 1, 2, 16)), _i8(rng, (2, 16, 4))], (3, 2, 2, 4), np.int8, \
        dict(args, act_min=-1)
    yield "matmul_i8_heads", QUANTIZED_MATMUL, [_i8(rng, (1, 4, 16, 8)), _i8(rng, (1, 4, 8, 16))], \
        (1, 4, 16, 16), np.int8, dict(args, n=n - 2)
    a = np.full((2, 64), -128, np.int8)
    a[1] = 127
    yield "matmul_i8_extremes", QUANTIZED_MATMUL, [a, np.full((64, 3), -128, np.int8)], \
        (2, 3), np.int8, dict(args, zp_a=127, zp_b=127, m=m // 64)


def division_cases(rng):
    """Division: float32 broadcasting; int8 over every pair of values (divisors equal to the
    zero point included), with and without a fused ReLU's bound, and a tiny multiplier."""
    f = np.float32
    yield "div_f32", DIV, [_f32(rng, (2, 3, 4)), _f32(rng, (3, 1)) + f(3)], (2, 3, 4), f, {}
    a, b = np.meshgrid(np.arange(-128, 128), np.arange(-128, 128, 3), indexing="ij")
    a, b = a.astype(np.int8), b.astype(np.int8)
    for name, real, zp_out, lo in (("", 0.7, -3, -128), ("_relu", 31.0, 5, 5),
                                   ("_tiny", 1e-9, 0, -128)):
        m, n = fx.quantize_multiplier(real, max_shift=53)
        yield f"div_i8{name}", QUANTIZED_DIV, [a, b], a.shape, np.int8, \
            dict(zp_a=2, zp_b=-5, m=m, n=n, zp_out=zp_out, act_min=lo, act_max=127)
    m, n = fx.quantize_multiplier(0.2, max_shift=53)
    yield "div_i8_broadcast", QUANTIZED_DIV, [_i8(rng, (2, 3, 4)), _i8(rng, (4,))], (2, 3, 4), \
        np.int8, dict(zp_a=-1, zp_b=0, m=m, n=n, zp_out=0, act_min=-128, act_max=127)


def data_movement_cases(rng):
    """Slices (negative steps, every axis), gathers (scalar, vector and matrix indices), and
    the three paddings."""
    f = np.float32
    x = _f32(rng, (2, 5, 6, 4))
    # (first, step) per axis; lengths in the output shape.
    slices, out = [1, 1, 4, -2, 0, 2, 3, -1], (1, 3, 3, 4)
    for name, data in (("f32", x), ("i8", _i8(rng, x.shape)),
                       ("i32", rng.integers(-2 ** 31, 2 ** 31, x.shape).astype(np.int32))):
        yield f"slice_{name}", SLICE_COPY, [data], out, data.dtype, dict(slices=slices)
    yield "slice_f32_channels", SLICE_COPY, [x], (2, 2, 6, 4), f, \
        dict(slices=[0, 1, 3, 1, 0, 1, 0, 1])
    for name, data in (("f32", x), ("i8", _i8(rng, x.shape))):
        yield f"gather_{name}_scalar", INDEX_SELECT, [data, Const(np.array(4, np.int32))], \
            (2, 6, 4), data.dtype, dict(dim=1)
        yield f"gather_{name}_matrix", INDEX_SELECT, \
            [data, Const(np.array([[3, 0], [3, 5], [1, 1]], np.int32))], (2, 5, 3, 2, 4), \
            data.dtype, dict(dim=2)
    # A scalar index as the program file stores it: one element of rank 1.
    yield "gather_f32_scalar_as_vector", INDEX_SELECT, [x, Const(np.array([2], np.int32))], \
        (2, 6, 4), f, dict(dim=1)
    yield "gather_i32_last", INDEX_SELECT, \
        [rng.integers(-1000, 1000, (3, 7)).astype(np.int32), Const(np.array([6, 0, 2], np.int32))], \
        (3, 3), np.int32, dict(dim=1)
    pads = [1, 0, 0, 2, 2, 1]
    yield "constant_pad_f32", CONSTANT_PAD_ND, [_f32(rng, (2, 3, 4)), Const(np.array([-1.5], f))], \
        (3, 5, 7), f, dict(pads=pads)
    yield "constant_pad_i8", CONSTANT_PAD_ND, [_i8(rng, (2, 3, 4)), Const(np.array([-7], np.int8))], \
        (3, 5, 7), np.int8, dict(pads=pads)
    geo = dict(pad_left=2, pad_right=1, pad_top=3, pad_bottom=1)
    for name, op in (("reflection", REFLECTION_PAD2D), ("replication", REPLICATION_PAD2D)):
        yield f"{name}_pad_f32", op, [_f32(rng, (1, 2, 4, 5))], (1, 2, 8, 8), f, geo
        yield f"{name}_pad_i8", op, [_i8(rng, (3, 4, 5))], (3, 8, 8), np.int8, geo


def reduction_cases(rng):
    """Mean, sum and max over some axes, with and without the reduced axes kept (all axes: a
    scalar)."""
    f = np.float32
    geometries = (("c_keep", (2, 5, 3, 4), (1,), True), ("hw", (2, 3, 4, 5), (2, 3), False),
                  ("first_last", (3, 4, 6), (0, 2), True), ("all", (4, 6), (0, 1), False))
    m23, n23 = fx.quantize_multiplier(0.8, bits=23, max_shift=30)
    m31, n31 = fx.quantize_multiplier(0.11)
    for gname, shape, axes, keep in geometries:
        mask = [int(d in axes) for d in range(len(shape))]
        out = _reduced(shape, axes, keep)
        for name, op in (("mean", MEAN), ("sum", SUM), ("amax", AMAX)):
            yield f"{name}_f32_{gname}", op, [_f32(rng, shape)], out, f, dict(reduce=mask)
        yield f"amax_i8_{gname}", AMAX, [_i8(rng, shape)], out, np.int8, dict(reduce=mask)
        yield f"mean_i8_{gname}", QUANTIZED_MEAN, [_i8(rng, shape)], out, np.int8, \
            dict(zp_in=-5, zp_out=3, m=m23, n=n23, reduce=mask)
        yield f"sum_i8_{gname}", QUANTIZED_SUM, [_i8(rng, shape)], out, np.int8, \
            dict(zp_in=7, zp_out=-2, m=m31, n=n31, reduce=mask)


def lookup_cases(rng):
    """The table-lookup operators: float32 on normal inputs with saturating ends, int8 on every
    input value once (an NCHW shape the NPU runs) with the compiler's table."""
    f = np.float32
    x_q = ir.Value("x", [], np.int8, scale=0.05, zero_point=3)
    for float_op, quant_op, args in activations.LOOKUPS:
        x = _f32(rng, (2, 4, 5, 5), 4)
        x.reshape(-1)[:4] = [0.0, -30.0, 30.0, -0.5]  # saturating ends
        if float_op is activations.SIGMOID:
            x.reshape(-1)[1:3] = [-100.0, 100.0]
        if float_op is activations.SQRT:
            x = np.abs(x)  # NaN below 0 compares unequal to itself
        name = float_op.ident
        yield f"{name}_f32", float_op, [x], x.shape, f, args
        fn = activations.table_function(float_op.name, **args)
        if float_op is activations.SIGMOID:
            y_q = ir.Value("y", [], np.int8, scale=activations.LUT_SCALE,
                           zero_point=activations.LUT_ZERO_POINT)
        else:
            scale, zero_point = activations.range_quantization(fn, x_q)
            y_q = ir.Value("y", [], np.int8, scale=scale, zero_point=zero_point)
        table = activations.lookup_table(fn, x_q, y_q)
        yield f"{name}_i8", quant_op, \
            [np.arange(-128, 128).astype(np.int8).reshape(1, 4, 8, 8), Const(table)], \
            (1, 4, 8, 8), np.int8, {}
    yield "pow_f32_cube", activations.POW, [_f32(rng, (3, 7), 2)], (3, 7), f, \
        {"exponent": 3.0}
    yield "pow_f32_half", activations.POW, [np.abs(_f32(rng, (3, 7), 2))], (3, 7), f, \
        {"exponent": 0.5}


def tflite_cases(rng):
    """The operators with TFLite's own integer rules beside tflite::add.out (its own rng, so
    the cases before keep their values)."""
    tw = 2 * 0.05
    (m_a, e_a), (m_b, e_b), (m_o, e_o) = (tflite_arith.quantize_multiplier(r) for r in
                                          (0.05 / tw, 0.02 / tw, tw / ((1 << 20) * 0.04)))
    sub_args = dict(zp_a=-3, m_a=m_a, e_a=e_a, zp_b=11, m_b=m_b, e_b=e_b, m_out=m_o, e_out=e_o,
                    zp_out=2, act_min=-128, act_max=127)
    yield "tflite_sub_i8", tflite_ops.TFLITE_SUB, [_i8(rng, (2, 8, 5)), _i8(rng, (2, 8, 5))], \
        (2, 8, 5), np.int8, sub_args
    yield "tflite_sub_i8_broadcast_relu", tflite_ops.TFLITE_SUB, \
        [_i8(rng, (3, 1, 6)), _i8(rng, (4, 1))], (3, 4, 6), np.int8, dict(sub_args, act_min=2)
    m, e = tflite_arith.quantize_multiplier(0.05 * 0.02 / 0.03)
    mul_args = dict(zp_a=-3, zp_b=11, m=m, e=e, zp_out=-9, act_min=-128, act_max=127)
    yield "tflite_mul_i8", tflite_ops.TFLITE_MUL, [_i8(rng, (2, 8, 5)), _i8(rng, (2, 8, 5))], \
        (2, 8, 5), np.int8, mul_args
    yield "tflite_mul_i8_broadcast_clamp", tflite_ops.TFLITE_MUL, \
        [_i8(rng, (3, 1, 6)), _i8(rng, (4, 1))], (3, 4, 6), np.int8, \
        dict(mul_args, act_min=-40, act_max=60)
    yield "tflite_lookup_i8", tflite_ops.TFLITE_LOOKUP, \
        [np.arange(-128, 128, dtype=np.int64).astype(np.int8).reshape(1, 4, 8, 8),
         Const(_i8(rng, (256,)))], (1, 4, 8, 8), np.int8, {}
    for gname, shape, axes, keep in (("hw_keep", (1, 7, 5, 6), (1, 2), True),
                                     ("last", (3, 4, 9), (2,), False)):
        mask = [int(d in axes) for d in range(len(shape))]
        count = int(np.prod([shape[a] for a in axes]))
        m, e = tflite_arith.quantize_multiplier(0.03 / (count * 0.004))
        yield f"tflite_mean_i8_{gname}", tflite_ops.TFLITE_MEAN, [_i8(rng, shape)], \
            _reduced(shape, axes, keep), np.int8, \
            dict(zp_in=-4, zp_out=13, m=m, e=e, reduce=mask)
    x = np.concatenate([_f32(rng, (40,), 4), np.array([0.5, -0.5, 1.5, -2.5, 0.49999997,
                                                      126.5, -200.0, 1e30], np.float32) * 0.05])
    yield "tflite_quantize_f32", tflite_ops.TFLITE_QUANTIZE, [x.astype(np.float32)], (48,), \
        np.int8, dict(scale=0.05, zero_point=-3)
    from socsim_aot import tflite_eval
    for gname, (h, w), (oh, ow), ac, hp in (("up_half_pixel", (4, 5), (7, 9), False, True),
                                            ("down_corners", (6, 7), (3, 4), True, False)):
        rows, cols = (Const(np.array(tflite_eval.bilinear_coords(o, i, ac, hp), np.int32))
                      for o, i in ((oh, h), (ow, w)))
        yield f"tflite_resize_bilinear_i8_{gname}", tflite_ops.TFLITE_RESIZE_BILINEAR, \
            [_i8(rng, (2, h, w, 3)), rows, cols], (2, oh, ow, 3), np.int8, {}
    table = Const(rng.integers(0, 256, 256).astype(np.uint8))
    yield "tflite_lookup_bytes_i8_to_u8", tflite_ops.TFLITE_LOOKUP_BYTES, \
        [np.arange(-128, 128, dtype=np.int64).astype(np.int8).reshape(4, 64), table], (4, 64), \
        np.uint8, {}
    yield "tflite_lookup_bytes_u8_to_i8", tflite_ops.TFLITE_LOOKUP_BYTES, \
        [np.arange(0, 256, dtype=np.int64).astype(np.uint8)[::-1].reshape(1, 16, 16), table], \
        (1, 16, 16), np.int8, {}


def npu_layer(op, inputs, out_shape, args_words):
    """NAME.npu of a case the NPU runs: the layer descriptor the compiler writes
    (npu_partition.descriptor) with the operands' slot numbers as addresses, then per address
    slot a u32 byte count and the bytes (the output's count only). None when the NPU cannot run
    the case (no NPU layer, not int8, broadcasting...)."""
    if op.npu is None:
        return None
    g = ir.Graph()
    names = []
    for i, x in enumerate(inputs):
        value = x.value if isinstance(x, Const) else x
        name = f"in{i}"
        g.values[name] = ir.Value(name, list(value.shape), value.dtype, scale=1.0,
                                  const=value if isinstance(x, Const) else None)
        names.append(name)
    g.values["out"] = ir.Value("out", list(out_shape), np.dtype(np.int8), scale=1.0)
    node = ir.Node(op.name, names, ["out"], {}, "node 'case'")
    if npu_partition.operator_class(g, node) is None:
        return None
    slots = [layouts.NPU_NO_TENSOR] * len(layouts.NPU_SLOTS)
    operand_bytes = [b""] * len(layouts.NPU_SLOTS)
    for i, (operand, x) in enumerate(zip(op.inputs, inputs)):
        slot = layouts.NPU_SLOTS.index(operand.npu_slot)
        slots[slot] = slot
        value = x.value if isinstance(x, Const) else x
        operand_bytes[slot] = np.ascontiguousarray(value).tobytes()
    out_slot = layouts.NPU_SLOTS.index(op.outputs[0].npu_slot)
    slots[out_slot] = out_slot
    data = npu_partition.descriptor(g, node, args_words, slots)
    for slot, raw in enumerate(operand_bytes):
        size = int(np.prod(out_shape)) if slot == out_slot else len(raw)
        data += struct.pack("<I", size) + (b"" if slot == out_slot else raw)
    return data


def write_cases(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    lines = []
    for name, op, inputs, out_shape, out_dtype, args in cases():
        program = single_op_program(op, inputs, out_shape, out_dtype, args)
        data = pte_format.write(program)
        feeds = [x for x in inputs if not isinstance(x, Const)]
        (expected,) = reference.run(pte_format.read(data), feeds)
        with open(os.path.join(out_dir, name + ".pte"), "wb") as f:
            f.write(data)
        # the same program in the legacy format, for the legacy reader's tests while the
        # runtime reads it (docs/program-format.md)
        with open(os.path.join(out_dir, name + ".prog"), "wb") as f:
            f.write(pf.write(program))
        with open(os.path.join(out_dir, name + ".in"), "wb") as f:
            for x in feeds:
                f.write(np.ascontiguousarray(x).tobytes())
        with open(os.path.join(out_dir, name + ".out"), "wb") as f:
            f.write(np.ascontiguousarray(expected).tobytes())
        tol = FLOAT_TOLERANCE if expected.dtype == np.float32 else 0
        key = program.tensors[program.instructions[0].inputs[0]].dtype
        layer = npu_layer(op, inputs, out_shape, program.instructions[0].args)
        if layer is not None:
            with open(os.path.join(out_dir, name + ".npu"), "wb") as f:
                f.write(layer)
        lines.append(f"{name} {tol} {op.name} {key} {int(layer is not None)}")
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Write single-operator program files with numpy expected outputs "
                    "(NAME.pte/.prog/.in/.out and manifest.txt) for the firmware kernel tests.")
    parser.add_argument("out_dir", help="directory to write the cases into")
    args = parser.parse_args(argv)
    count = write_cases(args.out_dir)
    print(f"kernel_cases: wrote {count} cases to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
