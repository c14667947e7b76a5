// Global average pooling: NCHW -> NC11, the mean of each H x W plane.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error plane_shape(const Tensor& x, const Tensor& y, int32_t* planes, int32_t* area) {
  if (!is_nchw_pair(x, y) || x.sizes[1] != y.sizes[1] || y.sizes[2] != 1 || y.sizes[3] != 1) {
    return Error::kShapeMismatch;
  }
  *planes = x.sizes[0] * x.sizes[1];
  *area = x.sizes[2] * x.sizes[3];
  return *area > 0 ? Error::kOk : Error::kShapeMismatch;
}

Error global_avg_pool2d_f32(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 0));
  if (!same_dtype(*k.outputs[0], ScalarType::kFloat32)) return Error::kDtypeMismatch;
  int32_t planes, area;
  SOCSIM_RT_TRY(plane_shape(*k.inputs[0], *k.outputs[0], &planes, &area));
  const float* x = k.inputs[0]->data_as<float>();
  float* y = k.outputs[0]->data_as<float>();
  for (int32_t p = 0; p < planes; ++p) {
    float sum = 0.0f;
    for (int32_t i = 0; i < area; ++i) sum += x[p * area + i];
    y[p] = sum / static_cast<float>(area);
  }
  return Error::kOk;
}

// args: zp_in, zp_out, m, n (as avg_pool2d, with count = H * W).
Error global_avg_pool2d_i8(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts(k, 1, 1, 4));
  if (!same_dtype(*k.outputs[0], ScalarType::kInt8)) return Error::kDtypeMismatch;
  int32_t planes, area;
  SOCSIM_RT_TRY(plane_shape(*k.inputs[0], *k.outputs[0], &planes, &area));
  const int32_t zp_in = k.args[0];
  const int32_t zp_out = k.args[1];
  const int32_t m = k.args[2];
  const int32_t n = k.args[3];
  if (m < 0 || n < 0 || n > 30 || !valid_zero_point(zp_in) || !valid_zero_point(zp_out)) {
    return Error::kBadOperatorArgs;
  }
  if (area > kMaxPoolArea) return Error::kShapeMismatch;
  const int8_t* x = k.inputs[0]->data_as<int8_t>();
  int8_t* y = k.outputs[0]->data_as<int8_t>();
  for (int32_t p = 0; p < planes; ++p) {
    int32_t sum = 0;
    for (int32_t i = 0; i < area; ++i) sum += x[p * area + i] - zp_in;
    const int64_t v = div_round(static_cast<int64_t>(sum) * m, int64_t{area} << n);
    y[p] = saturate_to_i8(v + zp_out);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL("global_avg_pool2d", kFloat32, global_avg_pool2d_f32);
SOCSIM_REGISTER_KERNEL("global_avg_pool2d", kInt8, global_avg_pool2d_i8);

}  // namespace socsim::kernels
