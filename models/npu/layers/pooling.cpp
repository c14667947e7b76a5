// NPU layers: max, average and global average pooling of int8 NCHW planes on the vector path,
// computed with the CPU kernels' loops (firmware/int8/pool_loops.h).
#include "firmware/int8/pool_loops.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;

/// The window geometry of a pooling descriptor (planes and sizes from its shapes).
template <typename Op>
NpuError geometry(const LayerDescriptor& d, kernels::PoolGeometry* g) {
  const uint32_t* x = d.in_shape;
  const uint32_t* y = d.out_shape;
  if (x[0] != y[0] || x[1] != y[1]) return kNpuBadShape;
  if (d.arg_count != Op::kArgs) return kNpuBadArgs;
  switch (g->init(s32(x[0] * x[1]), s32(x[2]), s32(x[3]), s32(y[2]), s32(y[3]),
                  typename Op::Args(d.args))) {
    case kernels::PoolCheck::kOk:
      // Each output visits a window of up to k_h x k_w elements: bounded like a layer's MACs.
      if (numel(y) * static_cast<uint64_t>(g->k_h) * static_cast<uint64_t>(g->k_w) >
          kMaxLayerOperations) {
        return kNpuBadShape;
      }
      return kNpuOk;
    case kernels::PoolCheck::kBadArgs:
      return kNpuBadArgs;
    case kernels::PoolCheck::kBadShape:
      break;
  }
  return kNpuBadShape;
}

template <typename Op>
kernels::AverageScale scale_of(const LayerDescriptor& d) {
  const typename Op::Args a(d.args);
  return {a.zp_in(), a.zp_out(), a.m(), a.n()};
}

// ---- max ------------------------------------------------------------------------------------

NpuError validate_max(const LayerDescriptor& d) {
  kernels::PoolGeometry g;
  return geometry<ops::MaxPool2d>(d, &g);
}

NpuError execute_max(const LayerDescriptor& d, const NpuOperands& o) {
  kernels::PoolGeometry g;
  geometry<ops::MaxPool2d>(d, &g);
  return kernels::max_pool(g, o.input, o.output) ? kNpuOk : kNpuBadShape;
}

// ---- average --------------------------------------------------------------------------------

using Avg = ops::QuantizedAvgPool2d;

NpuError validate_avg(const LayerDescriptor& d) {
  kernels::PoolGeometry g;
  const NpuError e = geometry<Avg>(d, &g);
  if (e != kNpuOk) return e;
  if (!scale_of<Avg>(d).valid()) return kNpuBadArgs;
  return int64_t{g.in_h} * g.in_w > kernels::kMaxPoolArea ? kNpuBadShape : kNpuOk;
}

NpuError execute_avg(const LayerDescriptor& d, const NpuOperands& o) {
  kernels::PoolGeometry g;
  geometry<Avg>(d, &g);
  const bool include_pad = Avg::Args(d.args).count_include_pad() != 0;
  const bool ok = kernels::avg_pool_i8(g, include_pad, scale_of<Avg>(d), o.input, o.output);
  return ok ? kNpuOk : kNpuBadShape;
}

// ---- global average -------------------------------------------------------------------------

using Global = ops::QuantizedAdaptiveAvgPool2d;

NpuError validate_global(const LayerDescriptor& d) {
  const uint32_t* x = d.in_shape;
  const uint32_t* y = d.out_shape;
  if (d.arg_count != Global::kArgs) return kNpuBadArgs;
  if (x[0] != y[0] || x[1] != y[1] || y[2] != 1 || y[3] != 1) return kNpuBadShape;
  if (!scale_of<Global>(d).valid()) return kNpuBadArgs;
  // The kernel's bound: larger planes could overflow the int32 sum.
  return uint64_t{x[2]} * x[3] > kernels::kMaxPoolArea ? kNpuBadShape : kNpuOk;
}

NpuError execute_global(const LayerDescriptor& d, const NpuOperands& o) {
  kernels::global_avg_pool_i8(s32(d.in_shape[0] * d.in_shape[1]),
                              s32(d.in_shape[2] * d.in_shape[3]), scale_of<Global>(d), o.input,
                              o.output);
  return kNpuOk;
}

// ---- timing ---------------------------------------------------------------------------------

template <typename Op>
void plan_window(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  const typename Op::Args a(d.args);
  NpuVectorView v = vector_view(d);
  v.kh = static_cast<uint64_t>(a.kernel_h());
  v.kw = static_cast<uint64_t>(a.kernel_w());
  v.stride = static_cast<uint64_t>(a.stride_h());
  v.pad_t = static_cast<uint64_t>(a.pad_top());
  plan_vector_layer(config, v, plan);
}

void plan_global(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  NpuVectorView v = vector_view(d);
  v.kh = d.in_shape[2];  // one window over the whole plane
  v.kw = d.in_shape[3];
  plan_vector_layer(config, v, plan);
}

}  // namespace

extern const NpuLayer kNpuLayerMaxPool2d = {validate_max, input_output_sizes,          no_macs,
                                            execute_max,  plan_window<ops::MaxPool2d>, no_bounds};
extern const NpuLayer kNpuLayerQuantizedAvgPool2d = {validate_avg, input_output_sizes, no_macs,
                                                     execute_avg,  plan_window<Avg>,   no_bounds};
extern const NpuLayer kNpuLayerQuantizedAdaptiveAvgPool2d = {
    validate_global, input_output_sizes, no_macs, execute_global, plan_global, no_bounds};

}  // namespace socsim
