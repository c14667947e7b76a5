// Pooling geometry of runtime tensors: the NCHW shapes and the geometry arguments of a
// pooling operator, checked (pool_loops.h holds the loops, shared with the NPU model).
#pragma once

#include "firmware/int8/pool_loops.h"
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {

/// Input and output planes (batch x channels, equal) and the window arguments of `a`.
template <typename Args>
inline Error pool_geometry(const Tensor& x, const Tensor& y, const Args& a, PoolGeometry* g) {
  if (!is_nchw_pair(x, y) || x.sizes[1] != y.sizes[1]) return Error::kShapeMismatch;
  const NchwSizes xs = nchw_sizes(x);
  const NchwSizes ys = nchw_sizes(y);
  switch (g->init(xs.n * xs.c, xs.h, xs.w, ys.h, ys.w, a)) {
    case PoolCheck::kOk:
      return Error::kOk;
    case PoolCheck::kBadArgs:
      return Error::kBadOperatorArgs;
    case PoolCheck::kBadShape:
      break;
  }
  return Error::kShapeMismatch;
}

}  // namespace socsim::kernels
