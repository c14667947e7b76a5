// Resizing the two spatial axes of NCHW tensors from tables the compiler computes (ONNX
// Resize): aten::upsample_nearest2d.out (float32, int8) copies x[n, c, row[i], col[j]];
// aten::upsample_bilinear2d.out (float32) and quantized_decomposed::upsample_bilinear2d.out
// (int8, weights in units of 2^-15) interpolate between the two neighbours of each output row
// and column. `index` holds the output rows' entries, then the output columns'.
#include "firmware/int8/resize_loops.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

constexpr int32_t kWeightOne = 1 << 15;

/// Shapes of an NCHW resize and the checks of its index table (`per` entries per output row
/// and column, each a source index in range).
struct Resize : ResizeGeometry {
  Error init(const Tensor& x, const Tensor& index, const Tensor& y, uint32_t per) {
    if (x.rank != 4 || y.rank != 4 || x.sizes[0] != y.sizes[0] || x.sizes[1] != y.sizes[1]) {
      return Error::kShapeMismatch;
    }
    planes = x.sizes[0] * x.sizes[1];
    h = x.sizes[2];
    w = x.sizes[3];
    ho = y.sizes[2];
    wo = y.sizes[3];
    if (h < 1 || w < 1 || ho < 1 || wo < 1) return Error::kShapeMismatch;
    if (index.numel() != static_cast<uint32_t>(ho + wo) * per) return Error::kShapeMismatch;
    const bool valid =
        valid_resize_index(index.data_as<int32_t>(), *this, static_cast<int32_t>(per));
    return valid ? Error::kOk : Error::kBadOperatorArgs;
  }
};

Error upsample_nearest(const Tensor& x, const Tensor& index_t, Tensor& y, MemoryAllocator*) {
  Resize r;
  SOCSIM_RT_TRY(r.init(x, index_t, y, 1));
  const int32_t* index = index_t.data_as<int32_t>();
  if (runtime::element_size(x.dtype) == 1) {
    resize_nearest(x.data_as<int8_t>(), index, r, y.data_as<int8_t>());
  } else {
    resize_nearest(x.data_as<int32_t>(), index, r, y.data_as<int32_t>());
  }
  return Error::kOk;
}

/// Bilinear interpolation: for every output element, blend(the four neighbours, wy, wx).
template <typename T, typename W, typename Blend>
void bilinear(const T* x, const int32_t* index, const W* weight, const Resize& r, T* y,
              Blend blend) {
  const int32_t* cols = index + 2 * r.ho;
  const W* wx = weight + r.ho;
  for (int32_t p = 0; p < r.planes; ++p) {
    const T* plane = x + p * r.h * r.w;
    for (int32_t i = 0; i < r.ho; ++i) {
      const T* top = plane + index[2 * i] * r.w;
      const T* bottom = plane + index[2 * i + 1] * r.w;
      for (int32_t j = 0; j < r.wo; ++j) {
        const int32_t c0 = cols[2 * j], c1 = cols[2 * j + 1];
        *y++ = blend(top[c0], top[c1], bottom[c0], bottom[c1], weight[i], wx[j]);
      }
    }
  }
}

Error bilinear_operands(const Tensor& x, const Tensor& index, const Tensor& weight,
                        const Tensor& y, Resize* r) {
  SOCSIM_RT_TRY(r->init(x, index, y, 2));
  if (weight.numel() != static_cast<uint32_t>(r->ho + r->wo)) return Error::kShapeMismatch;
  return Error::kOk;
}

Error upsample_bilinear_f32(const Tensor& x, const Tensor& index, const Tensor& weight, Tensor& y,
                            MemoryAllocator*) {
  Resize r;
  SOCSIM_RT_TRY(bilinear_operands(x, index, weight, y, &r));
  bilinear(x.data_as<float>(), index.data_as<int32_t>(), weight.data_as<float>(), r,
           y.data_as<float>(),
           [](float a, float b, float c, float d, float wy, float wx) {
             const float top = (1.0f - wx) * a + wx * b;
             const float bottom = (1.0f - wx) * c + wx * d;
             return (1.0f - wy) * top + wy * bottom;
           });
  return Error::kOk;
}

Error upsample_bilinear_i8(const Tensor& x, const Tensor& index, const Tensor& weight, Tensor& y,
                           MemoryAllocator*) {
  Resize r;
  SOCSIM_RT_TRY(bilinear_operands(x, index, weight, y, &r));
  const int32_t* pw = weight.data_as<int32_t>();
  for (uint32_t i = 0; i < weight.numel(); ++i) {
    if (pw[i] < 0 || pw[i] > kWeightOne) return Error::kBadOperatorArgs;
  }
  bilinear(x.data_as<int8_t>(), index.data_as<int32_t>(), pw, r, y.data_as<int8_t>(),
           [](int8_t a, int8_t b, int8_t c, int8_t d, int32_t wy, int32_t wx) {
             const int64_t top = int64_t{a} * (kWeightOne - wx) + int64_t{b} * wx;
             const int64_t bottom = int64_t{c} * (kWeightOne - wx) + int64_t{d} * wx;
             const int64_t acc = top * (kWeightOne - wy) + bottom * wy;
             return static_cast<int8_t>(round_shift(acc, 30));
           });
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::UpsampleNearest2d, upsample_nearest, kFloat32, kInt8);
SOCSIM_KERNEL(ops::UpsampleBilinear2d, upsample_bilinear_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedUpsampleBilinear2d, upsample_bilinear_i8, kInt8);

}  // namespace socsim::kernels
