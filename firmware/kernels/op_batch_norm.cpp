// Inference batch normalisation, aten::_native_batch_norm_legit_no_training.out (float32):
// per channel c of axis 1 (x of rank 2 or more), invstd = 1 / sqrt(var[c] + eps) computed in
// double precision and rounded once to float32, then y = ((x - mean[c]) * invstd) *
// weight[c] + bias[c], each step rounded to float32: the arithmetic of ExecuTorch's portable
// kernel (a float32 reciprocal square root gives another invstd for some channels, which
// ResNet-50's 53 batch norms carried to its outputs: docs/executorch.md).
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error batch_norm_f32(const Tensor& x, const Tensor& weight, const Tensor& bias,
                     const Tensor& mean, const Tensor& var, Tensor& out,
                     ops::BatchNorm::Args a, MemoryAllocator*) {
  if (x.rank < 2 || !x.same_shape(out)) return Error::kShapeMismatch;
  const uint32_t channels = static_cast<uint32_t>(x.sizes[1]);
  if (weight.numel() != channels || bias.numel() != channels || mean.numel() != channels ||
      var.numel() != channels) {
    return Error::kShapeMismatch;
  }
  const float eps = a.eps();
  if (!(eps >= 0.0f)) return Error::kBadOperatorArgs;
  const uint32_t outer = static_cast<uint32_t>(x.sizes[0]);
  uint32_t inner = 1;
  for (uint32_t d = 2; d < x.rank; ++d) inner *= static_cast<uint32_t>(x.sizes[d]);
  const float* px = x.data_as<float>();
  float* py = out.data_as<float>();
  const float* w = weight.data_as<float>();
  const float* b = bias.data_as<float>();
  const float* m = mean.data_as<float>();
  const float* v = var.data_as<float>();
  for (uint32_t c = 0; c < channels; ++c) {
    const float invstd =
        static_cast<float>(1.0 / sqrt(static_cast<double>(v[c]) + static_cast<double>(eps)));
    for (uint32_t o = 0; o < outer; ++o) {
      const uint32_t base = (o * channels + c) * inner;
      for (uint32_t i = 0; i < inner; ++i) {
        float t = px[base + i] - m[c];
        t = t * invstd;
        t = t * w[c];
        py[base + i] = t + b[c];
      }
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::BatchNorm, batch_norm_f32, kFloat32);

}  // namespace socsim::kernels
