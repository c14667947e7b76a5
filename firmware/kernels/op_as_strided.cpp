// Strided copy, aten::as_strided_copy.out: out[i...] = element storage_offset +
// sum i[d] strides[d] of x's flat storage (row-major), strides in elements and at least 0,
// x of the output's rank (its shape only bounds the storage). Every element read must lie
// inside x. Any element type (bytes move as they are).
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

Error as_strided(const Tensor& x, Tensor& y, ops::AsStridedCopy::Args a, MemoryAllocator*) {
  if (x.rank != y.rank) return Error::kShapeMismatch;
  const uint32_t n = y.numel();
  if (n == 0) return Error::kOk;
  const int32_t* strides = a.strides();
  const int64_t offset = a.storage_offset();
  if (offset < 0) return Error::kBadOperatorArgs;
  int64_t last = offset;
  int64_t reach = offset;  // what the walk's running offset can reach between elements
  StridedWalk walk;
  for (uint32_t d = 0; d < y.rank; ++d) {
    if (strides[d] < 0) return Error::kBadOperatorArgs;
    // an axis of one element never steps: its stride addresses nothing
    const int32_t stride = y.sizes[d] == 1 ? 0 : strides[d];
    last += static_cast<int64_t>(y.sizes[d] - 1) * stride;
    reach += static_cast<int64_t>(y.sizes[d]) * stride;
    walk.add_axis(y.sizes[d], stride);
  }
  if (last >= static_cast<int64_t>(x.numel()) || reach > INT32_MAX) {
    return Error::kBadOperatorArgs;
  }
  walk.reset(static_cast<int32_t>(offset));
  copy_walk_bytes(x.data, y.data, runtime::element_size(x.dtype), n, walk);
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::AsStridedCopy, as_strided, kFloat32, kInt8, kInt32, kUInt8);

}  // namespace socsim::kernels
