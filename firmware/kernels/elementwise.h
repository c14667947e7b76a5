// Binary elementwise kernels with broadcasting (add, sub, mul), float32 and int8.
//
// int8 has two forms, told apart by the argument count: with no arguments the operator is
// plain integer arithmetic wrapping around modulo 256 (torch semantics for int8 tensors,
// the seed's add8 model); with arguments it is quantised arithmetic (docs/runtime.md).
#pragma once

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

enum class BinaryKind { kAdd, kSub, kMul };

template <BinaryKind kKind>
inline float binary_float(float a, float b) {
  if (kKind == BinaryKind::kAdd) return a + b;
  if (kKind == BinaryKind::kSub) return a - b;
  return a * b;
}

template <BinaryKind kKind>
inline Error binary_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 2, 1, 0));
  const Tensor& a = *k.inputs[0];
  const Tensor& b = *k.inputs[1];
  Tensor& out = *k.outputs[0];
  if (!same_dtype(a, ScalarType::kFloat32) || !same_dtype(b, ScalarType::kFloat32) ||
      !same_dtype(out, ScalarType::kFloat32)) {
    return Error::kDtypeMismatch;
  }
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const float* pa = a.data_as<float>();
  const float* pb = b.data_as<float>();
  float* po = out.data_as<float>();
  for_each_broadcast(bc, out.numel(), [&](uint32_t i, uint32_t ia, uint32_t ib) {
    po[i] = binary_float<kKind>(pa[ia], pb[ib]);
  });
  return Error::kOk;
}

template <BinaryKind kKind>
inline Error binary_i8(const KernelArgs& k) {
  if (k.input_count != 2 || k.output_count != 1) return Error::kBadOperatorArgs;
  const Tensor& a = *k.inputs[0];
  const Tensor& b = *k.inputs[1];
  Tensor& out = *k.outputs[0];
  if (!same_dtype(a, ScalarType::kInt8) || !same_dtype(b, ScalarType::kInt8) ||
      !same_dtype(out, ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const int8_t* pa = a.data_as<int8_t>();
  const int8_t* pb = b.data_as<int8_t>();
  int8_t* po = out.data_as<int8_t>();
  const int32_t* g = k.args;
  const uint32_t numel = out.numel();
  if (k.arg_count == 0) {
    for_each_broadcast(bc, numel, [&](uint32_t i, uint32_t ia, uint32_t ib) {
      int32_t v;
      if (kKind == BinaryKind::kAdd) {
        v = pa[ia] + pb[ib];
      } else if (kKind == BinaryKind::kSub) {
        v = pa[ia] - pb[ib];
      } else {
        v = pa[ia] * pb[ib];
      }
      po[i] = wrap_i8(v);
    });
    return Error::kOk;
  }
  if (kKind == BinaryKind::kMul) {
    // [zp_a, zp_b, m, n, zp_out, act_min, act_max]
    if (k.arg_count != 7 || !valid_multiplier(g[2], g[3]) || !valid_zero_point(g[0]) ||
        !valid_zero_point(g[1]) || !valid_zero_point(g[4]) || !valid_bounds(g[5], g[6])) {
      return Error::kBadOperatorArgs;
    }
    const int32_t zp_a = g[0], zp_b = g[1], m = g[2], n = g[3], zp_out = g[4];
    const int32_t lo = g[5], hi = g[6];
    for_each_broadcast(bc, numel, [&](uint32_t i, uint32_t ia, uint32_t ib) {
      const int32_t acc = (pa[ia] - zp_a) * (pb[ib] - zp_b);
      po[i] = clamp_to_i8(requantize(acc, m, n) + zp_out, lo, hi);
    });
    return Error::kOk;
  }
  // add/sub: [zp_a, m_a, zp_b, m_b, n, zp_out, act_min, act_max]
  if (k.arg_count != 8 || !valid_multiplier(g[1], g[4]) || !valid_multiplier(g[3], g[4]) ||
      !valid_zero_point(g[0]) || !valid_zero_point(g[2]) || !valid_zero_point(g[5]) ||
      !valid_bounds(g[6], g[7])) {
    return Error::kBadOperatorArgs;
  }
  const int32_t zp_a = g[0], m_a = g[1], zp_b = g[2];
  const int32_t m_b = kKind == BinaryKind::kSub ? -g[3] : g[3];
  const int32_t n = g[4], zp_out = g[5], lo = g[6], hi = g[7];
  for_each_broadcast(bc, numel, [&](uint32_t i, uint32_t ia, uint32_t ib) {
    const int64_t acc =
        static_cast<int64_t>(pa[ia] - zp_a) * m_a + static_cast<int64_t>(pb[ib] - zp_b) * m_b;
    po[i] = clamp_to_i8(round_shift(acc, n) + zp_out, lo, hi);
  });
  return Error::kOk;
}

}  // namespace socsim::kernels
