// Shared helpers of the portable kernels: the typed kernel interface (typed_kernel.h: the
// count and dtype checks are generated from the operator schema) and broadcasting iteration
// over runtime tensors. The integer arithmetic itself is in arithmetic.h (shared
// with the NPU model); the operators' argument lists are read by name through the types the
// operator schema generates (firmware/abi/generated/operators.h).
#pragma once

#include <stdint.h>
#include <string.h>

#include "firmware/abi/generated/operators.h"
#include "firmware/int8/arithmetic.h"
#include "firmware/kernels/typed_kernel.h"
#include "firmware/runtime/error.h"
#include "firmware/runtime/kernel_registry.h"
#include "firmware/runtime/tensor.h"

namespace socsim::kernels {

using runtime::Error;
using runtime::MemoryAllocator;
using runtime::ScalarType;
using runtime::Tensor;

// ---- checks the schema cannot express -----------------------------------------------------

/// Common checks of NCHW window operators: rank 4 in and out (or rank 3 in and out: a 1-D
/// layer's [N, C, L], which nchw_sizes views as [N, C, 1, L]), batch equal.
inline bool is_nchw_pair(const Tensor& in, const Tensor& out) {
  return (in.rank == 4 || in.rank == 3) && out.rank == in.rank && in.sizes[0] == out.sizes[0];
}

/// The NCHW sizes of a window operator's activation (rank 4, or rank 3 with H = 1).
struct NchwSizes {
  int32_t n, c, h, w;
};

inline NchwSizes nchw_sizes(const Tensor& t) {
  if (t.rank == 3) return NchwSizes{t.sizes[0], t.sizes[1], 1, t.sizes[2]};
  return NchwSizes{t.sizes[0], t.sizes[1], t.sizes[2], t.sizes[3]};
}

// ---- broadcasting -----------------------------------------------------------------------

/// Numpy broadcasting of two inputs into the output shape. Computes, for the output's
/// dimensions, the element strides of each input (0 where the input is broadcast).
struct Broadcast {
  uint32_t rank = 0;
  int32_t sizes[runtime::kMaxRank] = {};
  uint32_t stride_a[runtime::kMaxRank] = {};
  uint32_t stride_b[runtime::kMaxRank] = {};
  bool trivial = false;  ///< All three shapes are equal: a flat loop does.

  /// kShapeMismatch unless a and b broadcast exactly to out.
  Error init(const Tensor& a, const Tensor& b, const Tensor& out);
};

inline Error strides_for(const Tensor& in, const Tensor& out, uint32_t* strides) {
  if (in.rank > out.rank) return Error::kShapeMismatch;
  uint32_t stride = 1;
  for (int32_t d = static_cast<int32_t>(out.rank) - 1; d >= 0; --d) {
    const int32_t k = d - static_cast<int32_t>(out.rank - in.rank);
    const int32_t size = k >= 0 ? in.sizes[k] : 1;
    if (size == out.sizes[d]) {
      strides[d] = size == 1 ? 0 : stride;
    } else if (size == 1) {
      strides[d] = 0;
    } else {
      return Error::kShapeMismatch;
    }
    stride *= static_cast<uint32_t>(size);
  }
  return Error::kOk;
}

inline Error Broadcast::init(const Tensor& a, const Tensor& b, const Tensor& out) {
  rank = out.rank;
  for (uint32_t d = 0; d < rank; ++d) sizes[d] = out.sizes[d];
  trivial = a.same_shape(out) && b.same_shape(out);
  SOCSIM_RT_TRY(strides_for(a, out, stride_a));
  return strides_for(b, out, stride_b);
}

/// Calls op(out_index, a_index, b_index) for every output element, in row-major order.
template <typename Op>
inline void for_each_broadcast(const Broadcast& bc, uint32_t numel, Op op) {
  if (bc.trivial) {
    for (uint32_t i = 0; i < numel; ++i) op(i, i, i);
    return;
  }
  uint32_t index[runtime::kMaxRank] = {};
  uint32_t ia = 0;
  uint32_t ib = 0;
  for (uint32_t i = 0; i < numel; ++i) {
    op(i, ia, ib);
    for (int32_t d = static_cast<int32_t>(bc.rank) - 1; d >= 0; --d) {
      ia += bc.stride_a[d];
      ib += bc.stride_b[d];
      if (++index[d] < static_cast<uint32_t>(bc.sizes[d])) break;
      ia -= bc.stride_a[d] * index[d];
      ib -= bc.stride_b[d] * index[d];
      index[d] = 0;
    }
  }
}

}  // namespace socsim::kernels
