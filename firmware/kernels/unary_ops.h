// Elementwise operators of one input: the float32 loop and the int8 table lookup that every
// such operator's kernel is made of (sigmoid, tanh, hardswish, exp, sqrt, ...). The float
// function comes from the kernel file; the int8 arithmetic is lookup.h's.
#pragma once

#include "firmware/int8/lookup.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

/// y = fn(x) elementwise on float32 (operator Op: operands x and out of one shape).
template <typename Op, typename Fn>
inline Error unary_f32(const KernelArgs& k, const Fn fn) {
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& in = *k.inputs[Op::kX];
  Tensor& out = *k.outputs[Op::kOut];
  if (!same_dtype(in, ScalarType::kFloat32) || !same_dtype(out, ScalarType::kFloat32)) {
    return Error::kDtypeMismatch;
  }
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = fn(x[i]);
  return Error::kOk;
}

/// y = table[x + 128] on int8 (operator Op: operands x, table [256] int8 and out).
template <typename Op>
inline Error lookup_kernel_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& in = *k.inputs[Op::kX];
  const Tensor& table = *k.inputs[Op::kTable];
  Tensor& out = *k.outputs[Op::kOut];
  if (!same_dtype(in, ScalarType::kInt8) || !same_dtype(table, ScalarType::kInt8) ||
      !same_dtype(out, ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  if (table.rank != 1 || table.sizes[0] != static_cast<int32_t>(kLookupTableSize) ||
      !in.same_shape(out)) {
    return Error::kShapeMismatch;
  }
  lookup_i8(table.data_as<int8_t>(), in.data_as<int8_t>(), out.data_as<int8_t>(), out.numel());
  return Error::kOk;
}

}  // namespace socsim::kernels
