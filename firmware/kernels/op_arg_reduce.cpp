// ArgMax and ArgMin along one axis (aten::argmax.out, aten::argmin.out): int32 indices, the
// first of equal elements; float32 or int8 input (int8: a quantised input orders as its real
// values). The output has the input's shape without the axis, or with it as 1 (keepdims):
// the kernel checks its element count.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

template <typename T, bool kMax>
Error arg_reduce(const Tensor& x, Tensor& y, int32_t dim) {
  if (dim < 0 || dim >= static_cast<int32_t>(x.rank)) return Error::kBadOperatorArgs;
  const uint32_t axis = static_cast<uint32_t>(dim);
  const uint32_t n = static_cast<uint32_t>(x.sizes[axis]);
  uint32_t outer = 1, inner = 1;
  for (uint32_t d = 0; d < axis; ++d) outer *= static_cast<uint32_t>(x.sizes[d]);
  for (uint32_t d = axis + 1; d < x.rank; ++d) inner *= static_cast<uint32_t>(x.sizes[d]);
  if (n < 1 || y.numel() != outer * inner) return Error::kShapeMismatch;
  const T* px = x.data_as<T>();
  int32_t* py = y.data_as<int32_t>();
  for (uint32_t o = 0; o < outer; ++o) {
    for (uint32_t j = 0; j < inner; ++j) {
      const T* line = px + o * n * inner + j;
      uint32_t best = 0;
      for (uint32_t i = 1; i < n; ++i) {
        const bool better = kMax ? line[i * inner] > line[best * inner]
                                 : line[i * inner] < line[best * inner];
        if (better) best = i;
      }
      py[o * inner + j] = static_cast<int32_t>(best);
    }
  }
  return Error::kOk;
}

Error argmax_f32(const Tensor& x, Tensor& out, ops::Argmax::Args args, MemoryAllocator*) {
  return arg_reduce<float, true>(x, out, args.dim());
}
Error argmax_i8(const Tensor& x, Tensor& out, ops::Argmax::Args args, MemoryAllocator*) {
  return arg_reduce<int8_t, true>(x, out, args.dim());
}
Error argmin_f32(const Tensor& x, Tensor& out, ops::Argmin::Args args, MemoryAllocator*) {
  return arg_reduce<float, false>(x, out, args.dim());
}
Error argmin_i8(const Tensor& x, Tensor& out, ops::Argmin::Args args, MemoryAllocator*) {
  return arg_reduce<int8_t, false>(x, out, args.dim());
}

}  // namespace

SOCSIM_KERNEL(ops::Argmax, argmax_f32, kFloat32);
SOCSIM_KERNEL(ops::Argmax, argmax_i8, kInt8);
SOCSIM_KERNEL(ops::Argmin, argmin_f32, kFloat32);
SOCSIM_KERNEL(ops::Argmin, argmin_i8, kInt8);

}  // namespace socsim::kernels
