// Clip to [lo, hi]: aten::clamp.out with float32 bounds, quantized_decomposed::clamp.out with
// bounds quantised by the compiler.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error clip_f32(const Tensor& in, Tensor& out, ops::Clamp::Args a, MemoryAllocator*) {
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float lo = a.lo();
  const float hi = a.hi();
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) {
    const float v = x[i] < lo ? lo : x[i];
    y[i] = v > hi ? hi : v;
  }
  return Error::kOk;
}

Error clip_i8(const Tensor& in, Tensor& out, ops::QuantizedClamp::Args a, MemoryAllocator*) {
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const int32_t lo = a.lo();
  const int32_t hi = a.hi();
  if (!valid_bounds(lo, hi)) return Error::kBadOperatorArgs;
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = static_cast<int8_t>(clamp_i32(x[i], lo, hi));
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::Clamp, clip_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedClamp, clip_i8, kInt8);

}  // namespace socsim::kernels
