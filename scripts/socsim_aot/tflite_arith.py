"""TensorFlow Lite's integer arithmetic, in plain Python integers (a named variant beside the
runtime's own rules in fixed_point.py, which it does not change).

TFLite's int8 kernels scale an int32 accumulator by a real multiplier held as a Q31 value `m`
and a power-of-two exponent: `x * 2^left` (left shift for positive exponents), then the
rounding doubling high multiply by `m` (the high 32 bits of 2 x m, rounding halves away from
zero), then a right shift rounding halves away from zero. Non-linear operators use fixed-point
numbers `Q(i)`: an int32 raw value `r` meaning r / 2^(31 - i), with the exp, reciprocal,
logistic and tanh of gemmlowp's fixed-point library (published algorithms: polynomial on
[-1/4, 0) and a barrel of exp(-2^k) constants; Newton-Raphson for 1/(1+x)).

Sources (facts and algorithms, not code): TensorFlow Lite's kernels/internal/common.h
(QuantizeMultiplier, MultiplyByQuantizedMultiplier), gemmlowp's fixedpoint/fixedpoint.h,
and the reference kernels of kernels/internal/reference/ (integer_ops/*.h).
"""

import math

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def wrap32(x: int) -> int:
    """Two's complement truncation to int32."""
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >= (1 << 31) else x


def tf_round(x: float) -> int:
    """std::round: halves away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def quantize_multiplier(real: float):
    """(m, exponent): real ~= m / 2^31 x 2^exponent, m a Q31 value in [2^30, 2^31)."""
    if real == 0.0:
        return 0, 0
    frac, exp = math.frexp(real)
    m = tf_round(frac * (1 << 31))
    if m == (1 << 31):
        m //= 2
        exp += 1
    if exp < -31:
        return 0, 0
    return m, exp


def trunc_div(a: int, b: int) -> int:
    """C integer division (truncates towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def srdhm(a: int, b: int) -> int:
    """Saturating rounding doubling high multiply of two int32 values."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    nudge = (1 << 30) if ab >= 0 else 1 - (1 << 30)
    return wrap32(trunc_div(ab + nudge, 1 << 31))


def rounding_divide_by_pot(x: int, exponent: int) -> int:
    """x / 2^exponent rounding halves away from zero."""
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def multiply_by_quantized_multiplier(x: int, m: int, exponent: int) -> int:
    left = exponent if exponent > 0 else 0
    right = 0 if exponent > 0 else -exponent
    return rounding_divide_by_pot(srdhm(wrap32(x * (1 << left)), m), right)


def saturating_rounding_mul_by_pot(x: int, exponent: int) -> int:
    """x x 2^exponent: a saturating left shift, or a rounding right shift."""
    if exponent > 0:
        threshold = (1 << (31 - exponent)) - 1
        if x > threshold:
            return INT32_MAX
        if x < -threshold:
            return INT32_MIN
        return wrap32(x << exponent)
    if exponent < 0:
        return rounding_divide_by_pot(x, -exponent)
    return x


def rescale(raw: int, from_bits: int, to_bits: int) -> int:
    """A Q(from_bits) value as Q(to_bits)."""
    return saturating_rounding_mul_by_pot(raw, from_bits - to_bits)


def rounding_half_sum(a: int, b: int) -> int:
    s = a + b
    return trunc_div(s + (1 if s >= 0 else -1), 2)


def _exp_quarter(a: int) -> int:
    """exp(a) for a Q0 value a in [-1/4, 0); Q0 result."""
    constant_term = 1895147668  # exp(-1/8) in Q0
    one_third = 715827883
    x = wrap32(a + (1 << 28))  # a + 1/8
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_over_4 = saturating_rounding_mul_by_pot(x4, -2)
    poly = saturating_rounding_mul_by_pot(wrap32(srdhm(wrap32(x4_over_4 + x3), one_third) + x2),
                                          -1)
    return wrap32(constant_term + srdhm(constant_term, wrap32(x + poly)))


_EXP_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
               (2, 39369046), (3, 720401), (4, 242))


def exp_on_negative_values(a: int, integer_bits: int) -> int:
    """exp(a) for a Q(integer_bits) value a <= 0; Q0 result."""
    frac_bits = 31 - integer_bits
    one_quarter = 1 << (frac_bits - 2)
    mask = one_quarter - 1
    a_mod = wrap32((a & mask) - one_quarter)
    result = _exp_quarter(rescale(a_mod, integer_bits, 0))
    remainder = wrap32(a_mod - a)
    for exponent, multiplier in _EXP_BARREL:
        if integer_bits > exponent:
            shift = frac_bits + exponent
            if 0 <= shift < 32 and remainder & (1 << shift):
                result = srdhm(result, multiplier)
    if integer_bits > 5:
        clamp = -(1 << (36 - integer_bits))
        if a < clamp:
            result = 0
    if a == 0:
        result = INT32_MAX
    return result


def _newton_reciprocal_half(a: int) -> int:
    """1 / d as a Q2 value, d = (1 + a) / 2 for a Q0 value a in [0, 1): three Newton-Raphson
    steps x += x (1 - d x) from x = 48/17 - 32/17 d (gemmlowp's)."""
    half_denominator = rounding_half_sum(a, INT32_MAX)
    x = wrap32(1515870810 + srdhm(half_denominator, -1010580540))
    one_q2 = 1 << 29
    for _ in range(3):
        hdx = srdhm(half_denominator, x)
        one_minus = wrap32(one_q2 - hdx)
        x = wrap32(x + rescale(srdhm(x, one_minus), 4, 2))
    return x


def one_over_one_plus_x(a: int) -> int:
    """1 / (1 + a) for a Q0 value a in [0, 1); Q0 result."""
    x = _newton_reciprocal_half(a)  # 2 / (1 + a) in Q2: the same raw value is 1 / (1 + a) in Q1
    return rescale(x, 1, 0)


def one_minus_x_over_one_plus_x(a: int) -> int:
    """(1 - a) / (1 + a) for a Q0 value a in [0, 1); Q0 result."""
    x = _newton_reciprocal_half(a)
    return rescale(wrap32(x - (1 << 29)), 2, 0)


def logistic_q(a: int, integer_bits: int) -> int:
    """logistic(a) for a Q(integer_bits) value; Q0 result."""
    if a == 0:
        return 1 << 30
    positive = one_over_one_plus_x(exp_on_negative_values(-abs(a), integer_bits))
    return positive if a > 0 else wrap32(INT32_MAX - positive)


def tanh_q(a: int, integer_bits: int) -> int:
    """tanh(a) for a Q(integer_bits) value; Q0 result."""
    if a == 0:
        return 0
    n = -abs(a)
    t = exp_on_negative_values(wrap32(n + n), integer_bits)
    r = one_minus_x_over_one_plus_x(t)
    return -r if a < 0 else r


def reciprocal(x: int, integer_bits: int):
    """(scale, bits over unit): 1/x for a positive Q(integer_bits) x, as TFLite's
    GetReciprocal normalises it."""
    headroom = 32 - (x & 0xFFFFFFFF).bit_length()
    bits_over_unit = integer_bits - headroom
    shifted_minus_one = wrap32(((x << headroom) & 0xFFFFFFFF) - (1 << 31))
    return one_over_one_plus_x(shifted_minus_one), bits_over_unit


def input_radius(integer_bits: int, left_shift: int, total_bits: int = 31) -> int:
    """The largest |input difference| whose rescaled value stays inside Q(integer_bits)."""
    v = 1.0 * ((1 << integer_bits) - 1) * (1 << (total_bits - integer_bits)) / (1 << left_shift)
    return int(math.floor(v))


# ---- 16-bit variants (HARD_SWISH) ------------------------------------------------------------

def wrap16(x: int) -> int:
    x &= 0xFFFF
    return x - (1 << 16) if x >= (1 << 15) else x


def srdhm16(a: int, b: int) -> int:
    if a == b == -(1 << 15):
        return (1 << 15) - 1
    ab = a * b
    nudge = (1 << 14) if ab >= 0 else 1 - (1 << 14)
    return wrap16(trunc_div(ab + nudge, 1 << 15))


def sdhm16(a: int, b: int) -> int:
    """Saturating doubling high multiply without rounding (truncating)."""
    if a == b == -(1 << 15):
        return (1 << 15) - 1
    return wrap16(trunc_div(a * b, 1 << 15))


def saturating_left_shift16(x: int, amount: int) -> int:
    return max(-(1 << 15), min((1 << 15) - 1, x * (1 << amount)))


def downscale_multiplier16(m: int) -> int:
    if m >= INT32_MAX - (1 << 15):
        return (1 << 15) - 1
    return (m + (1 << 15)) >> 16


# ---- int8 softmax as the runtime computes it from a table (firmware/int8/tflite_rounding.h) --

def softmax_exp_table(input_scale: float, beta: float):
    """257 int32 values: [d] = exp(-d input_scale beta) in Q0 as TFLite computes it for the
    difference d = max - x in [0, 255], -1 past its input radius; [256] = 0 (marks the rule)."""
    diff_bits = 5
    real = min(beta * float(input_scale) * (1 << (31 - diff_bits)), (1 << 31) - 1.0)
    m, left = quantize_multiplier(real)
    diff_min = -input_radius(diff_bits, left)
    table = []
    for d in range(256):
        if -d >= diff_min:
            table.append(exp_on_negative_values(srdhm(wrap32(-d * (1 << left)), m), diff_bits))
        else:
            table.append(-1)
    return table + [0]


def softmax_line(xs, table):
    """int8 outputs (scale 1/256, zero point -128) of one line of int8 inputs."""
    top = max(int(v) for v in xs)
    exps = [table[top - int(v)] for v in xs]
    total = 0
    for e in exps:
        if e >= 0:
            total = wrap32(total + rescale(e, 0, 12))
    scale, bits_over = reciprocal(total, 12)
    return [-128 if e < 0 else
            max(-128, min(127, rounding_divide_by_pot(srdhm(scale, e), bits_over + 23) - 128))
            for e in exps]
