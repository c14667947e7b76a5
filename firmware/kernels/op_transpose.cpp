// Transpose, aten::permute_copy.out: y.shape[i] = x.shape[perm[i]], perm one entry per axis.
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

template <typename T>
void permute(const Tensor& x, Tensor& y, StridedWalk walk) {
  const T* px = x.data_as<T>();
  T* py = y.data_as<T>();
  const uint32_t numel = y.numel();
  for (uint32_t i = 0; i < numel; ++i) {
    py[i] = px[walk.offset];
    walk.next();
  }
}

Error transpose(const KernelArgs& k) {
  using Op = ops::PermuteCopy;
  SOCSIM_RT_TRY(check_counts_per_axis<Op>(k));  // perm: one per axis
  const Tensor& x = *k.inputs[Op::kX];
  Tensor& y = *k.outputs[Op::kOut];
  const int32_t* perm = Op::Args(k.args).perm();
  if (x.dtype != y.dtype) return Error::kDtypeMismatch;
  if (y.rank != x.rank) return Error::kShapeMismatch;
  int32_t in_stride[runtime::kMaxRank];
  row_major_strides(x.rank, x.sizes, in_stride);
  uint32_t seen = 0;
  StridedWalk walk;  // the output's elements in order, at their offsets in the input
  for (uint32_t d = 0; d < y.rank; ++d) {
    const int32_t p = perm[d];
    if (p < 0 || p >= static_cast<int32_t>(x.rank) || (seen & (1u << p)) != 0) {
      return Error::kBadOperatorArgs;
    }
    seen |= 1u << p;
    if (y.sizes[d] != x.sizes[p]) return Error::kShapeMismatch;
    walk.add_axis(y.sizes[d], in_stride[p]);
  }
  if (y.numel() == 0) return Error::kOk;
  walk.reset(0);
  if (runtime::element_size(x.dtype) == 1) {
    permute<int8_t>(x, y, walk);
  } else {
    permute<int32_t>(x, y, walk);
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_REGISTER_KERNEL(ops::PermuteCopy, kFloat32, transpose);
SOCSIM_REGISTER_KERNEL(ops::PermuteCopy, kInt8, transpose);

}  // namespace socsim::kernels
