// NPU layer: nearest-neighbour resizing by integer scale factors (aten::upsample_nearest2d.out
// on int8, the Upsample of torchvision and YOLO necks) on the vector path. The unit repeats
// every input row s_h = Ho / Hi times and every input column s_w = Wo / Wi times; the
// compiler's index table (the CPU kernel's operand, in the weights slot) must say exactly
// that (index[i] = i / s_h, index[Ho + j] = j / s_w), which every ONNX coordinate mode gives
// for an integer scale except align_corners on most sizes. The copy is the CPU kernel's loop
// (firmware/int8/resize_loops.h).
#include <cstring>
#include <vector>

#include "firmware/int8/resize_loops.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;

/// Each scale factor of the unit: at most this many output rows (columns) per input one.
constexpr uint32_t kMaxScale = 64;

uint64_t index_entries(const LayerDescriptor& d) {
  return uint64_t{d.out_shape[2]} + d.out_shape[3];
}

NpuError validate(const LayerDescriptor& d) {
  if (d.dtype != kDtypeInt8) return kNpuBadDtype;
  if (d.arg_count != 0) return kNpuBadArgs;
  const uint32_t* x = d.in_shape;
  const uint32_t* y = d.out_shape;
  if (x[0] != y[0] || x[1] != y[1]) return kNpuBadShape;
  for (int axis = 2; axis < 4; ++axis) {
    if (y[axis] % x[axis] != 0 || y[axis] / x[axis] > kMaxScale) return kNpuBadShape;
  }
  const uint32_t table[4] = {1, 1, 1, static_cast<uint32_t>(index_entries(d))};
  return same_shape(d.in1_shape, table) ? kNpuOk : kNpuBadShape;
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes = input_output_sizes(d);
  sizes.bytes[kAddrWeights] = 4 * index_entries(d);
  return sizes;
}

kernels::ResizeGeometry geometry(const LayerDescriptor& d) {
  kernels::ResizeGeometry r;
  r.planes = s32(d.in_shape[0] * d.in_shape[1]);
  r.h = s32(d.in_shape[2]);
  r.w = s32(d.in_shape[3]);
  r.ho = s32(d.out_shape[2]);
  r.wo = s32(d.out_shape[3]);
  return r;
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  const kernels::ResizeGeometry r = geometry(d);
  const int32_t s_h = r.ho / r.h, s_w = r.wo / r.w;
  std::vector<int32_t> index(static_cast<size_t>(r.ho + r.wo));
  std::memcpy(index.data(), o.weights, index.size() * sizeof(int32_t));
  for (int32_t i = 0; i < r.ho + r.wo; ++i) {
    const int32_t repeated = i < r.ho ? i / s_h : (i - r.ho) / s_w;
    if (index[static_cast<size_t>(i)] != repeated) return kNpuBadArgs;
  }
  kernels::resize_nearest(o.input, index.data(), r, o.output);
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  NpuVectorView v = vector_view(d);
  v.row_repeat = d.out_shape[2] / d.in_shape[2];
  v.index_bytes = 4 * index_entries(d);
  plan_vector_layer(config, v, plan);
}

}  // namespace

extern const NpuLayer kNpuLayerUpsampleNearest2d = {validate, operand_sizes, no_macs,
                                                    execute,  plan,          no_bounds};

}  // namespace socsim
