// TFLite's int8 bilinear resize on NHWC tensors: tflite::resize_bilinear.out. The compiler
// gives each output row and column its source position in 1/1024ths and the two source
// rows (columns) around it, as TFLite's reference kernel computes them (align_corners,
// half-pixel centres); the kernel weights the four neighbours with 10-bit fractions and divides
// the sum by 2^20 rounding halves away from zero, as that kernel does. No requantisation.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

constexpr int64_t kOne = 1 << 10;

/// The table of `count` rows (position, first, second) is consistent with a source axis of
/// `size` elements.
bool valid_axis_table(const Tensor& t, int32_t count, int32_t size) {
  if (t.rank != 2 || t.sizes[0] != count || t.sizes[1] != 3) return false;
  const int32_t* p = t.data_as<int32_t>();
  for (int32_t i = 0; i < count; ++i) {
    const int32_t first = p[3 * i + 1];
    const int32_t second = p[3 * i + 2];
    const int64_t fraction = int64_t{p[3 * i]} - kOne * first;
    if (first < 0 || second < 0 || first >= size || second >= size || fraction < -kOne ||
        fraction > 2 * kOne) {
      return false;
    }
  }
  return true;
}

Error tflite_resize_bilinear_i8(const Tensor& x, const Tensor& rows, const Tensor& columns,
                                Tensor& out, MemoryAllocator*) {
  if (x.rank != 4 || out.rank != 4 || out.sizes[0] != x.sizes[0] || out.sizes[3] != x.sizes[3]) {
    return Error::kShapeMismatch;
  }
  const int32_t oh = out.sizes[1];
  const int32_t ow = out.sizes[2];
  const int32_t h = x.sizes[1];
  const int32_t w = x.sizes[2];
  const int32_t c = x.sizes[3];
  if (!valid_axis_table(rows, oh, h) || !valid_axis_table(columns, ow, w)) {
    return Error::kBadOperatorArgs;
  }
  const int32_t* ry = rows.data_as<int32_t>();
  const int32_t* cx = columns.data_as<int32_t>();
  const int8_t* src = x.data_as<int8_t>();
  int8_t* dst = out.data_as<int8_t>();
  for (int32_t n = 0; n < x.sizes[0]; ++n) {
    const int8_t* plane = src + n * h * w * c;
    for (int32_t i = 0; i < oh; ++i) {
      const int32_t y0 = ry[3 * i + 1];
      const int32_t y1 = ry[3 * i + 2];
      const int64_t dy = ry[3 * i] - kOne * y0;
      for (int32_t j = 0; j < ow; ++j) {
        const int32_t x0 = cx[3 * j + 1];
        const int32_t x1 = cx[3 * j + 2];
        const int64_t dx = cx[3 * j] - kOne * x0;
        const int8_t* p00 = plane + (y0 * w + x0) * c;
        const int8_t* p10 = plane + (y1 * w + x0) * c;
        const int8_t* p01 = plane + (y0 * w + x1) * c;
        const int8_t* p11 = plane + (y1 * w + x1) * c;
        for (int32_t k = 0; k < c; ++k) {
          const int64_t v = p00[k] * (kOne - dy) * (kOne - dx) + p10[k] * dy * (kOne - dx) +
                            p01[k] * (kOne - dy) * dx + p11[k] * dy * dx;
          const int64_t r = v > 0 ? v + (1 << 19) : v - (1 << 19);
          const int64_t q = r >= 0 ? r >> 20 : -((-r) >> 20);
          *dst++ = static_cast<int8_t>(q < -128 ? -128 : (q > 127 ? 127 : q));
        }
      }
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::TfliteResizeBilinear, tflite_resize_bilinear_i8, kInt8);

}  // namespace socsim::kernels
