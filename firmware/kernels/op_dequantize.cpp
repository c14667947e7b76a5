// Dequantize int8 -> float32: x = float(q - zp) * scale.
// quantized_decomposed::dequantize_per_tensor.out, and per channel
// (quantized_decomposed::dequantize_per_channel.out): scale and zp of the element's index
// along `axis`.
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

Error dequantize_per_channel(const Tensor& x, const Tensor& scales, const Tensor& zero_points,
                             Tensor& y, ops::DequantizePerChannel::Args a, MemoryAllocator*) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const int32_t axis = a.axis();
  if (axis < 0 || static_cast<uint32_t>(axis) >= x.rank) return Error::kBadOperatorArgs;
  const uint32_t channels = static_cast<uint32_t>(x.sizes[axis]);
  if (scales.numel() != channels || zero_points.numel() != channels) {
    return Error::kShapeMismatch;
  }
  uint32_t outer = 1, inner = 1;
  for (int32_t d = 0; d < axis; ++d) outer *= static_cast<uint32_t>(x.sizes[d]);
  for (uint32_t d = static_cast<uint32_t>(axis) + 1; d < x.rank; ++d) {
    inner *= static_cast<uint32_t>(x.sizes[d]);
  }
  const float* s = scales.data_as<float>();
  const int32_t* zp = zero_points.data_as<int32_t>();
  for (uint32_t c = 0; c < channels; ++c) {
    if (!valid_zero_point(zp[c])) return Error::kBadOperatorArgs;
  }
  const int8_t* px = x.data_as<int8_t>();
  float* py = y.data_as<float>();
  for (uint32_t o = 0; o < outer; ++o) {
    for (uint32_t c = 0; c < channels; ++c) {
      const uint32_t base = (o * channels + c) * inner;
      for (uint32_t i = 0; i < inner; ++i) {
        py[base + i] = static_cast<float>(px[base + i] - zp[c]) * s[c];
      }
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::DequantizePerTensor, dequantize, kInt8);
SOCSIM_KERNEL(ops::DequantizePerChannel, dequantize_per_channel, kInt8);

}  // namespace socsim::kernels
