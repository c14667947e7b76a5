// Nearest-neighbour resizing of plain NCHW arrays from the compiler's index table (ONNX
// Resize, mode nearest), shared by the CPU kernel (op_upsample.cpp) and the NPU model
// (models/npu/layers/resize.cpp).
//
// Freestanding: no runtime types.
#pragma once

#include <stdint.h>

namespace socsim::kernels {

/// The planes (batch x channels) and the input and output sizes of a resize.
struct ResizeGeometry {
  int32_t planes = 0, h = 0, w = 0, ho = 0, wo = 0;
};

/// True when each of the `per` entries of every output row (the first ho * per entries) is a
/// source row and each of every output column's (the next wo * per) a source column.
inline bool valid_resize_index(const int32_t* index, const ResizeGeometry& r, int32_t per) {
  for (int32_t i = 0; i < (r.ho + r.wo) * per; ++i) {
    const int32_t limit = i < r.ho * per ? r.h : r.w;
    if (index[i] < 0 || index[i] >= limit) return false;
  }
  return true;
}

/// y[p, i, j] = x[p, index[i], index[ho + j]] (the index must be valid).
template <typename T>
void resize_nearest(const T* x, const int32_t* index, const ResizeGeometry& r, T* y) {
  const int32_t* cols = index + r.ho;
  for (int32_t p = 0; p < r.planes; ++p) {
    const T* plane = x + p * r.h * r.w;
    for (int32_t i = 0; i < r.ho; ++i) {
      const T* row = plane + index[i] * r.w;
      for (int32_t j = 0; j < r.wo; ++j) *y++ = row[cols[j]];
    }
  }
}

}  // namespace socsim::kernels
