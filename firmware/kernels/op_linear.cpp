// Fully connected layer y = x W^T + b over the last axis of x (W is [out, in]), with a
// fused output clamp; leading axes of x are a batch: aten::linear.out (float32) and
// quantized_decomposed::linear.out (int8).
#include "firmware/int8/conv_loops.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

struct LinearShape {
  uint32_t rows, in, out;
};

Error linear_shape(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& y,
                   LinearShape* s) {
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

Error linear_f32(const Tensor& x_t, const Tensor& w_t, const Tensor& b_t, Tensor& y_t,
                 ops::Linear::Args a, MemoryAllocator*) {
  LinearShape s;
  SOCSIM_RT_TRY(linear_shape(x_t, w_t, b_t, y_t, &s));
  const float lo = a.act_min();
  const float hi = a.act_max();
  const float* x = x_t.data_as<float>();
  const float* w = w_t.data_as<float>();
  const float* b = b_t.data_as<float>();
  float* y = y_t.data_as<float>();
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

Error linear_i8(const Tensor& x, const Tensor& weight, const Tensor& bias_t, const Tensor& rq,
                Tensor& out, ops::QuantizedLinear::Args a, MemoryAllocator*) {
  LinearShape s;
  SOCSIM_RT_TRY(linear_shape(x, weight, bias_t, out, &s));
  if (rq.rank != 2 || static_cast<uint32_t>(rq.sizes[0]) != s.out || rq.sizes[1] != 2) {
    return Error::kShapeMismatch;
  }
  const int32_t* mult = rq.data_as<int32_t>();
  if (!valid_requant_table(mult, static_cast<int32_t>(s.out))) return Error::kBadOperatorArgs;
  const int32_t zp_in = a.zp_in();
  const int32_t zp_out = a.zp_out();
  const int32_t lo = a.act_min();
  const int32_t hi = a.act_max();
  if (!valid_zero_point(zp_in) || !valid_zero_point(zp_out) || !valid_bounds(lo, hi)) {
    return Error::kBadOperatorArgs;
  }
  const int32_t* bias = bias_t.data_as<int32_t>();
  if (!accumulators_fit(s.in, bias, static_cast<int32_t>(s.out))) return Error::kBadOperatorArgs;
  fully_connected_i8(s.rows, s.in, s.out, x.data_as<int8_t>(), weight.data_as<int8_t>(), bias,
                     mult, zp_in, zp_out, lo, hi, out.data_as<int8_t>());
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::Linear, linear_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedLinear, linear_i8, kInt8);

}  // namespace socsim::kernels
