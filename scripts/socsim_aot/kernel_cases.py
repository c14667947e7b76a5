"""Single-operator programs with numpy expected outputs, for the firmware kernel tests.

Writes, for every case, NAME.prog (a program with one instruction), NAME.in (the raw input
bytes, inputs in order) and NAME.out (the expected raw output bytes from the numpy reference
executor), plus manifest.txt with one line per case: "NAME TOLERANCE" (0 = bit-exact).
The firmware's host test runs each program through the runtime and compares.
"""

import argparse
import os
import sys

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import program_format as pf
from socsim_aot import reference

FLOAT_TOLERANCE = 1e-5  # relative to max(1, |expected|)


class Const:
    """Marks a constant input of a case."""

    def __init__(self, value):
        self.value = np.asarray(value)


def single_op_program(name, inputs, out_shape, out_dtype, args):
    """A program running operator `name` once; non-Const inputs become program inputs."""
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
                      instructions=[pf.Instruction(name, ins_ids, [out_id], list(args))],
                      buffers=[offset], delegates=[], inputs=prog_inputs, outputs=[out_id])


def _i8(rng, shape):
    return rng.integers(-128, 128, size=shape, dtype=np.int64).astype(np.int8)


def _f32(rng, shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def _requant_table(rng, channels):
    rows = [fx.quantize_multiplier(float(s)) for s in rng.uniform(0.0005, 0.02, channels)]
    return Const(np.array(rows, dtype=np.int32))


def cases(seed=7):
    """Yields (name, op, inputs, out_shape, out_dtype, args)."""
    rng = np.random.default_rng(seed)
    f, bits = np.float32, pf.float_bits
    inf = float("inf")
    for op in ("add", "sub", "mul"):
        yield f"{op}_f32", op, [_f32(rng, (2, 3, 4)), _f32(rng, (2, 3, 4))], (2, 3, 4), f, []
        yield f"{op}_f32_broadcast", op, [_f32(rng, (2, 3, 4)), _f32(rng, (3, 1))], (2, 3, 4), f, []
        yield f"{op}_i8_wrap", op, [_i8(rng, (37,)), _i8(rng, (37,))], (37,), np.int8, []
        yield f"{op}_i8_wrap_broadcast", op, [_i8(rng, (4, 1, 5)), _i8(rng, (3, 1))], (4, 3, 5), \
            np.int8, []
    ma, n = fx.quantize_multiplier(0.8)
    mb = fx.multiplier_at_shift(0.35, n)
    for op in ("add", "sub"):
        yield f"{op}_i8_quant", op, [_i8(rng, (2, 8, 5)), _i8(rng, (2, 8, 5))], (2, 8, 5), \
            np.int8, [3, ma, -7, mb, n, -2, -128, 127]
        yield f"{op}_i8_quant_relu", op, [_i8(rng, (64,)), _i8(rng, (1,))], (64,), np.int8, \
            [-5, ma, 9, mb, n, -20, -20, 127]
    m, n = fx.quantize_multiplier(0.0123)
    yield "mul_i8_quant", "mul", [_i8(rng, (3, 7)), _i8(rng, (3, 7))], (3, 7), np.int8, \
        [4, -3, m, n, 1, -128, 127]
    yield "relu_f32", "relu", [_f32(rng, (5, 9))], (5, 9), f, []
    yield "relu_i8", "relu", [_i8(rng, (5, 9))], (5, 9), np.int8, [-17]
    yield "clip_f32", "clip", [_f32(rng, (40,), 8)], (40,), f, [bits(0.0), bits(6.0)]
    yield "clip_i8", "clip", [_i8(rng, (40,))], (40,), np.int8, [-30, 90]

    conv_geoms = [  # name, x shape, out channels, kernel, stride, pads (t,l,b,r), dilation, groups
        ("3x3_pad1", (1, 3, 8, 8), 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
        ("3x3_stride2_asym", (2, 4, 9, 7), 6, (3, 3), (2, 2), (0, 1, 1, 0), (1, 1), 1),
        ("dilated", (1, 2, 10, 10), 3, (3, 3), (1, 1), (2, 2, 2, 2), (2, 2), 1),
        ("groups2", (1, 4, 6, 6), 6, (3, 1), (1, 2), (1, 0, 1, 0), (1, 1), 2),
        ("depthwise", (1, 8, 7, 7), 8, (3, 3), (2, 2), (1, 1, 1, 1), (1, 1), 8),
        ("1x1", (1, 16, 4, 4), 8, (1, 1), (1, 1), (0, 0, 0, 0), (1, 1), 1),
    ]
    for gname, xs, cout, (kh, kw), (sh, sw), pads, (dh, dw), g in conv_geoms:
        oh = reference._window_out(xs[2], kh, sh, pads[0], pads[2], dh, False)
        ow = reference._window_out(xs[3], kw, sw, pads[1], pads[3], dw, False)
        geo = [sh, sw, pads[0], pads[1], pads[2], pads[3], dh, dw, g]
        oshape = (xs[0], cout, oh, ow)
        wshape = (cout, xs[1] // g, kh, kw)
        yield f"conv2d_f32_{gname}", "conv2d", \
            [_f32(rng, xs), Const(_f32(rng, wshape, 0.3)), Const(_f32(rng, (cout,)))], oshape, f, \
            geo + [bits(-inf), bits(inf)]
        yield f"conv2d_f32_{gname}_relu6", "conv2d", \
            [_f32(rng, xs), Const(_f32(rng, wshape, 0.3)), Const(_f32(rng, (cout,)))], oshape, f, \
            geo + [bits(0.0), bits(6.0)]
        bias = Const(rng.integers(-3000, 3000, cout).astype(np.int32))
        yield f"conv2d_i8_{gname}", "conv2d", \
            [_i8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], oshape, \
            np.int8, geo + [-3, 5, -128, 127]
        yield f"conv2d_i8_{gname}_relu", "conv2d", \
            [_i8(rng, xs), Const(_i8(rng, wshape)), bias, _requant_table(rng, cout)], oshape, \
            np.int8, geo + [11, -9, -9, 127]
    yield "linear_f32", "linear", [_f32(rng, (3, 20)), Const(_f32(rng, (7, 20), 0.2)),
                                   Const(_f32(rng, (7,)))], (3, 7), f, [bits(-inf), bits(inf)]
    yield "linear_i8", "linear", [_i8(rng, (2, 33)), Const(_i8(rng, (10, 33))),
                                  Const(rng.integers(-5000, 5000, 10).astype(np.int32)),
                                  _requant_table(rng, 10)], (2, 10), np.int8, [2, -4, -128, 127]

    pool_geoms = [  # name, x shape, kernel, stride, pads, ceil_mode
        ("3x3_s2_p1", (1, 3, 9, 9), (3, 3), (2, 2), (1, 1, 1, 1), 0),
        ("2x2_s2", (2, 2, 8, 6), (2, 2), (2, 2), (0, 0, 0, 0), 0),
        ("3x3_s2_ceil", (1, 2, 8, 8), (3, 3), (2, 2), (0, 0, 0, 0), 1),
        ("3x2_s1_asym", (1, 2, 5, 6), (3, 2), (1, 1), (1, 0, 0, 1), 0),
    ]
    for gname, xs, (kh, kw), (sh, sw), pads, ceil in pool_geoms:
        oh = reference._window_out(xs[2], kh, sh, pads[0], pads[2], 1, bool(ceil))
        ow = reference._window_out(xs[3], kw, sw, pads[1], pads[3], 1, bool(ceil))
        geo = [kh, kw, sh, sw, pads[0], pads[1], pads[2], pads[3], ceil]
        oshape = (xs[0], xs[1], oh, ow)
        yield f"max_pool2d_f32_{gname}", "max_pool2d", [_f32(rng, xs)], oshape, f, geo
        yield f"max_pool2d_i8_{gname}", "max_pool2d", [_i8(rng, xs)], oshape, np.int8, geo
        m, n = fx.quantize_multiplier(0.9, bits=23, max_shift=30)
        for include_pad in (0, 1):
            yield f"avg_pool2d_f32_{gname}_pad{include_pad}", "avg_pool2d", [_f32(rng, xs)], \
                oshape, f, geo + [include_pad]
            yield f"avg_pool2d_i8_{gname}_pad{include_pad}", "avg_pool2d", [_i8(rng, xs)], \
                oshape, np.int8, geo + [include_pad, 3, -6, m, n]
    m, n = fx.quantize_multiplier(1.3, bits=23, max_shift=30)
    yield "global_avg_pool2d_f32", "global_avg_pool2d", [_f32(rng, (2, 5, 4, 3))], (2, 5, 1, 1), \
        f, []
    yield "global_avg_pool2d_i8", "global_avg_pool2d", [_i8(rng, (2, 5, 4, 3))], (2, 5, 1, 1), \
        np.int8, [-4, 2, m, n]
    yield "softmax_f32", "softmax", [_f32(rng, (3, 10), 3)], (3, 10), f, []
    yield "softmax_i8", "softmax", [_i8(rng, (4, 10)), Const(fx.softmax_table(0.05))], (4, 10), \
        np.int8, []
    yield "reshape_f32", "reshape", [_f32(rng, (2, 3, 4))], (6, 4), f, []
    yield "reshape_i8", "reshape", [_i8(rng, (2, 3, 4))], (24,), np.int8, []
    yield "transpose_f32", "transpose", [_f32(rng, (2, 3, 4))], (4, 2, 3), f, [2, 0, 1]
    yield "transpose_i8", "transpose", [_i8(rng, (2, 3, 4, 5))], (3, 5, 2, 4), np.int8, \
        [1, 3, 0, 2]
    yield "concat_f32", "concat", [_f32(rng, (2, 3, 2)), _f32(rng, (2, 1, 2)),
                                   _f32(rng, (2, 4, 2))], (2, 8, 2), f, [1]
    yield "concat_i8", "concat", [_i8(rng, (3, 2)), _i8(rng, (3, 5))], (3, 7), np.int8, [1]
    x = _f32(rng, (50,), 4)
    x[:4] = [0.25, -0.25, 0.75, 1e9]  # halves round to even; saturation
    yield "quantize", "quantize", [x], (50,), np.int8, [bits(0.5), -3]
    yield "dequantize", "dequantize", [_i8(rng, (50,))], (50,), f, [bits(0.037), 5]
    m, n = fx.quantize_multiplier(0.61)
    yield "requantize", "requantize", [_i8(rng, (50,))], (50,), np.int8, [-7, 12, m, n]
    # m / 2^n = 0.5: every odd input is an exact half, which must round towards +infinity.
    yield "requantize_ties", "requantize", [np.arange(-128, 128).astype(np.int8)], (256,), \
        np.int8, [0, 0, 1 << 30, 31]


def write_cases(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    lines = []
    for name, op, inputs, out_shape, out_dtype, args in cases():
        program = single_op_program(op, inputs, out_shape, out_dtype, args)
        data = pf.write(program)
        feeds = [x for x in inputs if not isinstance(x, Const)]
        (expected,) = reference.run(pf.read(data), feeds)
        with open(os.path.join(out_dir, name + ".prog"), "wb") as f:
            f.write(data)
        with open(os.path.join(out_dir, name + ".in"), "wb") as f:
            for x in feeds:
                f.write(np.ascontiguousarray(x).tobytes())
        with open(os.path.join(out_dir, name + ".out"), "wb") as f:
            f.write(np.ascontiguousarray(expected).tobytes())
        tol = FLOAT_TOLERANCE if expected.dtype == np.float32 else 0
        lines.append(f"{name} {tol}")
    with open(os.path.join(out_dir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Write single-operator program files with numpy expected outputs "
                    "(NAME.prog/.in/.out and manifest.txt) for the firmware kernel tests.")
    parser.add_argument("out_dir", help="directory to write the cases into")
    args = parser.parse_args(argv)
    count = write_cases(args.out_dir)
    print(f"kernel_cases: wrote {count} cases to {args.out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
