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

/// Inputs a and b and the output, all of `type`, broadcast into each other.
inline Error binary_operands(const KernelArgs& k, ScalarType type, Broadcast* bc) {
  // Every binary operator names its operands a, b and out (operator schema).
  const Tensor& a = *k.inputs[ops::Add::kA];
  const Tensor& b = *k.inputs[ops::Add::kB];
  const Tensor& out = *k.outputs[ops::Add::kOut];
  if (!same_dtype(a, type) || !same_dtype(b, type) || !same_dtype(out, type)) {
    return Error::kDtypeMismatch;
  }
  return bc->init(a, b, out);
}

/// aten::{add,sub,mul,div}.out on float32.
template <BinaryKind kKind>
inline Error binary_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::Add>(k));
  Broadcast bc;
  SOCSIM_RT_TRY(binary_operands(k, ScalarType::kFloat32, &bc));
  const float* pa = k.inputs[ops::Add::kA]->data_as<float>();
  const float* pb = k.inputs[ops::Add::kB]->data_as<float>();
  float* po = k.outputs[ops::Add::kOut]->data_as<float>();
  for_each_broadcast(
      bc, k.outputs[ops::Add::kOut]->numel(),
      [&](uint32_t i, uint32_t ia, uint32_t ib) { po[i] = binary_float<kKind>(pa[ia], pb[ib]); });
  return Error::kOk;
}

/// aten::{add,sub,mul}.out on int8: wrapping modulo 256.
template <BinaryKind kKind>
inline Error binary_wrap_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<ops::Add>(k));
  Broadcast bc;
  SOCSIM_RT_TRY(binary_operands(k, ScalarType::kInt8, &bc));
  const int8_t* pa = k.inputs[ops::Add::kA]->data_as<int8_t>();
  const int8_t* pb = k.inputs[ops::Add::kB]->data_as<int8_t>();
  int8_t* po = k.outputs[ops::Add::kOut]->data_as<int8_t>();
  for_each_broadcast(bc, k.outputs[ops::Add::kOut]->numel(),
                     [&](uint32_t i, uint32_t ia, uint32_t ib) {
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
template <typename Op, typename Element>
inline Error binary_quantized_i8(const KernelArgs& k, const Element element) {
  Broadcast bc;
  SOCSIM_RT_TRY(binary_operands(k, ScalarType::kInt8, &bc));
  const Tensor& a = *k.inputs[Op::kA];
  const Tensor& b = *k.inputs[Op::kB];
  Tensor& out = *k.outputs[Op::kOut];
  const int8_t* pa = a.data_as<int8_t>();
  const int8_t* pb = b.data_as<int8_t>();
  int8_t* po = out.data_as<int8_t>();
  for_each_broadcast(bc, out.numel(), [&](uint32_t i, uint32_t ia, uint32_t ib) {
    po[i] = element(pa[ia], pb[ib]);
  });
  return Error::kOk;
}

/// quantized_decomposed::{add,sub}.out.
template <typename Op, BinaryKind kKind>
inline Error quantized_sum_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const QuantizedSum sum = QuantizedSum::of(typename Op::Args(k.args));
  if (!sum.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8<Op>(k, kKind == BinaryKind::kSub ? sum.negated_b() : sum);
}

}  // namespace socsim::kernels
