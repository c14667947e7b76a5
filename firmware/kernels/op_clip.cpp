// Clip to [lo, hi]: aten::clamp.out with float32 bounds, quantized_decomposed::clamp.out with
// bounds quantised by the compiler.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error clip_f32(const KernelArgs& k) {
  using Op = ops::Clamp;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& in = *k.inputs[Op::kX];
  Tensor& out = *k.outputs[Op::kOut];
  if (!same_dtype(out, ScalarType::kFloat32)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const Op::Args a(k.args);
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

Error clip_i8(const KernelArgs& k) {
  using Op = ops::QuantizedClamp;
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& in = *k.inputs[Op::kX];
  Tensor& out = *k.outputs[Op::kOut];
  if (!same_dtype(out, ScalarType::kInt8)) return Error::kDtypeMismatch;
  if (!in.same_shape(out)) return Error::kShapeMismatch;
  const Op::Args a(k.args);
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

SOCSIM_REGISTER_KERNEL(ops::Clamp, kFloat32, clip_f32);
SOCSIM_REGISTER_KERNEL(ops::QuantizedClamp, kInt8, clip_i8);

}  // namespace socsim::kernels
