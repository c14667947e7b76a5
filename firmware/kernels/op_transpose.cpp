// Transpose, aten::permute_copy.out: y.shape[i] = x.shape[perm[i]], perm one entry per axis.
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

Error transpose(const Tensor& x, Tensor& y, ops::PermuteCopy::Args args, MemoryAllocator*) {
  const int32_t* perm = args.perm();  // one per axis of x
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
  copy_walk_bytes(x.data, y.data, runtime::element_size(x.dtype), y.numel(), walk);
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::PermuteCopy, transpose, kFloat32, kInt8);

}  // namespace socsim::kernels
