// TensorFlow Lite's requantisation of int32 accumulators, a second rounding rule beside the
// runtime's own (arithmetic.h), for the CPU kernels and the NPU model alike.
//
// A requantisation table row (multiplier m, shift n) whose shift carries kTfliteRounding means
// the real multiplier m / 2^n applied as TFLite's reference kernels do (its
// MultiplyByQuantizedMultiplier, gemmlowp's double rounding): with e = 31 - n, the accumulator
// is shifted left by max(e, 0) (int32 wrap-around), multiplied by m with the saturating
// rounding doubling high multiply (the high 32 bits of 2 x m, halves away from zero), then
// shifted right by max(-e, 0) rounding halves away from zero. The single-rounding rule of
// arithmetic.h differs from it on ties. scripts/socsim_aot/tflite_arith.py is the Python twin.
//
// Freestanding: conv_loops.h only, no runtime types.
#pragma once

#include <stdint.h>

#include "firmware/int8/conv_loops.h"

namespace socsim::kernels {

/// The bit of a requantisation table's shift column that selects TFLite's rounding.
constexpr int32_t kTfliteRounding = 0x100;

/// Saturating rounding doubling high multiply of two int32 values.
inline int32_t tflite_srdhm(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN) return INT32_MAX;
  const int64_t ab = int64_t{a} * b;
  const int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
  return static_cast<int32_t>((ab + nudge) / (int64_t{1} << 31));  // truncates towards zero
}

/// x / 2^e rounding halves away from zero, e in [0, 62].
inline int32_t tflite_rounding_divide_by_pot(int32_t x, int32_t e) {
  const int64_t mask = (int64_t{1} << e) - 1;
  const int64_t remainder = int64_t{x} & mask;
  const int64_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return static_cast<int32_t>((int64_t{x} >> e) + (remainder > threshold ? 1 : 0));
}

/// TFLite's requantisation of `acc` by m / 2^n, n in [1, 62] (the flag removed).
inline int32_t tflite_requantize(int32_t acc, int32_t m, int32_t n) {
  const int32_t e = 31 - n;
  const int64_t shifted = int64_t{acc} * (int64_t{1} << (e > 0 ? e : 0));
  int64_t low = shifted & 0xFFFFFFFF;  // int32 wrap-around without an implementation-defined cast
  if (low >= (int64_t{1} << 31)) low -= int64_t{1} << 32;
  return tflite_rounding_divide_by_pot(tflite_srdhm(static_cast<int32_t>(low), m),
                                       e > 0 ? 0 : -e);
}

/// True when row 0 of a requantisation table selects TFLite's rounding.
inline bool uses_tflite_rounding(const int32_t* requant) {
  return (requant[1] & kTfliteRounding) != 0;
}

/// Every row selects TFLite's rounding, with m >= 0 and the shift in [1, 62].
inline bool valid_tflite_requant_table(const int32_t* requant, int32_t channels) {
  for (int32_t c = 0; c < channels; ++c) {
    const int32_t n = requant[2 * c + 1];
    if ((n & ~0xFF) != kTfliteRounding || !valid_multiplier(requant[2 * c], n & 0xFF)) {
      return false;
    }
  }
  return true;
}

/// The requantised int8 output of channel c with TFLite's rounding.
inline int8_t tflite_requantized_output(int32_t acc, const int32_t* requant, int32_t c,
                                        int32_t zp_out, int32_t lo, int32_t hi) {
  return clamp_to_i8(
      int64_t{tflite_requantize(acc, requant[2 * c], requant[2 * c + 1] & 0xFF)} + zp_out, lo, hi);
}

/// conv_q8 with TFLite's rounding (the table checked by valid_tflite_requant_table).
template <typename TIn>
inline void conv_q8_tflite(const ConvGeometry& g, const TIn* x, const int8_t* w,
                           const int32_t* bias, const int32_t* requant, int32_t zp_in,
                           int32_t zp_out, int32_t lo, int32_t hi, int8_t* y) {
  conv_loops(
      g, x, w, [&](int32_t oc) { return bias[oc]; },
      [&](TIn xv, int8_t wv) { return (static_cast<int32_t>(xv) - zp_in) * wv; },
      [&](int32_t idx, int32_t oc, int32_t acc) {
        y[idx] = tflite_requantized_output(acc, requant, oc, zp_out, lo, hi);
      });
}


// ---- softmax ---------------------------------------------------------------------------------
// TFLite's int8 softmax with the exponentials precomputed by the compiler: table[d] for
// d = max - x in [0, 255] is exp(-d s beta) as a Q0 fixed-point value (int32 >= 0), or -1 when
// d lies beyond TFLite's input radius (that element outputs -128 and is left out of the sum).
// The sum of the exponentials (each rounded to Q12), its reciprocal by three Newton-Raphson
// steps (gemmlowp's, as scripts/socsim_aot/tflite_arith.py), then each output
// rdbpot(srdhm(reciprocal, exp), bits + 23) - 128: the output scale is 1/256, zero point -128.

/// Two's complement truncation of a 64-bit value to int32.
inline int32_t tflite_wrap32(int64_t v) {
  int64_t low = v & 0xFFFFFFFF;
  if (low >= (int64_t{1} << 31)) low -= int64_t{1} << 32;
  return static_cast<int32_t>(low);
}

/// x * 2^e (e in [1, 30]) saturating to int32.
inline int32_t tflite_saturating_left_shift(int32_t x, int32_t e) {
  const int32_t threshold = (int32_t{1} << (31 - e)) - 1;
  if (x > threshold) return INT32_MAX;
  if (x < -threshold) return INT32_MIN;
  return tflite_wrap32(int64_t{x} * (int64_t{1} << e));
}

/// 1 / (1 + a) for a Q0 value a in [0, 1), Q0.
inline int32_t tflite_one_over_one_plus_x(int32_t a) {
  const int64_t s = int64_t{a} + INT32_MAX;
  const int32_t half_denominator = static_cast<int32_t>((s + (s >= 0 ? 1 : -1)) / 2);
  int32_t x = tflite_wrap32(int64_t{1515870810} + tflite_srdhm(half_denominator, -1010580540));
  for (int i = 0; i < 3; ++i) {
    const int32_t hdx = tflite_srdhm(half_denominator, x);
    const int32_t one_minus = tflite_wrap32(int64_t{1 << 29} - hdx);
    x = tflite_wrap32(int64_t{x} + tflite_saturating_left_shift(tflite_srdhm(x, one_minus), 2));
  }
  return tflite_saturating_left_shift(x, 1);
}

/// One line of `n` int8 values at stride `step`.
inline void tflite_softmax_line(const int8_t* x, uint32_t n, uint32_t step, const int32_t* table,
                                int8_t* y) {
  int32_t max = x[0];
  for (uint32_t i = 1; i < n; ++i) max = x[i * step] > max ? x[i * step] : max;
  int64_t total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t e = table[max - x[i * step]];
    if (e >= 0) total = tflite_wrap32(total + tflite_rounding_divide_by_pot(e, 12));
  }
  // the leading one of the 32-bit total moved to bit 31 (none when the sum wrapped negative)
  int32_t headroom = 0;
  while (total > 0 && (total << headroom) < (int64_t{1} << 31)) ++headroom;
  const int32_t shifted_minus_one =
      tflite_wrap32((total << headroom) - (int64_t{1} << 31));
  const int32_t scale = tflite_one_over_one_plus_x(shifted_minus_one);
  const int32_t exponent = (12 - headroom) + 31 - 8;
  for (uint32_t i = 0; i < n; ++i) {
    const int32_t e = table[max - x[i * step]];
    if (e < 0) {
      y[i * step] = -128;
      continue;
    }
    const int32_t v = tflite_rounding_divide_by_pot(tflite_srdhm(scale, e), exponent);
    y[i * step] = clamp_to_i8(int64_t{v} - 128, -128, 127);
  }
}

// ---- add -------------------------------------------------------------------------------------

/// TFLite's int8 add of one element pair (tflite::add.out): the multipliers (m, e) are
/// TFLite's Q31 multipliers and exponents.
struct TfliteSum {
  int32_t zp_a, m_a, e_a, zp_b, m_b, e_b, m_out, e_out, zp_out, lo, hi;

  template <typename Args>
  static TfliteSum of(const Args& a) {
    return {a.zp_a(), a.m_a(), a.e_a(), a.zp_b(), a.m_b(), a.e_b(), a.m_out(), a.e_out(),
            a.zp_out(), a.act_min(), a.act_max()};
  }
  static bool valid_scale(int32_t m, int32_t e) { return m >= 0 && e >= -31 && e <= 30; }
  bool valid() const {
    return valid_scale(m_a, e_a) && valid_scale(m_b, e_b) && valid_scale(m_out, e_out) &&
           valid_zero_point(zp_a) && valid_zero_point(zp_b) && valid_zero_point(zp_out) &&
           valid_bounds(lo, hi);
  }
  int8_t operator()(int8_t a, int8_t b) const {
    const int32_t sa = tflite_requantize((a - zp_a) * (1 << 20), m_a, 31 - e_a);
    const int32_t sb = tflite_requantize((b - zp_b) * (1 << 20), m_b, 31 - e_b);
    const int32_t sum = tflite_wrap32(int64_t{sa} + sb);
    return clamp_to_i8(int64_t{tflite_requantize(sum, m_out, 31 - e_out)} + zp_out, lo, hi);
  }
};

}  // namespace socsim::kernels
