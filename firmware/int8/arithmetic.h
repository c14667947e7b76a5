// The int8 fixed-point arithmetic of the runtime (docs/runtime.md, "Integer arithmetic") and
// the window geometry of convolution and pooling, for every implementation of the operators:
// the firmware's CPU kernels and the NPU model (models/npu/) include this one definition.
// scripts/socsim_aot/fixed_point.py is the numpy twin; both must stay bit-exact.
//
// Freestanding: <stdint.h> only, no runtime types.
#pragma once

#include <stdint.h>

namespace socsim::kernels {

/// floor((x + 2^(n-1)) / 2^n): division by 2^n rounding halves towards +infinity.
/// n must be in [1, 62].
inline int64_t round_shift(int64_t x, int32_t n) {
  return (x + (int64_t{1} << (n - 1))) >> n;  // arithmetic shift: floor
}

/// round_shift(acc * m, n): scales an accumulator by the real multiplier m / 2^n.
inline int64_t requantize(int32_t acc, int32_t m, int32_t n) {
  return round_shift(static_cast<int64_t>(acc) * m, n);
}

/// floor((2 num + den) / (2 den)) for den > 0: num / den rounding halves towards +infinity.
inline int64_t div_round(int64_t num, int64_t den) {
  const int64_t a = 2 * num + den;
  const int64_t b = 2 * den;
  int64_t q = a / b;
  if ((a % b != 0) && (a < 0)) --q;  // C division truncates; we want floor
  return q;
}

inline int32_t clamp_i32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

inline int8_t saturate_i8(int32_t v) {
  return static_cast<int8_t>(clamp_i32(v, -128, 127));
}

/// clamp(v, lo, hi) as int8, with v still 64-bit so that no addition can overflow first.
inline int8_t clamp_to_i8(int64_t v, int32_t lo, int32_t hi) {
  return static_cast<int8_t>(v < lo ? lo : (v > hi ? hi : v));
}
inline int8_t saturate_to_i8(int64_t v) {
  return clamp_to_i8(v, -128, 127);
}

/// Wrap-around to int8 (two's complement truncation) without implementation-defined casts.
inline int8_t wrap_i8(int32_t v) {
  const uint8_t bits = static_cast<uint8_t>(v & 0xFF);
  return static_cast<int8_t>(bits >= 128 ? static_cast<int32_t>(bits) - 256 : bits);
}

// ---- validity of arguments ----------------------------------------------------------------

/// True when bias + products terms of (int8 - zp) * int8 cannot overflow an int32
/// accumulator: |term| <= 255 * 128.
inline bool accumulator_fits(int64_t products, int32_t bias) {
  const int64_t magnitude = bias < 0 ? -int64_t{bias} : int64_t{bias};
  return products * 255 * 128 + magnitude < (int64_t{1} << 31);
}

/// Zero points of int8 tensors lie in [-128, 127]; activation bounds in it, lo <= hi.
inline bool valid_zero_point(int32_t zp) {
  return zp >= -128 && zp <= 127;
}
/// A zero point of activations of element type T: int8 (-128..127) or uint8 (0..255).
template <typename T>
inline bool valid_input_zero_point(int32_t zp) {
  return static_cast<T>(-1) < 0 ? valid_zero_point(zp) : zp >= 0 && zp <= 255;
}
inline bool valid_bounds(int32_t lo, int32_t hi) {
  return lo >= -128 && hi <= 127 && lo <= hi;
}

/// Shift counts and multipliers of requantisation arguments must be in range, else the
/// shifts are undefined behaviour.
inline bool valid_multiplier(int32_t m, int32_t n) {
  return m >= 0 && n >= 1 && n <= 62;
}

/// Average pooling's 23-bit multipliers and shifts of at most 30 (count * 2^n stays small).
inline bool valid_pool_multiplier(int32_t m, int32_t n) {
  return m >= 0 && n >= 0 && n <= 30;
}

// ---- window geometry ----------------------------------------------------------------------

/// Largest kernel size, stride, dilation or padding a window operator accepts; keeps every
/// index computation of the window loops inside int32.
constexpr int32_t kMaxWindowParam = 1 << 16;

/// Output length of a sliding window (conv, pooling) along one axis, or -1 when the window
/// does not fit or a parameter is out of range. With ceil_mode the last window must still
/// start inside the input or its leading padding (PyTorch's rule).
inline int32_t window_out_size(int32_t in, int32_t kernel, int32_t stride, int32_t pad0,
                               int32_t pad1, int32_t dilation, bool ceil_mode) {
  if (in < 1 || kernel < 1 || stride < 1 || dilation < 1 || pad0 < 0 || pad1 < 0) return -1;
  if (kernel > kMaxWindowParam || stride > kMaxWindowParam || dilation > kMaxWindowParam ||
      pad0 > kMaxWindowParam || pad1 > kMaxWindowParam) {
    return -1;
  }
  const int64_t span = int64_t{dilation} * (kernel - 1) + 1;
  const int64_t room = int64_t{in} + pad0 + pad1 - span;
  if (room < 0) return -1;
  int64_t out = (ceil_mode ? (room + stride - 1) / stride : room / stride) + 1;
  if (ceil_mode && (out - 1) * stride >= int64_t{in} + pad0) --out;
  return static_cast<int32_t>(out);
}

/// Largest plane (H x W) an int8 average may sum: 255 x 2^23 fits an int32 sum.
constexpr int64_t kMaxPoolArea = int64_t{1} << 23;

/// The int8 requantisation of `count` values to another scale and zero point:
/// y = saturate(requantize(x - zp_in, m, n) + zp_out) (quantized_decomposed::requantize.out,
/// the CPU kernel and the NPU layer).
inline void requantize_i8(const int8_t* x, uint32_t count, int32_t zp_in, int32_t zp_out, int32_t m,
                          int32_t n, int8_t* y) {
  for (uint32_t i = 0; i < count; ++i) {
    y[i] = saturate_to_i8(requantize(x[i] - zp_in, m, n) + zp_out);
  }
}

}  // namespace socsim::kernels
