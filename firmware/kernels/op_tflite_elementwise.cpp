// TFLite's int8 SUB and MUL with broadcasting (tflite::sub.out, tflite::mul.out;
// firmware/int8/tflite_rounding.h) and tflite::lookup.out, a TFLite operator of one input as
// the compiler's 256-entry table of its integer rule (lookup.h); tflite::quantize.out,
// TFLite's float32 -> int8 QUANTIZE (division in float32, rounding halves away from zero);
// tflite::lookup_bytes.out, a table between int8 and uint8 (QUANTIZE at uint8 model inputs and
// outputs).
#include <math.h>

#include "firmware/int8/tflite_rounding.h"
#include "firmware/kernels/elementwise.h"
#include "firmware/kernels/unary_ops.h"

namespace socsim::kernels {
namespace {

/// TFLite's int8 sub of one element pair: TfliteSum's rule with b's scaled value subtracted.
struct TfliteDifference {
  TfliteSum s;
  int8_t operator()(int8_t a, int8_t b) const {
    const int32_t sa = tflite_requantize((a - s.zp_a) * (1 << 20), s.m_a, 31 - s.e_a);
    const int32_t sb = tflite_requantize((b - s.zp_b) * (1 << 20), s.m_b, 31 - s.e_b);
    const int32_t diff = tflite_wrap32(int64_t{sa} - sb);
    return clamp_to_i8(int64_t{tflite_requantize(diff, s.m_out, 31 - s.e_out)} + s.zp_out, s.lo,
                       s.hi);
  }
};

/// TFLite's int8 mul of one element pair: the product less the zero points, scaled once by
/// (m, e) with the double rounding.
struct TfliteProduct {
  int32_t zp_a, zp_b, m, e, zp_out, lo, hi;
  bool valid() const {
    return m >= 0 && e >= -31 && e <= 30 && valid_zero_point(zp_a) && valid_zero_point(zp_b) &&
           valid_zero_point(zp_out) && valid_bounds(lo, hi);
  }
  int8_t operator()(int8_t a, int8_t b) const {
    const int32_t prod = (a - zp_a) * (b - zp_b);  // |prod| <= 255 * 255
    return clamp_to_i8(int64_t{tflite_requantize(prod, m, 31 - e)} + zp_out, lo, hi);
  }
};

Error tflite_sub_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::TfliteSub::Args args,
                    MemoryAllocator*) {
  const TfliteDifference diff{TfliteSum::of(args)};
  if (!diff.s.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8(a, b, out, diff);
}

Error tflite_mul_i8(const Tensor& a, const Tensor& b, Tensor& out, ops::TfliteMul::Args args,
                    MemoryAllocator*) {
  const TfliteProduct prod{args.zp_a(), args.zp_b(), args.m(), args.e(),
                           args.zp_out(), args.act_min(), args.act_max()};
  if (!prod.valid()) return Error::kBadOperatorArgs;
  return binary_quantized_i8(a, b, out, prod);
}

Error tflite_lookup_i8(const Tensor& x, const Tensor& table, Tensor& out, MemoryAllocator*) {
  return lookup_kernel_i8(x, table, out);
}

// tflite::lookup_bytes.out: out = table[x - min(T)], the output int8 or uint8 (the table holds
// its bytes): a QUANTIZE between a uint8 model input or output and int8.
// `flip` makes x - min(T) of the input's byte: 0x80 for int8, 0 for uint8.
Error tflite_lookup_bytes(const Tensor& x, const Tensor& table, Tensor& out, uint8_t flip) {
  if (table.rank != 1 || table.sizes[0] != 256 || !x.same_shape(out)) {
    return Error::kShapeMismatch;
  }
  if (out.dtype != ScalarType::kInt8 && out.dtype != ScalarType::kUInt8) {
    return Error::kDtypeMismatch;
  }
  const uint8_t* t = table.data_as<uint8_t>();
  const uint8_t* px = x.data_as<uint8_t>();  // the input's bytes
  uint8_t* py = out.data_as<uint8_t>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) py[i] = t[static_cast<uint8_t>(px[i] ^ flip)];
  return Error::kOk;
}

Error tflite_lookup_bytes_i8(const Tensor& x, const Tensor& table, Tensor& out,
                             MemoryAllocator*) {
  return tflite_lookup_bytes(x, table, out, 0x80);
}

Error tflite_lookup_bytes_u8(const Tensor& x, const Tensor& table, Tensor& out,
                             MemoryAllocator*) {
  return tflite_lookup_bytes(x, table, out, 0x00);
}

Error tflite_quantize_f32(const Tensor& x, Tensor& y, ops::TfliteQuantize::Args a,
                         MemoryAllocator*) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  const float scale = a.scale();
  const float zp = static_cast<float>(a.zero_point());
  if (!(scale > 0.0f) || !valid_zero_point(a.zero_point())) return Error::kBadOperatorArgs;
  const float* px = x.data_as<float>();
  int8_t* py = y.data_as<int8_t>();
  const uint32_t n = y.numel();
  for (uint32_t i = 0; i < n; ++i) {
    float v = roundf(px[i] / scale) + zp;  // roundf: halves away from zero, as TfLiteRound
    if (!(v >= -128.0f)) v = -128.0f;      // also NaN
    if (v > 127.0f) v = 127.0f;
    py[i] = static_cast<int8_t>(v);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::TfliteSub, tflite_sub_i8, kInt8);
SOCSIM_KERNEL(ops::TfliteMul, tflite_mul_i8, kInt8);
SOCSIM_KERNEL(ops::TfliteLookup, tflite_lookup_i8, kInt8);
SOCSIM_KERNEL(ops::TfliteQuantize, tflite_quantize_f32, kFloat32);
SOCSIM_KERNEL(ops::TfliteLookupBytes, tflite_lookup_bytes_i8, kInt8);
SOCSIM_KERNEL(ops::TfliteLookupBytes, tflite_lookup_bytes_u8, kUInt8);

}  // namespace socsim::kernels
