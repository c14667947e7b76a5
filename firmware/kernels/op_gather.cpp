// Gathering along one axis at constant indices, aten::index_select.out (ONNX Gather): the
// indices may have any shape, which replaces the axis in the output's shape
// (out.shape = x.shape[:dim] + index.shape + x.shape[dim + 1:]). A program file has no rank-0
// tensors: a scalar index is one element of rank 1 with an output of rank x.rank - 1.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

Error gather(const Tensor& x, const Tensor& index, Tensor& y, ops::IndexSelect::Args args,
             MemoryAllocator*) {
  const int32_t dim = args.dim();
  if (dim < 0 || dim >= static_cast<int32_t>(x.rank)) return Error::kBadOperatorArgs;
  const uint32_t axis = static_cast<uint32_t>(dim);
  const bool scalar = index.numel() == 1 && y.rank + 1 == x.rank;
  const uint32_t index_rank = scalar ? 0 : index.rank;
  if (y.rank != x.rank - 1 + index_rank) return Error::kShapeMismatch;
  for (uint32_t d = 0; d < y.rank; ++d) {
    int32_t want;
    if (d < axis) {
      want = x.sizes[d];
    } else if (d < axis + index_rank) {
      want = index.sizes[d - axis];
    } else {
      want = x.sizes[d - index_rank + 1];
    }
    if (y.sizes[d] != want) return Error::kShapeMismatch;
  }
  uint32_t outer = 1;
  uint32_t inner = runtime::element_size(x.dtype);
  for (uint32_t d = 0; d < axis; ++d) outer *= static_cast<uint32_t>(x.sizes[d]);
  for (uint32_t d = axis + 1; d < x.rank; ++d) inner *= static_cast<uint32_t>(x.sizes[d]);
  const int32_t size = x.sizes[axis];
  const int32_t* idx = index.data_as<int32_t>();
  const uint32_t count = index.numel();
  for (uint32_t i = 0; i < count; ++i) {
    if (idx[i] < 0 || idx[i] >= size) return Error::kBadOperatorArgs;
  }
  const uint8_t* src = x.data_as<uint8_t>();
  uint8_t* dst = y.data_as<uint8_t>();
  for (uint32_t o = 0; o < outer; ++o) {
    const uint8_t* plane = src + o * static_cast<uint32_t>(size) * inner;
    for (uint32_t i = 0; i < count; ++i) {
      memcpy(dst, plane + static_cast<uint32_t>(idx[i]) * inner, inner);
      dst += inner;
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::IndexSelect, gather, kFloat32, kInt8, kInt32);

}  // namespace socsim::kernels
