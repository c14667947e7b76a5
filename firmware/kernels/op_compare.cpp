// The comparisons (aten::{eq,lt,gt,le,ge}.Tensor_out): a uint8 mask, 1 where the comparison
// holds, else 0 (ONNX's bool tensors at run time), with broadcasting; float32, int8 (the
// compiler brings quantised operands to one scale and zero point first), int32 or uint8
// operands.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

enum class Cmp { kEq, kLt, kGt, kLe, kGe };

template <Cmp kCmp, typename T>
bool holds(T a, T b) {
  if (kCmp == Cmp::kEq) return a == b;
  if (kCmp == Cmp::kLt) return a < b;
  if (kCmp == Cmp::kGt) return a > b;
  if (kCmp == Cmp::kLe) return a <= b;
  return a >= b;
}

template <Cmp kCmp, typename T>
Error compare_typed(const Tensor& a, const Tensor& b, Tensor& out) {
  Broadcast bc;
  SOCSIM_RT_TRY(bc.init(a, b, out));
  const T* pa = a.data_as<T>();
  const T* pb = b.data_as<T>();
  uint8_t* po = out.data_as<uint8_t>();
  for_each_broadcast(bc, out.numel(), [&](uint32_t i, uint32_t ia, uint32_t ib) {
    po[i] = holds<kCmp>(pa[ia], pb[ib]) ? 1 : 0;
  });
  return Error::kOk;
}

/// One function for the three element types: the wrapper checked that a and b have the
/// kernel's type (the schema's "T").
template <Cmp kCmp>
Error compare(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator*) {
  if (a.dtype != b.dtype) return Error::kDtypeMismatch;
  switch (a.dtype) {
    case ScalarType::kFloat32:
      return compare_typed<kCmp, float>(a, b, out);
    case ScalarType::kInt8:
      return compare_typed<kCmp, int8_t>(a, b, out);
    case ScalarType::kInt32:
      return compare_typed<kCmp, int32_t>(a, b, out);
    case ScalarType::kUInt8:
      return compare_typed<kCmp, uint8_t>(a, b, out);
    default:
      return Error::kDtypeMismatch;
  }
}

Error eq(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* m) {
  return compare<Cmp::kEq>(a, b, out, m);
}
Error lt(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* m) {
  return compare<Cmp::kLt>(a, b, out, m);
}
Error gt(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* m) {
  return compare<Cmp::kGt>(a, b, out, m);
}
Error le(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* m) {
  return compare<Cmp::kLe>(a, b, out, m);
}
Error ge(const Tensor& a, const Tensor& b, Tensor& out, MemoryAllocator* m) {
  return compare<Cmp::kGe>(a, b, out, m);
}

}  // namespace

SOCSIM_KERNEL(ops::Eq, eq, kFloat32, kInt8, kInt32, kUInt8);
SOCSIM_KERNEL(ops::Lt, lt, kFloat32, kInt8, kInt32, kUInt8);
SOCSIM_KERNEL(ops::Gt, gt, kFloat32, kInt8, kInt32, kUInt8);
SOCSIM_KERNEL(ops::Le, le, kFloat32, kInt8, kInt32, kUInt8);
SOCSIM_KERNEL(ops::Ge, ge, kFloat32, kInt8, kInt32, kUInt8);

}  // namespace socsim::kernels
