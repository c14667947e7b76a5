// Zero insertion (socsim::zero_insert.out), the first half of a transposed convolution:
// the last two axes of x spread out by the strides (stride - 1 fill values between
// neighbours) inside a border of pad_* fill values. The fill is 0.0 for float32 and the zero
// point for int8, so that the convolution that follows adds nothing for it.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

using Op = ops::ZeroInsert;

/// Checks the arguments and that y's last two axes are x's spread out and padded.
Error zero_insert_shapes(const Tensor& x, const Tensor& y, const Op::Args& a) {
  if (x.rank < 2 || y.rank != x.rank) return Error::kShapeMismatch;
  if (a.stride_h() < 1 || a.stride_w() < 1 || a.pad_top() < 0 || a.pad_left() < 0 ||
      a.pad_bottom() < 0 || a.pad_right() < 0) {
    return Error::kBadOperatorArgs;
  }
  for (uint32_t d = 0; d + 2 < x.rank; ++d) {
    if (x.sizes[d] != y.sizes[d]) return Error::kShapeMismatch;
  }
  const int32_t h = x.sizes[x.rank - 2];
  const int32_t w = x.sizes[x.rank - 1];
  if (h < 1 || w < 1) return Error::kShapeMismatch;
  const int64_t ho = int64_t{h - 1} * a.stride_h() + 1 + a.pad_top() + a.pad_bottom();
  const int64_t wo = int64_t{w - 1} * a.stride_w() + 1 + a.pad_left() + a.pad_right();
  if (ho != y.sizes[y.rank - 2] || wo != y.sizes[y.rank - 1]) return Error::kShapeMismatch;
  return Error::kOk;
}

template <typename T>
void spread(const Tensor& x, const Op::Args& a, T fill, Tensor& y) {
  const int32_t h = x.sizes[x.rank - 2];
  const int32_t w = x.sizes[x.rank - 1];
  const int32_t ho = y.sizes[y.rank - 2];
  const int32_t wo = y.sizes[y.rank - 1];
  const uint32_t planes = x.numel() / static_cast<uint32_t>(h * w);
  T* py = y.data_as<T>();
  const uint32_t total = y.numel();
  for (uint32_t i = 0; i < total; ++i) py[i] = fill;
  const T* px = x.data_as<T>();
  for (uint32_t p = 0; p < planes; ++p) {
    T* plane = py + p * static_cast<uint32_t>(ho * wo);
    for (int32_t iy = 0; iy < h; ++iy) {
      T* row = plane + (a.pad_top() + iy * a.stride_h()) * wo + a.pad_left();
      for (int32_t ix = 0; ix < w; ++ix) row[ix * a.stride_w()] = *px++;
    }
  }
}

Error zero_insert_f32(const Tensor& x, Tensor& out, Op::Args a, MemoryAllocator*) {
  SOCSIM_RT_TRY(zero_insert_shapes(x, out, a));
  if (a.zero_point() != 0) return Error::kBadOperatorArgs;
  spread<float>(x, a, 0.0f, out);
  return Error::kOk;
}

Error zero_insert_i8(const Tensor& x, Tensor& out, Op::Args a, MemoryAllocator*) {
  SOCSIM_RT_TRY(zero_insert_shapes(x, out, a));
  if (!valid_zero_point(a.zero_point())) return Error::kBadOperatorArgs;
  spread<int8_t>(x, a, static_cast<int8_t>(a.zero_point()), out);
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::ZeroInsert, zero_insert_f32, kFloat32);
SOCSIM_KERNEL(ops::ZeroInsert, zero_insert_i8, kInt8);

}  // namespace socsim::kernels
