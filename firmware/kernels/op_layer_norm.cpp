// Layer normalisation over the trailing axes from `axis` on: aten::native_layer_norm.out
// (float32) and quantized_decomposed::layer_norm.out (int8, integers only). Each row of
// N = prod(shape[axis:]) elements is normalised on its own, then scaled and shifted per
// element of the row.
//
// int8 (docs/runtime.md): d = x - zp_in, S = sum d, Q = sum d^2, V = N Q - S^2 + eps_q,
// r = isqrt(V 2^16); y_i = clamp(div_round((N d_i - S) w_i, r 2^8) + b_i + zp_out), and
// y_i = clamp(b_i + zp_out) where V = 0. N <= 4096 keeps every value inside int64.
//
// ExecuTorch's form (its portable kernel; the .pte operator native_layer_norm):
// aten::native_layer_norm_sumsq.out takes the variance as E[x^2] - E[x]^2 (both sums from 0
// in element order, float32) and divides by std = sqrt(var + eps);
// aten::native_layer_norm_stat.out gives the same row's mean or 1 / std (the reciprocal in
// double, rounded to float32), the operator's other two outputs.
#include <math.h>

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

constexpr uint32_t kMaxRow = 4096;

/// floor(sqrt(v)), bit by bit (exact for every uint64).
uint64_t isqrt(uint64_t v) {
  uint64_t root = 0;
  uint64_t bit = uint64_t{1} << 62;
  while (bit > v) bit >>= 2;
  while (bit != 0) {
    if (v >= root + bit) {
      v -= root + bit;
      root = (root >> 1) + bit;
    } else {
      root >>= 1;
    }
    bit >>= 2;
  }
  return root;
}

/// Rows and row length of x (axis in [0, rank)), with weight and bias of one row each.
Error rows_of(const Tensor& x, const Tensor& w, const Tensor& b, const Tensor& y, int32_t axis,
              uint32_t* rows, uint32_t* row) {
  if (!x.same_shape(y) || x.rank < 1) return Error::kShapeMismatch;
  if (axis < 0 || axis >= static_cast<int32_t>(x.rank)) return Error::kBadOperatorArgs;
  uint32_t n = 1;
  for (uint32_t d = static_cast<uint32_t>(axis); d < x.rank; ++d) {
    n *= static_cast<uint32_t>(x.sizes[d]);
  }
  if (n == 0 || w.numel() != n || b.numel() != n) return Error::kShapeMismatch;
  *row = n;
  *rows = x.numel() / n;
  return Error::kOk;
}

/// The float32 forms' shared frame: checks, then `row(xr, yr, n, eps, pw, pb)` for each row.
template <typename Args, typename Row>
Error float_rows(const Tensor& x, const Tensor& w, const Tensor& b, Tensor& y, Args args, Row row) {
  uint32_t rows, n;
  SOCSIM_RT_TRY(rows_of(x, w, b, y, args.axis(), &rows, &n));
  const float eps = args.eps();
  if (!(eps >= 0.0f)) return Error::kBadOperatorArgs;
  const float* px = x.data_as<float>();
  const float* pw = w.data_as<float>();
  const float* pb = b.data_as<float>();
  float* py = y.data_as<float>();
  for (uint32_t r = 0; r < rows; ++r) row(px + r * n, py + r * n, n, eps, pw, pb);
  return Error::kOk;
}

Error layer_norm_f32(const Tensor& x, const Tensor& w, const Tensor& b, Tensor& y,
                     ops::NativeLayerNorm::Args args, MemoryAllocator*) {
  return float_rows(
      x, w, b, y, args,
      [](const float* xr, float* yr, uint32_t n, float eps, const float* pw, const float* pb) {
        float sum = 0.0f;
        for (uint32_t i = 0; i < n; ++i) sum += xr[i];
        const float mean = sum / static_cast<float>(n);
        float squares = 0.0f;
        for (uint32_t i = 0; i < n; ++i) squares += (xr[i] - mean) * (xr[i] - mean);
        const float rstd = 1.0f / sqrtf(squares / static_cast<float>(n) + eps);
        for (uint32_t i = 0; i < n; ++i) yr[i] = (xr[i] - mean) * rstd * pw[i] + pb[i];
      });
}

/// A row's mean and, when `std_dev` is given, std = sqrt(E[x^2] - mean^2 + eps), as
/// ExecuTorch's portable kernel computes them.
void sumsq_stats(const float* xr, uint32_t n, float eps, float* mean, float* std_dev) {
  float sum = 0.0f;
  for (uint32_t i = 0; i < n; ++i) sum += xr[i];
  const float count = static_cast<float>(n);
  const float m = sum / count;
  *mean = m;
  if (std_dev == nullptr) return;
  float squares = 0.0f;
  for (uint32_t i = 0; i < n; ++i) squares += xr[i] * xr[i];
  *std_dev = sqrtf(squares / count - m * m + eps);
}

Error layer_norm_sumsq_f32(const Tensor& x, const Tensor& w, const Tensor& b, Tensor& y,
                           ops::LayerNormSumsq::Args args, MemoryAllocator*) {
  return float_rows(
      x, w, b, y, args,
      [](const float* xr, float* yr, uint32_t n, float eps, const float* pw, const float* pb) {
        float mean, std_dev;
        sumsq_stats(xr, n, eps, &mean, &std_dev);
        for (uint32_t i = 0; i < n; ++i) {
          yr[i] = (xr[i] - mean) / std_dev * pw[i] + pb[i];
        }
      });
}

/// Each row's mean (stat 0) or 1 / std (stat 1) of layer_norm_sumsq_f32.
Error layer_norm_stat_f32(const Tensor& x, Tensor& out, ops::LayerNormStat::Args args,
                          MemoryAllocator*) {
  const int32_t axis = args.axis(), stat = args.stat();
  if (axis < 0 || axis >= static_cast<int32_t>(x.rank) || (stat != 0 && stat != 1)) {
    return Error::kBadOperatorArgs;
  }
  uint32_t n = 1;
  for (uint32_t d = static_cast<uint32_t>(axis); d < x.rank; ++d) {
    n *= static_cast<uint32_t>(x.sizes[d]);
  }
  if (n == 0 || out.numel() * n != x.numel()) return Error::kShapeMismatch;
  const float eps = args.eps();
  if (!(eps >= 0.0f)) return Error::kBadOperatorArgs;
  const float* px = x.data_as<float>();
  float* po = out.data_as<float>();
  const uint32_t rows = out.numel();
  for (uint32_t r = 0; r < rows; ++r) {
    float mean, std_dev;
    sumsq_stats(px + r * n, n, eps, &mean, stat == 1 ? &std_dev : nullptr);
    po[r] = stat == 0 ? mean : static_cast<float>(1.0 / static_cast<double>(std_dev));
  }
  return Error::kOk;
}

Error layer_norm_i8(const Tensor& x, const Tensor& w, const Tensor& b, Tensor& y,
                    ops::QuantizedLayerNorm::Args args, MemoryAllocator*) {
  uint32_t rows, n;
  SOCSIM_RT_TRY(rows_of(x, w, b, y, args.axis(), &rows, &n));
  const int32_t zp_in = args.zp_in(), zp_out = args.zp_out(), eps_q = args.eps_q();
  if (!valid_zero_point(zp_in) || !valid_zero_point(zp_out) || eps_q < 0) {
    return Error::kBadOperatorArgs;
  }
  if (n > kMaxRow) return Error::kShapeMismatch;
  const int8_t* px = x.data_as<int8_t>();
  const int32_t* pw = w.data_as<int32_t>();
  const int32_t* pb = b.data_as<int32_t>();
  int8_t* py = y.data_as<int8_t>();
  const int64_t count = n;
  for (uint32_t r = 0; r < rows; ++r) {
    const int8_t* xr = px + r * n;
    int8_t* yr = py + r * n;
    int64_t s = 0, q = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t d = xr[i] - zp_in;
      s += d;
      q += d * d;
    }
    // V <= N Q + eps_q < 2^40 + 2^31, so V 2^16 fits.
    const int64_t v = count * q - s * s + eps_q;
    const int64_t den = static_cast<int64_t>(isqrt(static_cast<uint64_t>(v) << 16)) << 8;
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t centred = count * (xr[i] - zp_in) - s;
      const int64_t scaled = den > 0 ? div_round(centred * pw[i], den) : 0;
      yr[i] = saturate_to_i8(scaled + pb[i] + zp_out);
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::NativeLayerNorm, layer_norm_f32, kFloat32);
SOCSIM_KERNEL(ops::LayerNormSumsq, layer_norm_sumsq_f32, kFloat32);
SOCSIM_KERNEL(ops::LayerNormStat, layer_norm_stat_f32, kFloat32);
SOCSIM_KERNEL(ops::QuantizedLayerNorm, layer_norm_i8, kInt8);

}  // namespace socsim::kernels
