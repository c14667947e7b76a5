// NPU layer: int8 requantisation to another scale and zero point
// (quantized_decomposed::requantize.out, the compiler's conversion before a concatenation
// whose inputs have other scales) on the vector path: the requantisation stage a convolution
// ends in, run on its own. The arithmetic is the CPU kernel's loop (arithmetic.h).
#include "firmware/int8/arithmetic.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_layer.h"

namespace socsim {
namespace {

using namespace npu;
using namespace npu_layer;
using Op = ops::Requantize;

NpuError validate(const LayerDescriptor& d) {
  if (d.dtype != kDtypeInt8) return kNpuBadDtype;
  if (d.arg_count != Op::kArgs) return kNpuBadArgs;
  if (!same_shape(d.in_shape, d.out_shape)) return kNpuBadShape;
  const Op::Args a(d.args);
  const bool valid = kernels::valid_multiplier(a.m(), a.n()) &&
                     kernels::valid_zero_point(a.zp_in()) && kernels::valid_zero_point(a.zp_out());
  return valid ? kNpuOk : kNpuBadArgs;
}

NpuError execute(const LayerDescriptor& d, const NpuOperands& o) {
  const Op::Args a(d.args);
  kernels::requantize_i8(o.input, static_cast<uint32_t>(numel(d.out_shape)), a.zp_in(), a.zp_out(),
                         a.m(), a.n(), o.output);
  return kNpuOk;
}

void plan(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  plan_vector_layer(config, vector_view(d), plan);
}

}  // namespace

extern const NpuLayer kNpuLayerRequantize = {validate, input_output_sizes, no_macs, execute,
                                             plan,     no_bounds};

}  // namespace socsim
