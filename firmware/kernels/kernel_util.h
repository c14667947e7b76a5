// Shared helpers of the portable kernels: argument checks, the int8 fixed-point arithmetic
// (docs/runtime.md, "Integer arithmetic"; scripts/socsim_aot/fixed_point.py is the numpy
// twin and both must stay bit-exact), and broadcasting iteration.
#pragma once

#include <stdint.h>
#include <string.h>

#include "firmware/runtime/error.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim::kernels {

using runtime::Error;
using runtime::KernelArgs;
using runtime::ScalarType;
using runtime::Tensor;

// ---- integer arithmetic -----------------------------------------------------------------

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
inline bool valid_bounds(int32_t lo, int32_t hi) {
  return lo >= -128 && hi <= 127 && lo <= hi;
}

/// Wrap-around to int8 (two's complement truncation) without implementation-defined casts.
inline int8_t wrap_i8(int32_t v) {
  const uint8_t bits = static_cast<uint8_t>(v & 0xFF);
  return static_cast<int8_t>(bits >= 128 ? static_cast<int32_t>(bits) - 256 : bits);
}

/// A float stored bit for bit in an int32 argument.
inline float arg_float(int32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof(f));
  return f;
}

/// Shift counts and multipliers of requantisation arguments must be in range, else the
/// shifts are undefined behaviour.
inline bool valid_multiplier(int32_t m, int32_t n) {
  return m >= 0 && n >= 1 && n <= 62;
}

// ---- argument checks ---------------------------------------------------------------------

inline Error check_counts(const KernelArgs& a, uint32_t inputs, uint32_t outputs, uint32_t args) {
  if (a.input_count != inputs || a.output_count != outputs) return Error::kBadOperatorArgs;
  if (a.arg_count != args) return Error::kBadOperatorArgs;
  return Error::kOk;
}

inline bool same_dtype(const Tensor& a, ScalarType type) {
  return a.dtype == type;
}

// ---- broadcasting -----------------------------------------------------------------------

/// Numpy broadcasting of two inputs into the output shape. Computes, for the output's
/// dimensions, the element strides of each input (0 where the input is broadcast).
struct Broadcast {
  uint32_t rank = 0;
  int32_t sizes[runtime::kMaxRank] = {};
  uint32_t stride_a[runtime::kMaxRank] = {};
  uint32_t stride_b[runtime::kMaxRank] = {};
  bool trivial = false;  ///< All three shapes are equal: a flat loop does.

  /// kShapeMismatch unless a and b broadcast exactly to out.
  Error init(const Tensor& a, const Tensor& b, const Tensor& out);
};

inline Error strides_for(const Tensor& in, const Tensor& out, uint32_t* strides) {
  if (in.rank > out.rank) return Error::kShapeMismatch;
  uint32_t stride = 1;
  for (int32_t d = static_cast<int32_t>(out.rank) - 1; d >= 0; --d) {
    const int32_t k = d - static_cast<int32_t>(out.rank - in.rank);
    const int32_t size = k >= 0 ? in.sizes[k] : 1;
    if (size == out.sizes[d]) {
      strides[d] = size == 1 ? 0 : stride;
    } else if (size == 1) {
      strides[d] = 0;
    } else {
      return Error::kShapeMismatch;
    }
    stride *= static_cast<uint32_t>(size);
  }
  return Error::kOk;
}

inline Error Broadcast::init(const Tensor& a, const Tensor& b, const Tensor& out) {
  rank = out.rank;
  for (uint32_t d = 0; d < rank; ++d) sizes[d] = out.sizes[d];
  trivial = a.same_shape(out) && b.same_shape(out);
  SOCSIM_RT_TRY(strides_for(a, out, stride_a));
  return strides_for(b, out, stride_b);
}

/// Calls op(out_index, a_index, b_index) for every output element, in row-major order.
template <typename Op>
inline void for_each_broadcast(const Broadcast& bc, uint32_t numel, Op op) {
  if (bc.trivial) {
    for (uint32_t i = 0; i < numel; ++i) op(i, i, i);
    return;
  }
  uint32_t index[runtime::kMaxRank] = {};
  uint32_t ia = 0;
  uint32_t ib = 0;
  for (uint32_t i = 0; i < numel; ++i) {
    op(i, ia, ib);
    for (int32_t d = static_cast<int32_t>(bc.rank) - 1; d >= 0; --d) {
      ia += bc.stride_a[d];
      ib += bc.stride_b[d];
      if (++index[d] < static_cast<uint32_t>(bc.sizes[d])) break;
      ia -= bc.stride_a[d] * index[d];
      ib -= bc.stride_b[d] * index[d];
      index[d] = 0;
    }
  }
}

}  // namespace socsim::kernels

namespace socsim::kernels {

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

/// Common checks of NCHW window operators: rank 4 in and out, batch equal.
inline bool is_nchw_pair(const Tensor& in, const Tensor& out) {
  return in.rank == 4 && out.rank == 4 && in.sizes[0] == out.sizes[0];
}

}  // namespace socsim::kernels
