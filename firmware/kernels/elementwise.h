// Binary elementwise kernels with broadcasting (add, sub, mul, div): float32, int8 wrapping
// modulo 256 (the ATen operators on int8 tensors, the seed's add8 model), and quantised int8
// (quantized_decomposed::*, docs/runtime.md) with the per-element arithmetic of binary_ops.h.
#pragma once

#include "firmware/int8/binary_ops.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

enum class BinaryKind { kAdd, kSub, kMul, kDiv };

template <BinaryKind kKind>
inline float binary_float(float a, float b) {
  if (kKind == BinaryKind::kAdd) return a + b;
  if (kKind == BinaryKind::kSub) return a - b;
  if (kKind == BinaryKind::kDiv) return a / b;
  return a * b;
}

/// aten::{add,sub,mul,div}.out on float32 (the generated wrapper checked the element types).
template <BinaryKind kKind>
inline Error binary_f32(const Tensor& a, const Tensor& b, Tensor& out) {
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const float* pa = a.data_as<float>();
  const float* pb = b.data_as<float>();
  float* po = out.data_as<float>();
  for_each_broadcast(
      bc, out.numel(),
      [&](uint32_t i, uint32_t ia, uint32_t ib) { po[i] = binary_float<kKind>(pa[ia], pb[ib]); });
  return Error::kOk;
}

/// aten::{add,sub,mul}.out on int8: wrapping modulo 256.
template <BinaryKind kKind>
inline Error binary_wrap_i8(const Tensor& a, const Tensor& b, Tensor& out) {
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const int8_t* pa = a.data_as<int8_t>();
  const int8_t* pb = b.data_as<int8_t>();
  int8_t* po = out.data_as<int8_t>();
  for_each_broadcast(bc, out.numel(), [&](uint32_t i, uint32_t ia, uint32_t ib) {
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

/// A quantised binary operator: `element(a, b)` computes one output value (taken by value: a
/// local copy, which stays in registers).
template <typename Element>
inline Error binary_quantized_i8(const Tensor& a, const Tensor& b, Tensor& out,
                                 const Element element) {
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const int8_t* pa = a.data_as<int8_t>();
  const int8_t* pb = b.data_as<int8_t>();
  int8_t* po = out.data_as<int8_t>();
  for_each_broadcast(bc, out.numel(), [&](uint32_t i, uint32_t ia, uint32_t ib) {
    po[i] = element(pa[ia], pb[ib]);
  });
  return Error::kOk;
}

/// quantized_decomposed::{add,sub}.out.
template <BinaryKind kKind, typename Args>
inline Error quantized_sum_i8(const Tensor& a, const Tensor& b, Tensor& out, Args args) {
  const QuantizedSum sum = QuantizedSum::of(args);
  if (!sum.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8(a, b, out, kKind == BinaryKind::kSub ? sum.negated_b() : sum);
}

}  // namespace socsim::kernels
