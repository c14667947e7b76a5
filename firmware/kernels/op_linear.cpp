// Fully connected layer y = x W^T + b over the last axis of x (W is [out, in]), with a
// fused output clamp. Leading axes of x are treated as a batch.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

struct LinearShape {
  uint32_t rows, in, out;
};

Error linear_shape(const KernelArgs& k, LinearShape* s) {
  const Tensor& x = *k.inputs[0];
  const Tensor& w = *k.inputs[1];
  const Tensor& b = *k.inputs[2];
  const Tensor& y = *k.outputs[0];
  if (x.rank < 1 || w.rank != 2 || b.rank != 1 || y.rank != x.rank) {
    return Error::kShapeMismatch;
  }
  for (uint32_t d = 0; d + 1 < x.rank; ++d) {
    if (x.sizes[d] != y.sizes[d]) return Error::kShapeMismatch;
  }
  s->in = static_cast<uint32_t>(x.sizes[x.rank - 1]);
  s->out = static_cast<uint32_t>(y.sizes[y.rank - 1]);
  if (static_cast<uint32_t>(w.sizes[0]) != s->out || static_cast<uint32_t>(w.sizes[1]) != s->in ||
      static_cast<uint32_t>(b.sizes[0]) != s->out || s->in == 0) {
    return Error::kShapeMismatch;
  }
  s->rows = x.numel() / s->in;
  return Error::kOk;
}

// inputs: x, w, bias (float32); args: act_min bits, act_max bits.
Error linear_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 3, 1, 2));
  for (uint32_t i = 0; i < 3; ++i) {
    if (!same_dtype(*k.inputs[i], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  }
  if (!same_dtype(*k.outputs[0], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  LinearShape s;
  SOCSIM_RT_TRY(linear_shape(k, &s));
  const float lo = arg_float(k.args[0]);
  const float hi = arg_float(k.args[1]);
  const float* x = k.inputs[0]->data_as<float>();
  const float* w = k.inputs[1]->data_as<float>();
  const float* b = k.inputs[2]->data_as<float>();
  float* y = k.outputs[0]->data_as<float>();
  for (uint32_t r = 0; r < s.rows; ++r) {
    for (uint32_t o = 0; o < s.out; ++o) {
      float acc = b[o];
      const float* xr = x + r * s.in;
      const float* wr = w + o * s.in;
      for (uint32_t i = 0; i < s.in; ++i) acc += xr[i] * wr[i];
      const float v = acc < lo ? lo : acc;
      y[r * s.out + o] = v > hi ? hi : v;
    }
  }
  return Error::kOk;
}

// inputs: x, w (int8), bias (int32), requant (int32 [out, 2]); args: zp_in, zp_out, act_min,
// act_max.
Error linear_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 4, 1, 4));
  if (!same_dtype(*k.inputs[1], ScalarType::kInt8) ||
      !same_dtype(*k.inputs[2], ScalarType::kInt32) ||
      !same_dtype(*k.inputs[3], ScalarType::kInt32) ||
      !same_dtype(*k.outputs[0], ScalarType::kInt8)) {
    return Error::kDtypeMismatch;
  }
  LinearShape s;
  SOCSIM_RT_TRY(linear_shape(k, &s));
  const Tensor& rq = *k.inputs[3];
  if (rq.rank != 2 || static_cast<uint32_t>(rq.sizes[0]) != s.out || rq.sizes[1] != 2) {
    return Error::kShapeMismatch;
  }
  const int32_t* mult = rq.data_as<int32_t>();
  for (uint32_t o = 0; o < s.out; ++o) {
    if (!valid_multiplier(mult[2 * o], mult[2 * o + 1])) return Error::kBadOperatorArgs;
  }
  const int32_t zp_in = k.args[0];
  const int32_t zp_out = k.args[1];
  const int32_t lo = k.args[2];
  const int32_t hi = k.args[3];
  if (!valid_zero_point(zp_in) || !valid_zero_point(zp_out) || !valid_bounds(lo, hi)) {
    return Error::kBadOperatorArgs;
  }
  const int8_t* x = k.inputs[0]->data_as<int8_t>();
  const int8_t* w = k.inputs[1]->data_as<int8_t>();
  const int32_t* b = k.inputs[2]->data_as<int32_t>();
  int8_t* y = k.outputs[0]->data_as<int8_t>();
  for (uint32_t o = 0; o < s.out; ++o) {
    if (!accumulator_fits(s.in, b[o])) return Error::kBadOperatorArgs;
  }
  for (uint32_t r = 0; r < s.rows; ++r) {
    for (uint32_t o = 0; o < s.out; ++o) {
      int32_t acc = b[o];
      const int8_t* xr = x + r * s.in;
      const int8_t* wr = w + o * s.in;
      for (uint32_t i = 0; i < s.in; ++i) acc += (static_cast<int32_t>(xr[i]) - zp_in) * wr[i];
      y[r * s.out + o] =
          clamp_to_i8(requantize(acc, mult[2 * o], mult[2 * o + 1]) + zp_out, lo, hi);
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("linear", kFloat32, linear_f32);
SOCSIM_REGISTER_KERNEL("linear", kInt8, linear_i8);

}  // namespace socsim::kernels
