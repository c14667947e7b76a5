// Clip to [lo, hi]: float32 bounds are float bit patterns, int8 bounds are quantised values.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

// args: [lo bits, hi bits]
Error clip_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 2));
  const Tensor& in = *k.inputs[0];
  Tensor& out = *k.outputs[0];
  if (!same_dtype(out, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const float lo = arg_float(k.args[0]);
  const float hi = arg_float(k.args[1]);
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) {
    const float v = x[i] < lo ? lo : x[i];
    y[i] = v > hi ? hi : v;
  }
  return Error::kOk;
}

// args: [lo, hi]
Error clip_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 2));
  const Tensor& in = *k.inputs[0];
  Tensor& out = *k.outputs[0];
  if (!same_dtype(out, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const int32_t lo = k.args[0];
  const int32_t hi = k.args[1];
  if (!valid_bounds(lo, hi)) return Error::kBadOperatorArgs;
  const int8_t* x = in.data_as<int8_t>();
  int8_t* y = out.data_as<int8_t>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) y[i] = static_cast<int8_t>(clamp_i32(x[i], lo, hi));
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("clip", kFloat32, clip_f32);
SOCSIM_REGISTER_KERNEL("clip", kInt8, clip_i8);

}  // namespace socsim::kernels
