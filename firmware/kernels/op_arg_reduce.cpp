// ArgMax and ArgMin along one axis (aten::argmax.out, aten::argmin.out): int32 indices, the
// first of equal elements; float32 or int8 input (int8: a quantised input orders as its real
// values). The output has the input's shape without the axis, or with it as 1 (keepdims):
// the kernel checks its element count.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

template <typename Op, typename T, bool kMax>
Error arg_reduce(const KernelArgs& k) {
  SOCSIM_RT_TRY(check_counts<Op>(k));
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  if (!same_dtype(y, ScalarType::kInt32)) return Error::kDtypeMismatch;
  const int32_t dim = typename Op::Args(k.args).dim();
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

Error argmax_f32(const KernelArgs& k) { return arg_reduce<ops::Argmax, float, true>(k); }
Error argmax_i8(const KernelArgs& k) { return arg_reduce<ops::Argmax, int8_t, true>(k); }
Error argmin_f32(const KernelArgs& k) { return arg_reduce<ops::Argmin, float, false>(k); }
Error argmin_i8(const KernelArgs& k) { return arg_reduce<ops::Argmin, int8_t, false>(k); }

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::Argmax, kFloat32, argmax_f32);
SOCSIM_REGISTER_KERNEL(ops::Argmax, kInt8, argmax_i8);
SOCSIM_REGISTER_KERNEL(ops::Argmin, kFloat32, argmin_f32);
SOCSIM_REGISTER_KERNEL(ops::Argmin, kInt8, argmin_i8);

}  // namespace socsim::kernels
