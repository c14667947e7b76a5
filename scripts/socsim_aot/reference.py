"""Numpy reference executor of socsim program files.

Runs a program file instruction by instruction with the exact integer arithmetic of the
firmware kernels (docs/runtime.md), so int8 results must match the firmware bit for bit;
float32 results match within rounding (the summation order differs).

Example:
  python3 scripts/reference.py add8.prog --print-outputs
"""

import argparse
import struct
import sys
from typing import Dict, List, Sequence

import numpy as np

from socsim_aot import fixed_point as fx
from socsim_aot import program_format as pf


class ReferenceError(RuntimeError):
    """An instruction the reference executor cannot run (names it)."""


def _f(bits):
    return pf.bits_float(bits)


# ---- helpers -------------------------------------------------------------------------------

def _window_out(size, k, s, p0, p1, dil, ceil_mode):
    span = dil * (k - 1) + 1
    room = size + p0 + p1 - span
    out = (-(-room // s) if ceil_mode else room // s) + 1
    if ceil_mode and (out - 1) * s >= size + p0:
        out -= 1
    return out


def _windows(xp, kh, kw, sh, sw, oh, ow, dh=1, dw=1):
    """Yields (ky, kx, slice) where slice[..., oy, ox] = xp[..., oy*sh + ky*dh, ox*sw + kx*dw]."""
    for ky in range(kh):
        for kx in range(kw):
            y0, x0 = ky * dh, kx * dw
            yield ky, kx, xp[..., y0:y0 + sh * (oh - 1) + 1:sh, x0:x0 + sw * (ow - 1) + 1:sw]


def conv2d_nchw(x, w, stride, pads, dilation, groups, acc_dtype):
    """Convolution of x (already offset by its zero point) with w; padding contributes 0."""
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    pt, pl, pb, pr = pads
    sh, sw = stride
    dh, dw = dilation
    oh = _window_out(h, kh, sh, pt, pb, dh, False)
    ow = _window_out(wd, kw, sw, pl, pr, dw, False)
    xp = np.pad(x.astype(acc_dtype), ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    w = w.astype(acc_dtype)
    out = np.zeros((n, m, oh, ow), dtype=acc_dtype)
    mg = m // groups
    if cg == 1:  # depthwise (and channel multipliers): one input channel per output
        src = xp[:, np.arange(m) // mg]
        for ky, kx, patch in _windows(src, kh, kw, sh, sw, oh, ow, dh, dw):
            out += patch * w[None, :, 0, ky, kx, None, None]
        return out
    for g in range(groups):
        xg = xp[:, g * cg:(g + 1) * cg]
        wg = w[g * mg:(g + 1) * mg]
        for ky, kx, patch in _windows(xg, kh, kw, sh, sw, oh, ow, dh, dw):
            out[:, g * mg:(g + 1) * mg] += np.einsum("nchw,mc->nmhw", patch, wg[:, :, ky, kx])
    return out


def _pool_geometry(x, args):
    kh, kw, sh, sw, pt, pl, pb, pr, ceil_mode = args[:9]
    h, w = x.shape[2], x.shape[3]
    oh = _window_out(h, kh, sh, pt, pb, 1, bool(ceil_mode))
    ow = _window_out(w, kw, sw, pl, pr, 1, bool(ceil_mode))
    # Extra padding so that ceil-mode windows are whole slices.
    eb = max(0, (oh - 1) * sh + kh - (h + pt + pb))
    er = max(0, (ow - 1) * sw + kw - (w + pl + pr))
    return kh, kw, sh, sw, pt, pl, pb, pr, oh, ow, eb, er


def _pool_counts(h, w, geo, include_pad):
    kh, kw, sh, sw, pt, pl, pb, pr, oh, ow, eb, er = geo
    mask = np.zeros((h + pt + pb + eb, w + pl + pr + er), np.int64)
    if include_pad:
        mask[:h + pt + pb, :w + pl + pr] = 1
    else:
        mask[pt:pt + h, pl:pl + w] = 1
    return sum(s for _, _, s in _windows(mask, kh, kw, sh, sw, oh, ow))


# ---- operators -----------------------------------------------------------------------------
# Each takes (inputs, args, out) with numpy inputs and the output's Tensor record, and
# returns the output array.

def _binary(kind):
    def run(ins, args, out):
        a, b = ins
        if a.dtype == np.float32:
            r = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[kind](a, b)
            return r.astype(np.float32)
        a32, b32 = a.astype(np.int64), b.astype(np.int64)
        if not args:  # wrapping integer arithmetic
            r = {"add": a32 + b32, "sub": a32 - b32, "mul": a32 * b32}[kind]
            return (r & 0xFF).astype(np.uint8).view(np.int8)
        if kind == "mul":
            zpa, zpb, m, n, zpo, lo, hi = args
            r = fx.requantize((a32 - zpa) * (b32 - zpb), m, n) + zpo
            return np.clip(r, lo, hi).astype(np.int8)
        zpa, ma, zpb, mb, n, zpo, lo, hi = args
        if kind == "sub":
            mb = -mb
        acc = (a32 - zpa) * ma + (b32 - zpb) * mb
        return np.clip(fx.round_shift(acc, n) + zpo, lo, hi).astype(np.int8)
    return run


def op_relu(ins, args, out):
    x = ins[0]
    if x.dtype == np.float32:
        return np.where(x > 0, x, np.float32(0)).astype(np.float32)
    return np.maximum(x.astype(np.int32), np.clip(args[0], -128, 127)).astype(np.int8)


def op_clip(ins, args, out):
    x = ins[0]
    if x.dtype == np.float32:
        lo, hi = _f(args[0]), _f(args[1])
        return np.minimum(np.maximum(x, lo), hi).astype(np.float32)
    return np.clip(x.astype(np.int32), args[0], args[1]).astype(np.int8)


def op_conv2d(ins, args, out):
    x, w, b = ins[:3]
    sh, sw, pt, pl, pb, pr, dh, dw, groups = args[:9]
    geo = dict(stride=(sh, sw), pads=(pt, pl, pb, pr), dilation=(dh, dw), groups=groups)
    if x.dtype == np.float32:
        acc = conv2d_nchw(x, w, acc_dtype=np.float32, **geo) + b[None, :, None, None]
        return np.clip(acc, _f(args[9]), _f(args[10])).astype(np.float32)
    rq = ins[3]
    zp_in, zp_out, lo, hi = args[9:13]
    acc = conv2d_nchw(x.astype(np.int64) - zp_in, w, acc_dtype=np.int64, **geo)
    acc = acc + b.astype(np.int64)[None, :, None, None]
    r = fx.requantize(acc, rq[:, 0][None, :, None, None], rq[:, 1][None, :, None, None])
    return np.clip(r + zp_out, lo, hi).astype(np.int8)


def op_linear(ins, args, out):
    x, w, b = ins[:3]
    if x.dtype == np.float32:
        acc = x @ w.T + b
        return np.clip(acc, _f(args[0]), _f(args[1])).astype(np.float32)
    rq = ins[3]
    zp_in, zp_out, lo, hi = args
    acc = (x.astype(np.int64) - zp_in) @ w.astype(np.int64).T + b.astype(np.int64)
    r = fx.requantize(acc, rq[:, 0], rq[:, 1])
    return np.clip(r + zp_out, lo, hi).astype(np.int8)


def op_max_pool2d(ins, args, out):
    x = ins[0]
    geo = _pool_geometry(x, args)
    kh, kw, sh, sw, pt, pl, pb, pr, oh, ow, eb, er = geo
    low = -np.inf if x.dtype == np.float32 else -1000
    xp = np.pad(x.astype(np.float64 if x.dtype == np.float32 else np.int32),
                ((0, 0), (0, 0), (pt, pb + eb), (pl, pr + er)), constant_values=low)
    r = None
    for _, _, s in _windows(xp, kh, kw, sh, sw, oh, ow):
        r = s.copy() if r is None else np.maximum(r, s)
    return r.astype(x.dtype)


def op_avg_pool2d(ins, args, out):
    x = ins[0]
    geo = _pool_geometry(x, args)
    kh, kw, sh, sw, pt, pl, pb, pr, oh, ow, eb, er = geo
    counts = _pool_counts(x.shape[2], x.shape[3], geo, bool(args[9]))
    pads = ((0, 0), (0, 0), (pt, pb + eb), (pl, pr + er))
    if x.dtype == np.float32:
        xp = np.pad(x, pads)
        total = np.zeros(x.shape[:2] + (oh, ow), np.float32)
        for _, _, s in _windows(xp, kh, kw, sh, sw, oh, ow):
            total += s
        return (total / counts.astype(np.float32)).astype(np.float32)
    zp_in, zp_out, m, n = args[10:14]
    xp = np.pad(x.astype(np.int64) - zp_in, pads)
    total = sum(s for _, _, s in _windows(xp, kh, kw, sh, sw, oh, ow))
    r = fx.div_round(total * m, counts.astype(np.int64) << n) + zp_out
    return fx.saturate(r).astype(np.int8)


def op_global_avg_pool2d(ins, args, out):
    x = ins[0]
    area = x.shape[2] * x.shape[3]
    if x.dtype == np.float32:
        return (x.sum(axis=(2, 3), keepdims=True, dtype=np.float32) /
                np.float32(area)).astype(np.float32)
    zp_in, zp_out, m, n = args
    total = (x.astype(np.int64) - zp_in).sum(axis=(2, 3), keepdims=True)
    return fx.saturate(fx.div_round(total * m, np.int64(area) << n) + zp_out).astype(np.int8)


def op_softmax(ins, args, out):
    x = ins[0]
    if x.dtype == np.float32:
        e = np.exp(x - x.max(axis=-1, keepdims=True))
        return (e / e.sum(axis=-1, keepdims=True)).astype(np.float32)
    table = ins[1].astype(np.int64)
    xi = x.astype(np.int64)
    e = table[xi.max(axis=-1, keepdims=True) - xi]
    r = fx.div_round(e * 256, e.sum(axis=-1, keepdims=True)) - 128
    return fx.saturate(r).astype(np.int8)


def op_reshape(ins, args, out):
    return ins[0].reshape(out.shape)


def op_transpose(ins, args, out):
    return np.ascontiguousarray(np.transpose(ins[0], args))


def op_concat(ins, args, out):
    return np.concatenate(ins, axis=args[0])


def op_quantize(ins, args, out):
    return fx.quantize_f32(ins[0], _f(args[0]), args[1])


def op_dequantize(ins, args, out):
    return fx.dequantize_i8(ins[0], _f(args[0]), args[1])


def op_requantize(ins, args, out):
    zp_in, zp_out, m, n = args
    return fx.saturate(fx.requantize(ins[0].astype(np.int64) - zp_in, m, n) + zp_out) \
        .astype(np.int8)


OPERATORS = {
    "add": _binary("add"), "sub": _binary("sub"), "mul": _binary("mul"), "relu": op_relu,
    "clip": op_clip, "conv2d": op_conv2d, "linear": op_linear, "max_pool2d": op_max_pool2d,
    "avg_pool2d": op_avg_pool2d, "global_avg_pool2d": op_global_avg_pool2d,
    "softmax": op_softmax, "reshape": op_reshape, "transpose": op_transpose,
    "concat": op_concat, "quantize": op_quantize, "dequantize": op_dequantize,
    "requantize": op_requantize,
}


def _cpu_packed(blob, ins):
    magic, version, op, elements = struct.unpack("<4sIII", blob)
    if magic != b"CPK1" or version != 1 or op != 1:
        raise ReferenceError("cpu-packed: bad delegate blob")
    a, b = ins
    if a.size != elements or b.size != elements:
        raise ReferenceError("cpu-packed: element count does not match the blob")
    return ((a.astype(np.int32) + b.astype(np.int32)) & 0xFF).astype(np.uint8).view(np.int8)


BACKENDS = {"cpu-packed": _cpu_packed}


# ---- executor ------------------------------------------------------------------------------

def run(program: pf.Program, inputs: Sequence[np.ndarray], trace: Dict = None) -> List[np.ndarray]:
    """Executes the program on the given inputs and returns its outputs.

    If `trace` is a dict it receives every tensor value by tensor id.
    """
    values: Dict[int, np.ndarray] = {}
    for i, t in enumerate(program.tensors):
        if t.is_constant:
            values[i] = t.constant
    if len(inputs) != len(program.inputs):
        raise ReferenceError(f"{len(program.inputs)} inputs expected, got {len(inputs)}")
    for tid, x in zip(program.inputs, inputs):
        t = program.tensors[tid]
        values[tid] = np.asarray(x, dtype=pf.DTYPES[t.dtype]).reshape(t.shape)
    for index, ins in enumerate(program.instructions):
        args = [values[i] for i in ins.inputs]
        out = program.tensors[ins.outputs[0]]
        if ins.name:
            if ins.name not in OPERATORS:
                raise ReferenceError(f"instruction {index}: operator '{ins.name}' unknown")
            result = OPERATORS[ins.name](args, ins.args, out)
        else:
            d = program.delegates[ins.delegate]
            if d.backend not in BACKENDS:
                raise ReferenceError(f"instruction {index}: backend '{d.backend}' unknown")
            result = BACKENDS[d.backend](d.blob, args)
        result = np.asarray(result)
        if list(result.shape) != list(out.shape) or result.dtype != pf.DTYPES[out.dtype]:
            raise ReferenceError(
                f"instruction {index} ({ins.name or d.backend}): produced {result.dtype}"
                f"{list(result.shape)}, program says {pf.DTYPE_NAMES[out.dtype]}{out.shape}")
        values[ins.outputs[0]] = result
    if trace is not None:
        trace.update(values)
    return [values[i] for i in program.outputs]


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
    parser.add_argument("program", help="program file written by compile_model.py")
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
            program = pf.read(f.read())
    except (OSError, pf.ProgramFormatError) as e:
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
