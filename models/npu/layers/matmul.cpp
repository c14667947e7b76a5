// NPU layer: the int8 product of two activations (quantized_decomposed::matmul.out), the
// Q K^T and the weighted sum of V of attention, on the MAC array. a [B0, B1, M, K] times b
// [B0', B1', K, N] gives [B0, B1, M, N]; each batch axis of a and b is the output's or 1
// (broadcast), as the CPU kernel allows. b travels in the weights slot but lives in the
// activation arena: one zero point and one scale (the layer's single multiplier), read in
// the CPU kernel's row-major [K, N] layout, which is the array's stationary operand (K rows,
// N columns) as it is. Each matrix is timed as a fully connected layer of M rows, K inputs
// and N outputs whose weights are loaded from DDR for that matrix (docs/npu.md). The
// arithmetic is the CPU kernel's loop (firmware/int8/matmul_loops.h).
#include <vector>

#include "firmware/int8/matmul_loops.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;
using Op = ops::QuantizedMatmul;

kernels::MatmulScale scale_of(const LayerDescriptor& d) {
  const Op::Args a(d.args);
  return {a.zp_a(), a.zp_b(), a.m(), a.n(), a.zp_out(), a.act_min(), a.act_max()};
}

uint64_t batches(const LayerDescriptor& d) {
  return uint64_t{d.out_shape[0]} * d.out_shape[1];
}

NpuError validate(const LayerDescriptor& d) {
  if (d.dtype != kDtypeInt8) return kNpuBadDtype;
  if (d.arg_count != Op::kArgs) return kNpuBadArgs;
  const uint32_t* a = d.in_shape;
  const uint32_t* b = d.in1_shape;
  const uint32_t* y = d.out_shape;
  if (a[2] != y[2] || b[3] != y[3] || a[3] != b[2]) return kNpuBadShape;
  for (int axis = 0; axis < 2; ++axis) {
    if ((a[axis] != y[axis] && a[axis] != 1) || (b[axis] != y[axis] && b[axis] != 1)) {
      return kNpuBadShape;
    }
  }
  for (int axis = 0; axis < 4; ++axis) {
    if (b[axis] == 0) return kNpuBadShape;
  }
  if (a[3] > static_cast<uint32_t>(kernels::kMaxMatmulDepth)) return kNpuBadShape;
  return scale_of(d).valid() ? kNpuOk : kNpuBadArgs;
}

NpuOperandSizes operand_sizes(const LayerDescriptor& d) {
  NpuOperandSizes sizes = input_output_sizes(d);
  sizes.bytes[kAddrWeights] = numel(d.in1_shape);
  return sizes;
}

uint64_t macs(const LayerDescriptor& d) {
  return numel(d.out_shape) * d.in_shape[3];
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  const uint32_t* a = d.in_shape;
  const uint32_t* b = d.in1_shape;
  const uint32_t* y = d.out_shape;
  const uint64_t a_matrix = uint64_t{a[2]} * a[3], b_matrix = uint64_t{b[2]} * b[3];
  const uint64_t y_matrix = uint64_t{y[2]} * y[3];
  const kernels::MatmulScale s = scale_of(d);
  for (uint32_t i = 0; i < y[0]; ++i) {
    for (uint32_t j = 0; j < y[1]; ++j) {
      // A batch axis of size 1 repeats (broadcast).
      const uint64_t ia = (a[0] == 1 ? 0 : i) * a[1] + (a[1] == 1 ? 0 : j);
      const uint64_t ib = (b[0] == 1 ? 0 : i) * b[1] + (b[1] == 1 ? 0 : j);
      kernels::matmul_i8(o.input + ia * a_matrix, o.weights + ib * b_matrix, s32(a[2]), s32(a[3]),
                         s32(b[3]), s, o.output + (uint64_t{i} * y[1] + j) * y_matrix);
    }
  }
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  // One matrix: a fully connected layer of M rows, K inputs, N outputs, no per-channel words.
  const uint64_t m = d.in_shape[2], k = d.in_shape[3], n = d.out_shape[3];
  NpuConvView v{1, k, m, 1, n, m, 1, 1, 1, 1, 0, 1, 1, false};
  v.channel_bytes = 0;
  plan_array_layer(config, v, plan);
  // Every matrix again, its b loaded again (also when b broadcasts over the batch).
  const uint64_t count = batches(d);
  const std::vector<NpuTile> one = plan->tiles;
  for (uint64_t i = 1; i < count; ++i)
    plan->tiles.insert(plan->tiles.end(), one.begin(), one.end());
  plan->compute_cycles *= count;
  plan->read_bytes *= count;
  plan->write_bytes *= count;
}

}  // namespace

extern const NpuLayer kNpuLayerQuantizedMatmul = {validate, operand_sizes, macs,
                                                  execute,  plan,          bounds_of<Op>};

}  // namespace socsim
