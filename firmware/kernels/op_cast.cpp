// Element type conversion between the runtime's types (aten::_to_copy.out, ONNX Cast):
// float32, int32, int8 and uint8 in, any of them out (the output tensor's type). Float to
// integer truncates towards zero and saturates to the target's range, NaN giving 0; integer
// to integer saturates; integer to float32 is the nearest float. aten::_to_copy.int64_out
// converts int64 values, given as their little-endian bytes (uint8 with a trailing axis of 8:
// the runtime has no int64 element type), to the nearest float32.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

template <typename T>
constexpr bool kIsFloat = false;
template <>
constexpr bool kIsFloat<float> = true;

template <typename To>
struct Limits;
template <>
struct Limits<int32_t> {
  static constexpr int64_t kMin = -2147483648LL, kMax = 2147483647LL;
};
template <>
struct Limits<int8_t> {
  static constexpr int64_t kMin = -128, kMax = 127;
};
template <>
struct Limits<uint8_t> {
  static constexpr int64_t kMin = 0, kMax = 255;
};

template <typename To>
To from_float(float v) {
  if (v != v) return 0;  // NaN
  if (v <= static_cast<float>(Limits<To>::kMin)) return static_cast<To>(Limits<To>::kMin);
  if (v >= static_cast<float>(Limits<To>::kMax)) return static_cast<To>(Limits<To>::kMax);
  return static_cast<To>(v);  // truncation towards zero
}

template <typename To>
To from_integer(int64_t v) {
  return static_cast<To>(v < Limits<To>::kMin ? Limits<To>::kMin
                                              : (v > Limits<To>::kMax ? Limits<To>::kMax : v));
}

template <typename From, typename To>
void convert(const Tensor& x, Tensor& y) {
  const From* px = x.data_as<From>();
  To* py = y.data_as<To>();
  const uint32_t n = x.numel();
  for (uint32_t i = 0; i < n; ++i) {
    if constexpr (kIsFloat<To>) {
      py[i] = static_cast<To>(px[i]);
    } else if constexpr (kIsFloat<From>) {
      py[i] = from_float<To>(px[i]);
    } else {
      py[i] = from_integer<To>(px[i]);
    }
  }
}

template <typename From>
Error cast(const Tensor& x, Tensor& y) {
  if (!x.same_shape(y)) return Error::kShapeMismatch;
  switch (y.dtype) {
    case ScalarType::kFloat32:
      convert<From, float>(x, y);
      return Error::kOk;
    case ScalarType::kInt32:
      convert<From, int32_t>(x, y);
      return Error::kOk;
    case ScalarType::kInt8:
      convert<From, int8_t>(x, y);
      return Error::kOk;
    case ScalarType::kUInt8:
      convert<From, uint8_t>(x, y);
      return Error::kOk;
    default:
      return Error::kDtypeMismatch;
  }
}

Error cast_f32(const Tensor& x, Tensor& out, MemoryAllocator*) { return cast<float>(x, out); }
Error cast_i32(const Tensor& x, Tensor& out, MemoryAllocator*) { return cast<int32_t>(x, out); }
Error cast_i8(const Tensor& x, Tensor& out, MemoryAllocator*) { return cast<int8_t>(x, out); }
Error cast_u8(const Tensor& x, Tensor& out, MemoryAllocator*) { return cast<uint8_t>(x, out); }

Error int64_to_float(const Tensor& x, Tensor& out, MemoryAllocator*) {
  if (x.rank != out.rank + 1 || x.sizes[x.rank - 1] != 8) return Error::kShapeMismatch;
  for (uint32_t d = 0; d < out.rank; ++d) {
    if (x.sizes[d] != out.sizes[d]) return Error::kShapeMismatch;
  }
  const uint8_t* px = x.data_as<uint8_t>();
  float* po = out.data_as<float>();
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i, px += 8) {
    uint64_t bits = 0;
    for (uint32_t b = 8; b-- > 0;) bits = bits << 8 | px[b];
    po[i] = static_cast<float>(static_cast<int64_t>(bits));
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::ToCopy, cast_f32, kFloat32);
SOCSIM_KERNEL(ops::ToCopy, cast_i32, kInt32);
SOCSIM_KERNEL(ops::ToCopy, cast_i8, kInt8);
SOCSIM_KERNEL(ops::ToCopy, cast_u8, kUInt8);
SOCSIM_KERNEL(ops::Int64ToFloat, int64_to_float, kUInt8);

}  // namespace socsim::kernels
