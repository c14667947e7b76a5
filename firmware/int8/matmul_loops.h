// The int8 product of two activation matrices, shared by the CPU kernel (op_matmul.cpp) and
// the NPU model (models/npu/layers/matmul.cpp): y = clamp(requantize(sum_k (a - zp_a)
// (b - zp_b), m, n) + zp_out, lo, hi), the sum in int32 (docs/runtime.md).
//
// Freestanding: arithmetic.h only, no runtime types.
#pragma once

#include <stdint.h>

#include "firmware/int8/arithmetic.h"

namespace socsim::kernels {

/// K at most this: K * 255 * 255 stays below 2^31.
constexpr int32_t kMaxMatmulDepth = 33025;

/// The quantisation arguments of an int8 matrix product.
struct MatmulScale {
  int32_t zp_a, zp_b, m, n, zp_out, lo, hi;

  bool valid() const {
    return valid_multiplier(m, n) && valid_zero_point(zp_a) && valid_zero_point(zp_b) &&
           valid_zero_point(zp_out) && valid_bounds(lo, hi);
  }
};

/// One matrix: a [rows x depth] times b [depth x cols] into y [rows x cols], row-major.
inline void matmul_i8(const int8_t* a, const int8_t* b, int32_t rows, int32_t depth, int32_t cols,
                      const MatmulScale& s, int8_t* y) {
  // Locals: the int8 stores may alias `s` as far as the compiler knows.
  const int32_t zp_a = s.zp_a, zp_b = s.zp_b, m = s.m, n = s.n, zp_out = s.zp_out;
  const int32_t lo = s.lo, hi = s.hi;
  for (int32_t r = 0; r < rows; ++r) {
    const int8_t* ar = a + r * depth;
    int8_t* yr = y + r * cols;
    for (int32_t c = 0; c < cols; ++c) {
      const int8_t* bc = b + c;
      int32_t acc = 0;
      for (int32_t j = 0; j < depth; ++j) acc += (ar[j] - zp_a) * (bc[j * cols] - zp_b);
      yr[c] = clamp_to_i8(requantize(acc, m, n) + zp_out, lo, hi);
    }
  }
}

}  // namespace socsim::kernels
