// Quantize float32 -> int8: q = clamp(rint(x / scale) + zp, -128, 127), rint rounding half
// to even (the default IEEE mode); NaN gives -128. quantized_decomposed::quantize_per_tensor.out.
// ExecuTorch's form (quantized_decomposed::quantize_per_tensor_reciprocal.out) multiplies by
// the float32 reciprocal of the scale instead and clamps to the program's quant_min/quant_max.
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error quantize(const Tensor& x, Tensor& y, ops::QuantizePerTensor::Args a, MemoryAllocator*) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const float scale = a.scale();
  const float zp = static_cast<float>(a.zero_point());
  if (!(scale > 0.0f)) return Error::kBadOperatorArgs;
  const float* px = x.data_as<float>();
  int8_t* py = y.data_as<int8_t>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) {
    float v = rintf(px[i] / scale) + zp;
    if (!(v >= -128.0f)) v = -128.0f;  // also NaN
    if (v > 127.0f) v = 127.0f;
    py[i] = static_cast<int8_t>(v);
  }
  return Error::kOk;
}

Error quantize_reciprocal(const Tensor& x, Tensor& y, ops::QuantizePerTensorReciprocal::Args a,
                          MemoryAllocator*) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const float scale = a.scale();
  const int32_t zp = a.zero_point(), qmin = a.quant_min(), qmax = a.quant_max();
  if (!(scale > 0.0f) || zp < -128 || zp > 127 || qmin < -128 || qmax > 127 || qmin > qmax) {
    return Error::kBadOperatorArgs;
  }
  const float inv_scale = 1.0f / scale;
  const float fzp = static_cast<float>(zp);
  const float lo = static_cast<float>(qmin), hi = static_cast<float>(qmax);
  const float* px = x.data_as<float>();
  int8_t* py = y.data_as<int8_t>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) {
    float v = fzp + rintf(px[i] * inv_scale);
    if (!(v >= lo)) v = lo;  // also NaN
    if (v > hi) v = hi;
    py[i] = static_cast<int8_t>(v);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::QuantizePerTensor, quantize, kFloat32);
SOCSIM_KERNEL(ops::QuantizePerTensorReciprocal, quantize_reciprocal, kFloat32);

}  // namespace socsim::kernels
