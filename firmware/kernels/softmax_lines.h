// The lines a softmax normalises: a tensor seen as [outer, n, inner] around the axis dim
// (op_softmax.cpp, op_masked_softmax.cpp).
#pragma once

#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

/// The lines of x around axis dim: outer * inner lines of n elements, element i of a line
/// at i * inner.
struct Lines {
  uint32_t outer = 1, n = 1, inner = 1;

  Error init(const Tensor& x, const Tensor& y, int32_t dim) {
    if (!x.same_shape(y) || x.rank < 1) return Error::kShapeMismatch;
    if (dim < 0 || dim >= static_cast<int32_t>(x.rank)) return Error::kBadOperatorArgs;
    const uint32_t axis = static_cast<uint32_t>(dim);
    if (x.sizes[axis] < 1) return Error::kShapeMismatch;
    n = static_cast<uint32_t>(x.sizes[axis]);
    for (uint32_t d = 0; d < axis; ++d) outer *= static_cast<uint32_t>(x.sizes[d]);
    for (uint32_t d = axis + 1; d < x.rank; ++d) inner *= static_cast<uint32_t>(x.sizes[d]);
    return Error::kOk;
  }
  /// Calls f(offset of the line's first element) for every line.
  template <typename F>
  void each(F f) const {
    for (uint32_t o = 0; o < outer; ++o) {
      for (uint32_t j = 0; j < inner; ++j) f(o * n * inner + j);
    }
  }
};

}  // namespace socsim::kernels
