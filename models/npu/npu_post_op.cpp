// The lookup stage after a layer's output (npu_post_op.h), with the CPU kernels' lookup
// (firmware/int8/lookup.h).
#include "models/npu/npu_post_op.h"

#include "firmware/int8/lookup.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_config.h"

namespace socsim {

using namespace npu;

namespace {

const NpuLayerType* post_op_type(const LayerDescriptor& d) {
  return d.post_op == 0 ? nullptr : find_npu_layer(static_cast<uint8_t>(d.post_op));
}

}  // namespace

NpuError validate_post_op(const LayerDescriptor& d) {
  if (d.post_op == 0) return kNpuOk;
  const NpuLayerType* stage = post_op_type(d);
  const NpuLayerType* layer = find_npu_layer(d.op);
  NpuOutputBounds bounds;
  const bool requantises = !layer->layer->table_lookup && layer->layer->output_bounds(d, &bounds);
  const bool ok = d.post_op <= 0xFF && stage != nullptr && stage->layer->table_lookup;
  return ok && requantises ? kNpuOk : kNpuBadArgs;
}

const char* post_op_class(const LayerDescriptor& d) {
  const NpuLayerType* stage = post_op_type(d);
  if (stage == nullptr) return nullptr;
  for (const OpcodeClasses& c : kOpcodeClasses) {
    if (c.opcode == stage->opcode) return c.first;
  }
  return nullptr;
}

const char* post_op_report_name(const LayerDescriptor& d) {
  const NpuLayerType* stage = post_op_type(d);
  return stage == nullptr ? "" : stage->report_name;
}

uint64_t post_op_table_bytes(const LayerDescriptor& d) {
  return d.post_op == 0 ? 0 : kernels::kLookupTableSize;
}

void apply_post_op(const LayerDescriptor& d, const NpuOperands& ops) {
  if (d.post_op == 0) return;
  kernels::lookup_i8(ops.table, ops.output, ops.output,
                     static_cast<uint32_t>(npu_layer::numel(d.out_shape)));
}

void plan_post_op(const NpuConfig& config, const LayerDescriptor& d, LayerPlan* plan) {
  if (d.post_op == 0 || plan->tiles.empty()) return;
  const uint64_t table = post_op_table_bytes(d) * plan->cores_used;
  NpuTile& first = plan->tiles.front();
  first.weight_bytes += table;
  first.compute_cycles += config.lut_cycles;
  plan->read_bytes += table;
  plan->compute_cycles += config.lut_cycles;
}

}  // namespace socsim
