// TopK along one axis (aten::topk.values, aten::topk_indices.out): the k largest (largest=1)
// or smallest elements of every line, best first, ties by the lower index; float32 or int8
// input (int8: quantised values order as their real values). The values output has the
// input's type, the indices output is int32; both have the input's shape with k along dim.
#include "firmware/kernels/kernel_util.h"

namespace socsim::kernels {
namespace {

struct Lines {
  uint32_t outer = 1, n = 0, inner = 1, k = 0;
};

Error lines_of(const Tensor& x, const Tensor& out, int32_t k, int32_t dim, int32_t largest,
               Lines* l) {
  if (dim < 0 || dim >= static_cast<int32_t>(x.rank) || (largest != 0 && largest != 1)) {
    return Error::kBadOperatorArgs;
  }
  const uint32_t axis = static_cast<uint32_t>(dim);
  l->n = static_cast<uint32_t>(x.sizes[axis]);
  if (k < 1 || static_cast<uint32_t>(k) > l->n) return Error::kBadOperatorArgs;
  l->k = static_cast<uint32_t>(k);
  for (uint32_t d = 0; d < axis; ++d) l->outer *= static_cast<uint32_t>(x.sizes[d]);
  for (uint32_t d = axis + 1; d < x.rank; ++d) l->inner *= static_cast<uint32_t>(x.sizes[d]);
  if (out.rank != x.rank || out.sizes[axis] != k || out.numel() != l->outer * l->k * l->inner) {
    return Error::kShapeMismatch;
  }
  return Error::kOk;
}

/// True when element (a, ia) comes before (b, ib): the better value, or of equal values the
/// lower index (a strict total order on the line when no value is NaN).
template <typename T>
bool before(T a, uint32_t ia, T b, uint32_t ib, bool largest) {
  if (a != b) return largest ? a > b : a < b;
  return ia < ib;
}

/// Selection without scratch memory: pass r takes the first element, in that order, after
/// the one pass r - 1 took.
template <typename T, typename Emit>
Error topk(const Tensor& x, const Tensor& out, int32_t k, int32_t dim, int32_t largest,
           Emit emit) {
  Lines l;
  SOCSIM_RT_TRY(lines_of(x, out, k, dim, largest, &l));
  const T* px = x.data_as<T>();
  for (uint32_t o = 0; o < l.outer; ++o) {
    for (uint32_t j = 0; j < l.inner; ++j) {
      const T* line = px + o * l.n * l.inner + j;
      uint32_t prev = l.n;
      for (uint32_t r = 0; r < l.k; ++r) {
        uint32_t best = l.n;
        for (uint32_t i = 0; i < l.n; ++i) {
          const T v = line[i * l.inner];
          if (prev != l.n && !before(line[prev * l.inner], prev, v, i, largest != 0)) continue;
          if (best == l.n || before(v, i, line[best * l.inner], best, largest != 0)) best = i;
        }
        if (best == l.n) best = prev;  // only with NaN: the order is not total
        emit((o * l.k + r) * l.inner + j, line[best * l.inner], best);
        prev = best;
      }
    }
  }
  return Error::kOk;
}

template <typename T>
Error topk_values(const Tensor& x, Tensor& values, ops::Topk::Args args) {
  T* py = values.data_as<T>();
  return topk<T>(x, values, args.k(), args.dim(), args.largest(),
                 [&](uint32_t at, T v, uint32_t) { py[at] = v; });
}

template <typename T>
Error topk_indices(const Tensor& x, Tensor& indices, ops::TopkIndices::Args args) {
  int32_t* py = indices.data_as<int32_t>();
  return topk<T>(x, indices, args.k(), args.dim(), args.largest(),
                 [&](uint32_t at, T, uint32_t i) { py[at] = static_cast<int32_t>(i); });
}

Error topk_f32(const Tensor& x, Tensor& values, ops::Topk::Args args, MemoryAllocator*) {
  return topk_values<float>(x, values, args);
}
Error topk_i8(const Tensor& x, Tensor& values, ops::Topk::Args args, MemoryAllocator*) {
  return topk_values<int8_t>(x, values, args);
}
Error topk_indices_f32(const Tensor& x, Tensor& indices, ops::TopkIndices::Args args,
                       MemoryAllocator*) {
  return topk_indices<float>(x, indices, args);
}
Error topk_indices_i8(const Tensor& x, Tensor& indices, ops::TopkIndices::Args args,
                      MemoryAllocator*) {
  return topk_indices<int8_t>(x, indices, args);
}

}  // namespace

SOCSIM_KERNEL(ops::Topk, topk_f32, kFloat32);
SOCSIM_KERNEL(ops::Topk, topk_i8, kInt8);
SOCSIM_KERNEL(ops::TopkIndices, topk_indices_f32, kFloat32);
SOCSIM_KERNEL(ops::TopkIndices, topk_indices_i8, kInt8);

}  // namespace socsim::kernels
