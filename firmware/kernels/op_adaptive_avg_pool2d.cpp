// Adaptive average pooling to any output size, aten::_adaptive_avg_pool2d.out (float32; the
// form ExecuTorch's exporter writes for torch's AdaptiveAvgPool2d, e.g. AlexNet's and VGG's
// 7x7 before the classifier). The last two axes are pooled, every leading axis is a plane
// ([C, H, W] or [N, C, H, W]). Output row i of Ho averages the input rows from
// floor(i H / Ho) to ceil((i + 1) H / Ho) - 1, columns alike (windows may overlap); each
// window is summed in float32 from 0 in row-major order and divided by its element count,
// the arithmetic of ExecuTorch's portable kernel.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

/// First and one-past-last input index of output index `o` of `out` along an axis of `in`.
inline void window(int64_t o, int64_t out, int64_t in, int32_t* first, int32_t* end) {
  *first = static_cast<int32_t>(o * in / out);
  *end = static_cast<int32_t>(((o + 1) * in + out - 1) / out);
}

Error adaptive_avg_pool2d_f32(const Tensor& in, Tensor& out, MemoryAllocator*) {
  if ((in.rank != 3 && in.rank != 4) || out.rank != in.rank) return Error::kShapeMismatch;
  const uint32_t r = in.rank;
  uint32_t planes = 1;
  for (uint32_t d = 0; d + 2 < r; ++d) {
    if (in.sizes[d] != out.sizes[d]) return Error::kShapeMismatch;
    planes *= static_cast<uint32_t>(in.sizes[d]);
  }
  const int32_t h = in.sizes[r - 2], w = in.sizes[r - 1];
  const int32_t oh = out.sizes[r - 2], ow = out.sizes[r - 1];
  if (h < 1 || w < 1 || oh < 1 || ow < 1) return Error::kShapeMismatch;
  const float* x = in.data_as<float>();
  float* y = out.data_as<float>();
  for (uint32_t p = 0; p < planes; ++p) {
    const float* plane = x + static_cast<uint32_t>(h) * static_cast<uint32_t>(w) * p;
    for (int32_t i = 0; i < oh; ++i) {
      int32_t r0, r1;
      window(i, oh, h, &r0, &r1);
      for (int32_t j = 0; j < ow; ++j) {
        int32_t c0, c1;
        window(j, ow, w, &c0, &c1);
        float sum = 0.0f;
        for (int32_t row = r0; row < r1; ++row) {
          for (int32_t col = c0; col < c1; ++col) sum += plane[row * w + col];
        }
        *y++ = sum / static_cast<float>((r1 - r0) * (c1 - c0));
      }
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::AdaptiveAvgPool2dWindows, adaptive_avg_pool2d_f32, kFloat32);

}  // namespace socsim::kernels
