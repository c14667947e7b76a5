// Elementwise operators of one input: the float32 loop and the int8 table lookup that every
// such operator's kernel is made of (sigmoid, tanh, hardswish, exp, sqrt, ...). The float
// function comes from the kernel file; the int8 arithmetic is lookup.h's.
#pragma once

#include "firmware/int8/lookup.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

/// y = fn(x) elementwise on float32 (operands x and out of one shape).
template <typename Fn>
inline Error unary_f32(const Tensor& in, Tensor& out, const Fn fn) {
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = fn(x[i]);
  return Error::kOk;
}

/// y = table[x + 128] on int8 (operands x, table [256] int8 and out).
inline Error lookup_kernel_i8(const Tensor& in, const Tensor& table, Tensor& out) {
  if (table.rank != 1 || table.sizes[0] != static_cast<int32_t>(kLookupTableSize) ||
      !in.same_shape(out)) {
    return Error::kShapeMismatch;
  }
  lookup_i8(table.data_as<int8_t>(), in.data_as<int8_t>(), out.data_as<int8_t>(), out.numel());
  return Error::kOk;
}

}  // namespace socsim::kernels
