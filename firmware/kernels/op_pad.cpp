// Padding (ONNX Pad): aten::constant_pad_nd.out surrounds x with a constant (its one-element
// operand `value`, in x's type and quantisation) on any axes; aten::reflection_pad2d.out and
// aten::replication_pad2d.out pad the last two axes with their mirror image (the edge not
// repeated) or with copies of the edge. Pads are non-negative.
#include "firmware/kernels/kernel_util.h"
#include "firmware/kernels/strided.h"

namespace socsim::kernels {
namespace {

template <typename T>
void fill_and_place(const Tensor& x, T value, const int32_t* pads, Tensor& y) {
  T* py = y.data_as<T>();
  const uint32_t total = y.numel();
  for (uint32_t i = 0; i < total; ++i) py[i] = value;
  if (x.numel() == 0) return;
  int32_t stride[runtime::kMaxRank];
  row_major_strides(y.rank, y.sizes, stride);
  // The input's rows (its last axis) one after the other, at their places in the output.
  StridedWalk rows;
  int32_t base = 0;
  for (uint32_t d = 0; d < x.rank; ++d) {
    base += pads[2 * d] * stride[d];
    if (d + 1 < x.rank) rows.add_axis(x.sizes[d], stride[d]);
  }
  rows.reset(base);
  const uint32_t row = x.rank ? static_cast<uint32_t>(x.sizes[x.rank - 1]) : 1;
  const uint32_t count = x.numel() / row;
  const T* px = x.data_as<T>();
  for (uint32_t r = 0; r < count; ++r) {
    memcpy(py + rows.offset, px + r * row, row * sizeof(T));
    rows.next();
  }
}

Error constant_pad(const Tensor& x, const Tensor& value, Tensor& y, ops::ConstantPadNd::Args args,
                   MemoryAllocator*) {
  if (value.numel() != 1 || x.rank != y.rank) return Error::kShapeMismatch;
  const int32_t* pads = args.pads();  // (before, after) per axis
  for (uint32_t d = 0; d < x.rank; ++d) {
    if (pads[2 * d] < 0 || pads[2 * d + 1] < 0) return Error::kBadOperatorArgs;
    if (int64_t{y.sizes[d]} != int64_t{x.sizes[d]} + pads[2 * d] + pads[2 * d + 1]) {
      return Error::kShapeMismatch;
    }
  }
  if (runtime::element_size(x.dtype) == 1) {
    fill_and_place(x, *value.data_as<int8_t>(), pads, y);
  } else {
    fill_and_place(x, *value.data_as<int32_t>(), pads, y);
  }
  return Error::kOk;
}

enum class PadMode { kReflect, kReplicate };

/// The source index of padded index i (i in [-pad_before, n + pad_after)).
template <PadMode kMode>
inline int32_t source_index(int32_t i, int32_t n) {
  if (kMode == PadMode::kReflect) return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i);
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

template <typename T, PadMode kMode, typename Args>
void pad_planes(const Tensor& x, const Args& a, Tensor& y) {
  const int32_t h = x.sizes[x.rank - 2];
  const int32_t w = x.sizes[x.rank - 1];
  const int32_t ho = y.sizes[y.rank - 2];
  const int32_t wo = y.sizes[y.rank - 1];
  const uint32_t planes = x.numel() / static_cast<uint32_t>(h * w);
  const T* px = x.data_as<T>();
  T* py = y.data_as<T>();
  for (uint32_t p = 0; p < planes; ++p) {
    const T* plane = px + p * static_cast<uint32_t>(h * w);
    for (int32_t oy = 0; oy < ho; ++oy) {
      const T* row = plane + source_index<kMode>(oy - a.pad_top(), h) * w;
      for (int32_t ox = 0; ox < wo; ++ox) *py++ = row[source_index<kMode>(ox - a.pad_left(), w)];
    }
  }
}

/// reflection_pad2d and replication_pad2d: the same argument names (pad_left, pad_right,
/// pad_top, pad_bottom), each operator's own Args view.
template <PadMode kMode, typename Args>
Error pad2d(const Tensor& x, Tensor& y, const Args& a) {
  if (x.rank < 2 || x.rank != y.rank) return Error::kShapeMismatch;
  const int32_t h = x.sizes[x.rank - 2];
  const int32_t w = x.sizes[x.rank - 1];
  const int32_t top = a.pad_top(), bottom = a.pad_bottom(), left = a.pad_left();
  const int32_t right = a.pad_right();
  if (top < 0 || bottom < 0 || left < 0 || right < 0 || h < 1 || w < 1) {
    return Error::kBadOperatorArgs;
  }
  // A mirror image needs more rows (columns) than it reflects.
  if (kMode == PadMode::kReflect && (top >= h || bottom >= h || left >= w || right >= w)) {
    return Error::kBadOperatorArgs;
  }
  for (uint32_t d = 0; d + 2 < x.rank; ++d) {
    if (x.sizes[d] != y.sizes[d]) return Error::kShapeMismatch;
  }
  if (int64_t{y.sizes[x.rank - 2]} != int64_t{h} + top + bottom ||
      int64_t{y.sizes[x.rank - 1]} != int64_t{w} + left + right) {
    return Error::kShapeMismatch;
  }
  if (runtime::element_size(x.dtype) == 1) {
    pad_planes<int8_t, kMode>(x, a, y);
  } else {
    pad_planes<int32_t, kMode>(x, a, y);
  }
  return Error::kOk;
}

Error reflection_pad2d(const Tensor& x, Tensor& y, ops::ReflectionPad2d::Args args,
                       MemoryAllocator*) {
  return pad2d<PadMode::kReflect>(x, y, args);
}

Error replication_pad2d(const Tensor& x, Tensor& y, ops::ReplicationPad2d::Args args,
                        MemoryAllocator*) {
  return pad2d<PadMode::kReplicate>(x, y, args);
}

}  // namespace

SOCSIM_KERNEL(ops::ConstantPadNd, constant_pad, kFloat32, kInt8);
SOCSIM_KERNEL(ops::ReflectionPad2d, reflection_pad2d, kFloat32, kInt8);
SOCSIM_KERNEL(ops::ReplicationPad2d, replication_pad2d, kFloat32, kInt8);

}  // namespace socsim::kernels
