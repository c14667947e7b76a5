// Reductions over a set of axes: aten::mean.out, aten::sum.IntList_out and aten::amax.out in
// float32 (amax also on int8: it only selects values), and the int8 fixed-point forms
// quantized_decomposed::mean.out / sum.out (docs/runtime.md). The argument `reduce` has one
// entry per input axis, 1 where the axis is reduced; the output keeps the reduced axes as 1s
// or drops them (keepdim), which its shape tells.
#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

/// The walks of a reduction: `outer` over the output's elements (the kept axes), `inner` over
/// the elements each output element reduces, both as offsets into the input.
struct Reduction {
  StridedWalk outer;
  StridedWalk inner;
  uint32_t outputs = 1;
  uint32_t count = 1;  ///< elements per output

  Error init(const Tensor& x, const Tensor& y, const int32_t* reduce) {
    int32_t stride[runtime::kMaxRank];
    row_major_strides(x.rank, x.sizes, stride);
    uint32_t kept = 0;
    for (uint32_t d = 0; d < x.rank; ++d) {
      if (reduce[d] != 0 && reduce[d] != 1) return Error::kBadOperatorArgs;
      if (reduce[d] == 0) ++kept;
    }
    const bool keepdim = y.rank == x.rank;
    if (!keepdim && y.rank != kept) return Error::kShapeMismatch;
    uint32_t out_axis = 0;
    for (uint32_t d = 0; d < x.rank; ++d) {
      if (x.sizes[d] < 1) return Error::kShapeMismatch;
      if (reduce[d] == 1) {
        if (keepdim && y.sizes[out_axis++] != 1) return Error::kShapeMismatch;
        inner.add_axis(x.sizes[d], stride[d]);
        count *= static_cast<uint32_t>(x.sizes[d]);
      } else {
        if (y.sizes[out_axis++] != x.sizes[d]) return Error::kShapeMismatch;
        outer.add_axis(x.sizes[d], stride[d]);
        outputs *= static_cast<uint32_t>(x.sizes[d]);
      }
    }
    outer.reset(0);
    return Error::kOk;
  }

  /// Calls out(o, reduced) for every output element o, reduced = fold(acc, x) over its inputs
  /// from acc = first(x0).
  template <typename T, typename Acc, typename First, typename Fold, typename Out>
  void run(const T* x, First first, Fold fold, Out out) {
    for (uint32_t o = 0; o < outputs; ++o) {
      inner.reset(outer.offset);
      Acc acc = first(x[inner.offset]);
      for (uint32_t i = 1; i < count; ++i) {
        inner.next();
        acc = fold(acc, x[inner.offset]);
      }
      out(o, acc);
      outer.next();
    }
  }
};

Error mean_f32(const Tensor& x, Tensor& out, ops::Mean::Args args, MemoryAllocator*) {
  Reduction r;
  SOCSIM_RT_TRY(r.init(x, out, args.reduce()));  // one entry per axis of x
  float* y = out.data_as<float>();
  const float count = static_cast<float>(r.count);
  r.run<float, float>(
      x.data_as<float>(), [](float v) { return v; },
      [](float acc, float v) { return acc + v; }, [&](uint32_t o, float s) { y[o] = s / count; });
  return Error::kOk;
}

Error sum_f32(const Tensor& x, Tensor& out, ops::Sum::Args args, MemoryAllocator*) {
  Reduction r;
  SOCSIM_RT_TRY(r.init(x, out, args.reduce()));
  float* y = out.data_as<float>();
  r.run<float, float>(
      x.data_as<float>(), [](float v) { return v; },
      [](float acc, float v) { return acc + v; }, [&](uint32_t o, float s) { y[o] = s; });
  return Error::kOk;
}

template <typename T>
Error amax(const Tensor& x, Tensor& out, ops::Amax::Args args) {
  Reduction r;
  SOCSIM_RT_TRY(r.init(x, out, args.reduce()));
  T* y = out.data_as<T>();
  r.run<T, T>(
      x.data_as<T>(), [](T v) { return v; }, [](T acc, T v) { return v > acc ? v : acc; },
      [&](uint32_t o, T m) { y[o] = m; });
  return Error::kOk;
}

Error amax_f32(const Tensor& x, Tensor& out, ops::Amax::Args args, MemoryAllocator*) {
  return amax<float>(x, out, args);
}

Error amax_i8(const Tensor& x, Tensor& out, ops::Amax::Args args, MemoryAllocator*) {
  return amax<int8_t>(x, out, args);
}

/// Sums of (x - zp_in) of the int8 reductions (|sum| < 255 x 2^23 fits int32).
template <typename Args, typename Out>
Error quantized_sum_of(const Tensor& x, const Tensor& y, const Args& a, Reduction* r, Out out) {
  SOCSIM_RT_TRY(r->init(x, y, a.reduce()));
  if (!valid_zero_point(a.zp_in()) || !valid_zero_point(a.zp_out())) {
    return Error::kBadOperatorArgs;
  }
  if (r->count > kMaxPoolArea) return Error::kShapeMismatch;
  const int32_t zp = a.zp_in();
  r->run<int8_t, int32_t>(
      x.data_as<int8_t>(), [zp](int8_t v) { return int32_t{v} - zp; },
      [zp](int32_t acc, int8_t v) { return acc + (int32_t{v} - zp); }, out);
  return Error::kOk;
}

Error mean_i8(const Tensor& x, Tensor& out, ops::QuantizedMean::Args a, MemoryAllocator*) {
  if (!valid_pool_multiplier(a.m(), a.n())) return Error::kBadOperatorArgs;
  Reduction r;
  int8_t* y = out.data_as<int8_t>();
  const int64_t m = a.m();
  const int32_t zp_out = a.zp_out();
  const int32_t n = a.n();
  return quantized_sum_of(x, out, a, &r, [&](uint32_t o, int32_t sum) {
    y[o] = saturate_to_i8(div_round(sum * m, int64_t{r.count} << n) + zp_out);
  });
}

Error sum_i8(const Tensor& x, Tensor& out, ops::QuantizedSum::Args a, MemoryAllocator*) {
  if (!valid_multiplier(a.m(), a.n())) return Error::kBadOperatorArgs;
  Reduction r;
  int8_t* y = out.data_as<int8_t>();
  const int32_t m = a.m();
  const int32_t n = a.n();
  const int32_t zp_out = a.zp_out();
  return quantized_sum_of(x, out, a, &r, [&](uint32_t o, int32_t sum) {
    y[o] = saturate_to_i8(requantize(sum, m, n) + zp_out);
  });
}

/// TFLite's int8 mean (tflite::mean.out): the sum of (x - zp_in) scaled once by TFLite's
/// (m, e) with its double rounding (tflite_rounding.h), plus zp_out.
Error tflite_mean_i8(const Tensor& x, Tensor& out, ops::TfliteMean::Args a, MemoryAllocator*) {
  if (!TfliteSum::valid_scale(a.m(), a.e())) return Error::kBadOperatorArgs;
  Reduction r;
  int8_t* y = out.data_as<int8_t>();
  const int32_t m = a.m();
  const int32_t n = 31 - a.e();
  const int32_t zp_out = a.zp_out();
  return quantized_sum_of(x, out, a, &r, [&](uint32_t o, int32_t sum) {
    y[o] = clamp_to_i8(int64_t{tflite_requantize(sum, m, n)} + zp_out, -128, 127);
  });
}

}  // namespace

SOCSIM_KERNEL(ops::Mean, mean_f32, kFloat32);
SOCSIM_KERNEL(ops::Sum, sum_f32, kFloat32);
SOCSIM_KERNEL(ops::Amax, amax_f32, kFloat32);
SOCSIM_KERNEL(ops::Amax, amax_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedMean, mean_i8, kInt8);
SOCSIM_KERNEL(ops::QuantizedSum, sum_i8, kInt8);
SOCSIM_KERNEL(ops::TfliteMean, tflite_mean_i8, kInt8);

}  // namespace socsim::kernels
