// Walking a tensor's elements through a strided view: the index arithmetic of the operators
// that read their input out of order (transpose, slice, reductions). Freestanding.
#pragma once

#include <stdint.h>

namespace socsim::kernels {

/// Largest rank of a walk (the runtime's kMaxRank).
constexpr uint32_t kMaxWalkRank = 6;

/// Visits the elements of a shape (`sizes`, row-major) and keeps, for each, its offset in a
/// strided layout: offset = base + sum index[d] * strides[d], strides in elements and of any
/// sign. `next()` steps to the following element; sizes must all be at least 1.
struct StridedWalk {
  uint32_t rank = 0;
  int32_t sizes[kMaxWalkRank] = {};
  int32_t strides[kMaxWalkRank] = {};
  int32_t index[kMaxWalkRank] = {};
  int32_t offset = 0;

  /// Appends an axis (outermost first).
  void add_axis(int32_t size, int32_t stride) {
    sizes[rank] = size;
    strides[rank] = stride;
    ++rank;
  }
  /// Back to the first element, at `base`.
  void reset(int32_t base) {
    for (uint32_t d = 0; d < rank; ++d) index[d] = 0;
    offset = base;
  }
  void next() {
    for (int32_t d = static_cast<int32_t>(rank) - 1; d >= 0; --d) {
      offset += strides[d];
      if (++index[d] < sizes[d]) return;
      offset -= strides[d] * sizes[d];
      index[d] = 0;
    }
  }
};

/// Row-major element strides of a shape.
inline void row_major_strides(uint32_t rank, const int32_t* sizes, int32_t* strides) {
  int32_t stride = 1;
  for (int32_t d = static_cast<int32_t>(rank) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= sizes[d];
  }
}

}  // namespace socsim::kernels
