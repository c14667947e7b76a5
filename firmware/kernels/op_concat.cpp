// Concatenation along one axis, aten::cat.out. int8 inputs must share the output's
// quantisation (the compiler inserts requantize where they do not).
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

// Any number of inputs (at least one, all of the output's type: the wrapper checks).
Error concat(TensorList inputs, Tensor& y, ops::Cat::Args args, MemoryAllocator*) {
  const int32_t axis = args.axis();
  if (axis < 0 || axis >= static_cast<int32_t>(y.rank)) return Error::kBadOperatorArgs;
  int32_t total = 0;
  for (uint32_t i = 0; i < inputs.size(); ++i) {
    const Tensor& x = inputs[i];
    if (x.rank != y.rank) return Error::kShapeMismatch;
    for (uint32_t d = 0; d < y.rank; ++d) {
      if (static_cast<int32_t>(d) != axis && x.sizes[d] != y.sizes[d]) {
        return Error::kShapeMismatch;
      }
    }
    total += x.sizes[axis];
  }
  if (total != y.sizes[axis]) return Error::kShapeMismatch;
  // Copy in blocks: for each outer index, each input contributes sizes[axis] * inner.
  const uint32_t esize = runtime::element_size(y.dtype);
  uint32_t outer = 1;
  uint32_t inner = esize;
  for (int32_t d = 0; d < axis; ++d) outer *= static_cast<uint32_t>(y.sizes[d]);
  for (uint32_t d = axis + 1; d < y.rank; ++d) inner *= static_cast<uint32_t>(y.sizes[d]);
  uint8_t* dst = y.data_as<uint8_t>();
  for (uint32_t o = 0; o < outer; ++o) {
    for (uint32_t i = 0; i < inputs.size(); ++i) {
      const Tensor& x = inputs[i];
      const uint32_t block = static_cast<uint32_t>(x.sizes[axis]) * inner;
      memcpy(dst, x.data_as<uint8_t>() + o * block, block);
      dst += block;
    }
  }
  return Error::kOk;
}

}  // namespace

SOCSIM_KERNEL(ops::Cat, concat, kFloat32, kInt8);

}  // namespace socsim::kernels
