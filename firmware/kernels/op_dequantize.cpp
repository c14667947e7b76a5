// Dequantize int8 -> float32: x = float(q - zp) * scale.
// quantized_decomposed::dequantize_per_tensor.out.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error dequantize(const Tensor& x, Tensor& y, ops::DequantizePerTensor::Args a, MemoryAllocator*) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const float scale = a.scale();
  const int32_t zp = a.zero_point();
  if (!valid_zero_point(zp)) return Error::kBadOperatorArgs;
  const int8_t* px = x.data_as<int8_t>();
  float* py = y.data_as<float>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) py[i] = static_cast<float>(px[i] - zp) * scale;
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::DequantizePerTensor, dequantize, kInt8);

}  // namespace socsim::kernels
