// Slicing, aten::slice_copy.Tensor_out (ONNX Slice, and Split: one slice per output): on every
// axis d, out index i reads x at first[d] + i step[d] (steps of any sign but 0). The arguments
// hold (first, step) per axis; the output's shape gives the lengths.
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

Error slice(const Tensor& x, Tensor& y, ops::SliceCopy::Args args, MemoryAllocator*) {
  if (x.rank != y.rank) return Error::kShapeMismatch;
  const int32_t* slices = args.slices();  // (first, step) per axis
  int32_t stride[runtime::kMaxRank];
  row_major_strides(x.rank, x.sizes, stride);
  StridedWalk walk;
  int32_t base = 0;
  for (uint32_t d = 0; d < x.rank; ++d) {
    const int64_t first = slices[2 * d];
    const int64_t step = slices[2 * d + 1];
    const int32_t length = y.sizes[d];
    if (length < 1 || x.sizes[d] < 1) return Error::kShapeMismatch;
    const int64_t last = first + step * (length - 1);
    if (step == 0 || first < 0 || first >= x.sizes[d] || last < 0 || last >= x.sizes[d]) {
      return Error::kBadOperatorArgs;
    }
    base += static_cast<int32_t>(first) * stride[d];
    // |step| < size whenever length > 1, so the element stride stays inside int32.
    walk.add_axis(length, length > 1 ? static_cast<int32_t>(step) * stride[d] : 0);
  }
  walk.reset(base);
  copy_walk_bytes(x.data, y.data, runtime::element_size(x.dtype), y.numel(), walk);
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::SliceCopy, slice, kFloat32, kInt8, kInt32, kUInt8);

}  // namespace socsim::kernels
