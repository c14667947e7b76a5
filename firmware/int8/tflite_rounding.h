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

/// x / 2^e rounding halves away from zero, e in [0, 31].
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

}  // namespace socsim::kernels
