// The int8 arithmetic of one element of the quantised binary operators (add, sub, mul, div),
// shared by the CPU kernels (elementwise.h, which adds broadcasting) and the NPU model
// (models/npu/layers/binary.cpp).
//
// Freestanding: arithmetic.h only, no runtime types.
#pragma once

#include <stdint.h>

#include "firmware/int8/arithmetic.h"

namespace socsim::kernels {

/// round_shift((a - zp_a) m_a + (b - zp_b) m_b, n) + zp_out, clamped to [lo, hi]; a
/// subtraction is an addition with m_b negated.
struct QuantizedSum {
  int32_t zp_a, m_a, zp_b, m_b, n, zp_out, lo, hi;

  /// From add/sub arguments (read by name).
  template <typename Args>
  static QuantizedSum of(const Args& a) {
    return {a.zp_a(), a.m_a(), a.zp_b(), a.m_b(), a.n(), a.zp_out(), a.act_min(), a.act_max()};
  }
  /// Checks an addition's arguments (before negated_b()).
  bool valid() const {
    return valid_multiplier(m_a, n) && valid_multiplier(m_b, n) && valid_zero_point(zp_a) &&
           valid_zero_point(zp_b) && valid_zero_point(zp_out) && valid_bounds(lo, hi);
  }
  /// The subtraction of a valid addition.
  QuantizedSum negated_b() const {
    QuantizedSum s = *this;
    s.m_b = -m_b;
    return s;
  }
  int8_t operator()(int8_t a, int8_t b) const {
    const int64_t acc = static_cast<int64_t>(a - zp_a) * m_a + static_cast<int64_t>(b - zp_b) * m_b;
    return clamp_to_i8(round_shift(acc, n) + zp_out, lo, hi);
  }
};

/// requantize((a - zp_a)(b - zp_b), m, n) + zp_out, clamped to [lo, hi].
struct QuantizedProduct {
  int32_t zp_a, zp_b, m, n, zp_out, lo, hi;

  template <typename Args>
  static QuantizedProduct of(const Args& a) {
    return {a.zp_a(), a.zp_b(), a.m(), a.n(), a.zp_out(), a.act_min(), a.act_max()};
  }
  bool valid() const {
    return valid_multiplier(m, n) && valid_zero_point(zp_a) && valid_zero_point(zp_b) &&
           valid_zero_point(zp_out) && valid_bounds(lo, hi);
  }
  int8_t operator()(int8_t a, int8_t b) const {
    const int32_t acc = (a - zp_a) * (b - zp_b);
    return clamp_to_i8(requantize(acc, m, n) + zp_out, lo, hi);
  }
};

/// div_round((a - zp_a) m, (b - zp_b) 2^n) + zp_out, clamped to [lo, hi] (the divisor's sign
/// moved to the dividend); a divisor b = zp_b gives hi, lo or zp_out as the dividend is
/// positive, negative or 0.
struct QuantizedQuotient {
  int32_t zp_a, zp_b, m, n, zp_out, lo, hi;

  /// The largest shift: 2 * 255 * 2^n, the divisor div_round doubles, stays inside int64.
  static constexpr int32_t kMaxShift = 53;

  template <typename Args>
  static QuantizedQuotient of(const Args& a) {
    return {a.zp_a(), a.zp_b(), a.m(), a.n(), a.zp_out(), a.act_min(), a.act_max()};
  }
  bool valid() const {
    return valid_multiplier(m, n) && n <= kMaxShift && valid_zero_point(zp_a) &&
           valid_zero_point(zp_b) && valid_zero_point(zp_out) && valid_bounds(lo, hi);
  }
  int8_t operator()(int8_t a, int8_t b) const {
    int64_t num = static_cast<int64_t>(a - zp_a) * m;
    const int32_t divisor = b - zp_b;
    if (divisor == 0) return clamp_to_i8(num > 0 ? hi : (num < 0 ? lo : zp_out), lo, hi);
    // The divisor's magnitude is shifted (a negative value shifted left is undefined)
    const int64_t den = static_cast<int64_t>(divisor < 0 ? -divisor : divisor) << n;
    if (divisor < 0) num = -num;
    return clamp_to_i8(div_round(num, den) + zp_out, lo, hi);
  }
};

}  // namespace socsim::kernels
