// Quantize float32 -> int8: q = clamp(rint(x / scale) + zp, -128, 127), rint rounding half
// to even (the default IEEE mode); NaN gives -128. quantized_decomposed::quantize_per_tensor.out.
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

}  // namespace

SOCSIM_KERNEL(ops::QuantizePerTensor, quantize, kFloat32);

}  // namespace socsim::kernels
