// Broadcast copy, aten::expand_copy.out: x repeated to the output's shape by numpy's rules
// (axes aligned at the end; an axis of 1, or a missing leading one, repeats). Any element
// type (bytes move as they are).
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

Error expand(const Tensor& x, Tensor& y, MemoryAllocator*) {
  const uint32_t n = y.numel();
  if (n == 0) return Error::kOk;
  uint32_t strides[runtime::kMaxRank] = {};
  SOCSIM_RT_TRY(strides_for(x, y, strides));
  StridedWalk walk;
  for (uint32_t d = 0; d < y.rank; ++d) {
    walk.add_axis(y.sizes[d], static_cast<int32_t>(strides[d]));
  }
  walk.reset(0);
  copy_walk_bytes(x.data, y.data, runtime::element_size(x.dtype), n, walk);
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::ExpandCopy, expand, kFloat32, kInt8, kInt32, kUInt8);

}  // namespace socsim::kernels
