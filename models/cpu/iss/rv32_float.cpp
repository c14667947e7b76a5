// RV32F arithmetic in integers (see rv32_float.h). Every finite result is computed exactly as
// sig * 2^exp in 128 bits, with bits shifted out folded into bit 0 (a sticky bit far below the
// rounding position), and rounded by round_pack().
#include "models/cpu/iss/rv32_float.h"

#include <utility>

namespace socsim::f32 {
namespace {

using u128 = unsigned __int128;

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kInfinity = 0x7F800000u;
constexpr uint32_t kMaxFinite = 0x7F7FFFFFu;

/// A finite value as sign, significand and exponent: sig * 2^exp (sig = 0 for zeros).
struct Finite {
  bool sign;
  int32_t exp;
  uint32_t sig;
};

bool sign_of(uint32_t a) {
  return (a & kSignBit) != 0;
}
bool is_infinity(uint32_t a) {
  return (a & ~kSignBit) == kInfinity;
}
bool is_zero(uint32_t a) {
  return (a & ~kSignBit) == 0;
}

Finite unpack(uint32_t a) {
  const uint32_t e = (a >> 23) & 0xFF, f = a & 0x7FFFFFu;
  if (e == 0) return {sign_of(a), -149, f};
  return {sign_of(a), static_cast<int32_t>(e) - 150, f | 0x800000u};
}

int bit_length(u128 m) {
  const uint64_t hi = static_cast<uint64_t>(m >> 64), lo = static_cast<uint64_t>(m);
  if (hi) return 128 - __builtin_clzll(hi);
  return lo ? 64 - __builtin_clzll(lo) : 0;
}

/// Whether to add one unit to the kept bits: `rest` is what was cut off, `half` the value of
/// half a unit in the same scale, `odd` whether the kept bits are odd.
bool increments(bool sign, Rounding rm, u128 rest, u128 half, bool odd) {
  switch (rm) {
    case kRne:
      return rest > half || (rest == half && odd);
    case kRmm:
      return rest >= half;
    case kRdn:
      return sign && rest != 0;
    case kRup:
      return !sign && rest != 0;
    case kRtz:
    default:
      return false;
  }
}

uint32_t overflowed(bool sign, Rounding rm) {
  const bool to_infinity =
      rm == kRne || rm == kRmm || (rm == kRdn && sign) || (rm == kRup && !sign);
  return (sign ? kSignBit : 0) | (to_infinity ? kInfinity : kMaxFinite);
}

/// Splits m into the bits above `shift` and the rest, for 0 < shift; shifts of 128 and more
/// keep nothing (the rest is then below half a unit unless shift is exactly 128).
void split(u128 m, int shift, u128* kept, u128* rest, u128* half) {
  if (shift < 128) {
    *kept = m >> shift;
    *rest = m & ((u128(1) << shift) - 1);
    *half = u128(1) << (shift - 1);
  } else if (shift == 128) {
    *kept = 0;
    *rest = m;
    *half = u128(1) << 127;
  } else {  // far below half a unit of the last place, but not zero
    *kept = 0;
    *rest = 1;
    *half = 2;
  }
}

/// Rounds sign * m * 2^e (m != 0) to binary32 with rm: overflow, tininess after rounding (the
/// value rounded to 24 bits with an unbounded exponent is below 2^-126), underflow when tiny
/// and inexact, subnormal results.
uint32_t round_pack(bool sign, int32_t e, u128 m, Rounding rm, uint32_t* flags) {
  const int len = bit_length(m);
  m <<= 128 - len;
  e -= 128 - len;
  // m has its leading one at bit 127: the value is 1.f * 2^(e + 127).
  int32_t biased = e + 127 + 127;
  const uint32_t sign_bit = sign ? kSignBit : 0;
  u128 kept, rest, half;
  if (biased >= 1) {
    split(m, 104, &kept, &rest, &half);
    if (rest) *flags |= kInexact;
    if (increments(sign, rm, rest, half, kept & 1)) ++kept;
    if (kept == (u128(1) << 24)) {
      kept >>= 1;
      ++biased;
    }
    if (biased >= 255) {
      *flags |= kOverflow | kInexact;
      return overflowed(sign, rm);
    }
    return sign_bit | ((static_cast<uint32_t>(biased - 1) << 23) + static_cast<uint32_t>(kept));
  }
  // Below the normal range: tiny unless rounding to 24 bits would reach 2^-126.
  bool tiny = true;
  if (biased == 0) {
    u128 k24, r24, h24;
    split(m, 104, &k24, &r24, &h24);
    if (k24 == (u128(1) << 24) - 1 && increments(sign, rm, r24, h24, true)) tiny = false;
  }
  split(m, 104 + (1 - biased), &kept, &rest, &half);
  if (rest) {
    *flags |= kInexact;
    if (tiny) *flags |= kUnderflow;
  }
  if (increments(sign, rm, rest, half, kept & 1)) ++kept;
  // kept = 2^23 is the smallest normal number: the carry lands in the exponent field.
  return sign_bit | static_cast<uint32_t>(kept);
}

/// The zero an exact cancellation gives: +0, or -0 when rounding down.
uint32_t cancelled_zero(Rounding rm) {
  return rm == kRdn ? kSignBit : 0;
}

/// Rounds s1 * m1 * 2^e1 + s2 * m2 * 2^e2 (m1, m2 nonzero, at most 64 bits each).
uint32_t sum_rounded(bool s1, int32_t e1, u128 m1, bool s2, int32_t e2, u128 m2, Rounding rm,
                     uint32_t* flags) {
  if (e2 + bit_length(m2) > e1 + bit_length(m1)) {
    std::swap(s1, s2);
    std::swap(e1, e2);
    std::swap(m1, m2);
  }
  // The larger operand's leading one goes to bit 125; the smaller is aligned to it, and what
  // falls below bit 0 is kept as a sticky bit.
  const int32_t base = e1 + bit_length(m1) - 125;
  const u128 big = m1 << (e1 - base);
  u128 small;
  const int32_t d = e2 - base;
  if (d >= 0) {
    small = m2 << d;
  } else if (-d >= 127) {
    small = 1;
  } else {
    const int sh = -d;
    small = (m2 >> sh) | ((m2 & ((u128(1) << sh) - 1)) != 0 ? 1 : 0);
  }
  if (s1 == s2) return round_pack(s1, base, big + small, rm, flags);
  if (big == small) return cancelled_zero(rm);
  if (big > small) return round_pack(s1, base, big - small, rm, flags);
  return round_pack(s2, base, small - big, rm, flags);
}

uint32_t nan_result(bool signalling, uint32_t* flags) {
  if (signalling) *flags |= kInvalid;
  return kCanonicalNan;
}

uint32_t invalid(uint32_t* flags) {
  *flags |= kInvalid;
  return kCanonicalNan;
}

/// a + b where b's sign has already been applied.
uint32_t add_signed(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags) {
  if (is_nan(a) || is_nan(b))
    return nan_result(is_signalling_nan(a) || is_signalling_nan(b), flags);
  if (is_infinity(a)) {
    if (is_infinity(b) && sign_of(a) != sign_of(b)) return invalid(flags);
    return a;
  }
  if (is_infinity(b)) return b;
  if (is_zero(a) && is_zero(b)) return sign_of(a) == sign_of(b) ? a : cancelled_zero(rm);
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;
  const Finite x = unpack(a), y = unpack(b);
  return sum_rounded(x.sign, x.exp, x.sig, y.sign, y.exp, y.sig, rm, flags);
}

/// The integer square root of x (floor) and whether it is inexact.
u128 isqrt(u128 x, bool* inexact) {
  u128 root = 0, bit = u128(1) << 126;
  while (bit > x) bit >>= 2;
  while (bit) {
    if (x >= root + bit) {
      x -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  *inexact = x != 0;
  return root;
}

/// The value of a finite float rounded to an integer with rm: its magnitude (saturated at
/// 2^40, far beyond any 32-bit range) and whether it was inexact.
uint64_t rounded_magnitude(uint32_t a, Rounding rm, bool* inexact) {
  const Finite x = unpack(a);
  *inexact = false;
  if (x.sig == 0) return 0;
  if (x.exp >= 0) return x.exp > 16 ? (uint64_t(1) << 40) : uint64_t(x.sig) << x.exp;
  u128 kept, rest, half;
  split(x.sig, -x.exp, &kept, &rest, &half);
  *inexact = rest != 0;
  if (increments(x.sign, rm, rest, half, kept & 1)) ++kept;
  return static_cast<uint64_t>(kept);
}

bool less(uint32_t a, uint32_t b) {  // neither is NaN
  const bool sa = sign_of(a), sb = sign_of(b);
  if (sa != sb) return sa && !is_zero(a | b);
  if (a == b) return false;
  return sa ? a > b : a < b;
}

bool equal(uint32_t a, uint32_t b) {
  return a == b || is_zero(a | b);
}

}  // namespace

uint32_t add(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags) {
  return add_signed(a, b, rm, flags);
}

uint32_t sub(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags) {
  // The sign flip must not turn a NaN operand into something else: NaNs are handled first.
  if (is_nan(b)) return add_signed(a, b, rm, flags);
  return add_signed(a, b ^ kSignBit, rm, flags);
}

uint32_t mul(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags) {
  if (is_nan(a) || is_nan(b))
    return nan_result(is_signalling_nan(a) || is_signalling_nan(b), flags);
  const bool sign = sign_of(a) != sign_of(b);
  if (is_infinity(a) || is_infinity(b)) {
    if (is_zero(a) || is_zero(b)) return invalid(flags);
    return (sign ? kSignBit : 0) | kInfinity;
  }
  if (is_zero(a) || is_zero(b)) return sign ? kSignBit : 0;
  const Finite x = unpack(a), y = unpack(b);
  return round_pack(sign, x.exp + y.exp, u128(x.sig) * y.sig, rm, flags);
}

uint32_t div(uint32_t a, uint32_t b, Rounding rm, uint32_t* flags) {
  if (is_nan(a) || is_nan(b))
    return nan_result(is_signalling_nan(a) || is_signalling_nan(b), flags);
  const bool sign = sign_of(a) != sign_of(b);
  const uint32_t sign_bit = sign ? kSignBit : 0;
  if (is_infinity(a)) return is_infinity(b) ? invalid(flags) : sign_bit | kInfinity;
  if (is_infinity(b)) return sign_bit;
  if (is_zero(b)) {
    if (is_zero(a)) return invalid(flags);
    *flags |= kDivByZero;
    return sign_bit | kInfinity;
  }
  if (is_zero(a)) return sign_bit;
  const Finite x = unpack(a), y = unpack(b);
  const u128 numerator = u128(x.sig) << 64;
  const u128 quotient = numerator / y.sig, remainder = numerator % y.sig;
  return round_pack(sign, x.exp - y.exp - 65, (quotient << 1) | (remainder != 0 ? 1 : 0), rm,
                    flags);
}

uint32_t sqrt(uint32_t a, Rounding rm, uint32_t* flags) {
  if (is_nan(a)) return nan_result(is_signalling_nan(a), flags);
  if (is_zero(a)) return a;
  if (sign_of(a)) return invalid(flags);
  if (is_infinity(a)) return a;
  Finite x = unpack(a);
  u128 m = x.sig;
  int32_t e = x.exp;
  if (e & 1) {
    m <<= 1;
    --e;
  }
  bool inexact;
  const u128 root = isqrt(m << 100, &inexact);
  return round_pack(false, (e - 100) / 2 - 1, (root << 1) | (inexact ? 1 : 0), rm, flags);
}

uint32_t fma(uint32_t a, uint32_t b, uint32_t c, bool negate_product, bool negate_addend,
             Rounding rm, uint32_t* flags) {
  const bool product_invalid = (is_infinity(a) && is_zero(b)) || (is_zero(a) && is_infinity(b));
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    // The specification asks for NV on infinity * 0 even when the addend is a quiet NaN.
    const bool signalling =
        is_signalling_nan(a) || is_signalling_nan(b) || is_signalling_nan(c) || product_invalid;
    return nan_result(signalling, flags);
  }
  if (product_invalid) return invalid(flags);
  const bool product_sign = (sign_of(a) != sign_of(b)) != negate_product;
  const uint32_t addend = negate_addend ? c ^ kSignBit : c;
  const bool addend_sign = sign_of(addend);
  if (is_infinity(a) || is_infinity(b)) {
    if (is_infinity(addend) && addend_sign != product_sign) return invalid(flags);
    return (product_sign ? kSignBit : 0) | kInfinity;
  }
  if (is_infinity(addend)) return addend;
  if (is_zero(a) || is_zero(b)) {
    if (is_zero(addend)) {
      return addend_sign == product_sign ? addend : cancelled_zero(rm);
    }
    return addend;
  }
  const Finite x = unpack(a), y = unpack(b);
  const u128 product = u128(x.sig) * y.sig;
  if (is_zero(addend)) return round_pack(product_sign, x.exp + y.exp, product, rm, flags);
  const Finite z = unpack(addend);
  return sum_rounded(product_sign, x.exp + y.exp, product, z.sign, z.exp, z.sig, rm, flags);
}

uint32_t min(uint32_t a, uint32_t b, uint32_t* flags) {
  if (is_signalling_nan(a) || is_signalling_nan(b)) *flags |= kInvalid;
  if (is_nan(a) && is_nan(b)) return kCanonicalNan;
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  if (is_zero(a) && is_zero(b)) return (a | b);  // -0 if either is -0
  return less(b, a) ? b : a;
}

uint32_t max(uint32_t a, uint32_t b, uint32_t* flags) {
  if (is_signalling_nan(a) || is_signalling_nan(b)) *flags |= kInvalid;
  if (is_nan(a) && is_nan(b)) return kCanonicalNan;
  if (is_nan(a)) return b;
  if (is_nan(b)) return a;
  if (is_zero(a) && is_zero(b)) return (a & b);  // +0 if either is +0
  return less(a, b) ? b : a;
}

uint32_t eq(uint32_t a, uint32_t b, uint32_t* flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_signalling_nan(a) || is_signalling_nan(b)) *flags |= kInvalid;
    return 0;
  }
  return equal(a, b) ? 1 : 0;
}

uint32_t lt(uint32_t a, uint32_t b, uint32_t* flags) {
  if (is_nan(a) || is_nan(b)) {
    *flags |= kInvalid;
    return 0;
  }
  return less(a, b) ? 1 : 0;
}

uint32_t le(uint32_t a, uint32_t b, uint32_t* flags) {
  if (is_nan(a) || is_nan(b)) {
    *flags |= kInvalid;
    return 0;
  }
  return less(a, b) || equal(a, b) ? 1 : 0;
}

uint32_t classify(uint32_t a) {
  const bool sign = sign_of(a);
  const uint32_t e = (a >> 23) & 0xFF, f = a & 0x7FFFFFu;
  if (e == 0xFF) {
    if (f == 0) return sign ? 1u << 0 : 1u << 7;
    return (f & 0x400000u) ? 1u << 9 : 1u << 8;
  }
  if (e == 0) {
    if (f == 0) return sign ? 1u << 3 : 1u << 4;
    return sign ? 1u << 2 : 1u << 5;
  }
  return sign ? 1u << 1 : 1u << 6;
}

uint32_t to_int32(uint32_t a, Rounding rm, uint32_t* flags) {
  if (is_nan(a)) {
    *flags |= kInvalid;
    return 0x7FFFFFFFu;
  }
  const bool sign = sign_of(a);
  const uint32_t saturated = sign ? 0x80000000u : 0x7FFFFFFFu;
  if (is_infinity(a)) {
    *flags |= kInvalid;
    return saturated;
  }
  bool inexact;
  const uint64_t magnitude = rounded_magnitude(a, rm, &inexact);
  if (magnitude > (sign ? 0x80000000ull : 0x7FFFFFFFull)) {
    *flags |= kInvalid;
    return saturated;
  }
  if (inexact) *flags |= kInexact;
  return sign ? static_cast<uint32_t>(0 - magnitude) : static_cast<uint32_t>(magnitude);
}

uint32_t to_uint32(uint32_t a, Rounding rm, uint32_t* flags) {
  if (is_nan(a)) {
    *flags |= kInvalid;
    return 0xFFFFFFFFu;
  }
  const bool sign = sign_of(a);
  if (is_infinity(a)) {
    *flags |= kInvalid;
    return sign ? 0 : 0xFFFFFFFFu;
  }
  bool inexact;
  const uint64_t magnitude = rounded_magnitude(a, rm, &inexact);
  if ((sign && magnitude != 0) || magnitude > 0xFFFFFFFFull) {
    *flags |= kInvalid;
    return sign ? 0 : 0xFFFFFFFFu;
  }
  if (inexact) *flags |= kInexact;
  return static_cast<uint32_t>(magnitude);
}

uint32_t from_int32(uint32_t v, Rounding rm, uint32_t* flags) {
  if (v == 0) return 0;
  const bool sign = (v & kSignBit) != 0;
  return round_pack(sign, 0, sign ? 0u - v : v, rm, flags);
}

uint32_t from_uint32(uint32_t v, Rounding rm, uint32_t* flags) {
  if (v == 0) return 0;
  return round_pack(false, 0, v, rm, flags);
}

}  // namespace socsim::f32
