// Where (aten::where.self_out): x where the uint8 condition is nonzero, else y, the three
// operands broadcast to the output's shape; float32, int8 (x and y at the output's scale, the
// compiler requantises them) or int32. Operands in the order x, condition, y: the kernel key
// is x's type.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

template <typename T>
Error where_typed(const Tensor& x, const Tensor& cond, const Tensor& y, Tensor& out) {
  const uint32_t rank = out.rank;
  uint32_t sx[runtime::kMaxRank] = {}, sc[runtime::kMaxRank] = {}, sy[runtime::kMaxRank] = {};
  SOCSIM_RT_TRY(strides_for(x, out, sx));
  SOCSIM_RT_TRY(strides_for(cond, out, sc));
  SOCSIM_RT_TRY(strides_for(y, out, sy));
  const T* px = x.data_as<T>();
  const uint8_t* pc = cond.data_as<uint8_t>();
  const T* py = y.data_as<T>();
  T* po = out.data_as<T>();
  uint32_t index[runtime::kMaxRank] = {};
  uint32_t ix = 0, ic = 0, iy = 0;
  const uint32_t n = out.numel();
  for (uint32_t i = 0; i < n; ++i) {
    po[i] = pc[ic] != 0 ? px[ix] : py[iy];
    for (int32_t d = static_cast<int32_t>(rank) - 1; d >= 0; --d) {
      ix += sx[d];
      ic += sc[d];
      iy += sy[d];
      if (++index[d] < static_cast<uint32_t>(out.sizes[d])) break;
      ix -= sx[d] * index[d];
      ic -= sc[d] * index[d];
      iy -= sy[d] * index[d];
      index[d] = 0;
    }
  }
  return Error::kOk;
}

Error where(const Tensor& x, const Tensor& condition, const Tensor& y, Tensor& out,
            MemoryAllocator*) {
  if (x.dtype != y.dtype || x.dtype != out.dtype) return Error::kDtypeMismatch;
  switch (x.dtype) {
    case ScalarType::kFloat32:
      return where_typed<float>(x, condition, y, out);
    case ScalarType::kInt8:
      return where_typed<int8_t>(x, condition, y, out);
    case ScalarType::kInt32:
      return where_typed<int32_t>(x, condition, y, out);
    default:
      return Error::kDtypeMismatch;
  }
}

}  // namespace

SOCSIM_KERNEL(ops::Where, where, kFloat32, kInt8, kInt32);

}  // namespace socsim::kernels
