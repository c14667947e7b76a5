"""The int8 integer arithmetic of the runtime, in numpy (docs/runtime.md, "Integer arithmetic").

firmware/kernels/kernel_util.h implements the same functions in C++; the two must stay
bit-exact. All intermediate values are int64.
"""

import math

import numpy as np


def quantize_multiplier(real: float, bits: int = 31, max_shift: int = 62):
    """(m, n) with m / 2**n ~= real and m in [2**(bits-1), 2**bits) where the shift allows.

    When real is so small that n would exceed max_shift, n = max_shift and m has fewer
    significant bits (possibly 0). Raises ValueError if real is not positive and finite or
    needs a shift below 1.
    """
    if not (real > 0.0 and math.isfinite(real)):
        raise ValueError(f"multiplier {real} must be positive and finite")
    frac, exp = math.frexp(real)  # real = frac * 2**exp, frac in [0.5, 1)
    m = int(math.floor(frac * (1 << bits) + 0.5))
    n = bits - exp
    if m == 1 << bits:
        m //= 2
        n -= 1
    if n > max_shift:
        n = max_shift
        m = int(math.floor(real * 2.0 ** n + 0.5))
    if n < 1:
        raise ValueError(f"multiplier {real} is too large for a right shift")
    return m, n


def multiplier_at_shift(real: float, n: int) -> int:
    """round(real * 2**n), for multipliers that must share the shift n."""
    return int(math.floor(real * 2.0 ** n + 0.5))


def round_shift(x, n):
    """floor((x + 2**(n-1)) / 2**n), element-wise; n may be an array."""
    x = np.asarray(x, dtype=np.int64)
    n = np.asarray(n, dtype=np.int64)
    return (x + np.left_shift(np.int64(1), n - 1)) >> n


def requantize(acc, m, n):
    """round_shift(acc * m, n): scales int32 accumulators by the real multiplier m / 2**n."""
    return round_shift(np.asarray(acc, dtype=np.int64) * np.asarray(m, dtype=np.int64), n)


def div_round(num, den):
    """floor((2 num + den) / (2 den)) for den > 0: division rounding halves towards +inf."""
    num = np.asarray(num, dtype=np.int64)
    den = np.asarray(den, dtype=np.int64)
    return np.floor_divide(2 * num + den, 2 * den)


def saturate(x, lo=-128, hi=127):
    return np.clip(x, lo, hi)


def quantize_f32(x, scale: float, zero_point: int):
    """float32 -> int8: clamp(rint(x / scale) + zp); NaN -> -128 (as the firmware)."""
    v = np.rint(np.asarray(x, np.float32) / np.float32(scale)) + np.float32(zero_point)
    v = np.where(np.isnan(v), np.float32(-128), v)
    return np.clip(v, -128, 127).astype(np.int8)


def dequantize_i8(q, scale: float, zero_point: int):
    """int8 -> float32: float(q - zp) * scale."""
    return (np.asarray(q, np.int32) - zero_point).astype(np.float32) * np.float32(scale)


def softmax_table(input_scale: float):
    """table[d] = round(2**16 * exp(-input_scale * d)), d = 0..255 (int32)."""
    d = np.arange(256, dtype=np.float64)
    return np.floor(65536.0 * np.exp(-float(input_scale) * d) + 0.5).astype(np.int32)
