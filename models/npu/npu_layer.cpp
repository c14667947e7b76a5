// The table of NPU layer types, from the operator schema's list (SOCSIM_NPU_LAYERS): every
// NPU opcode, its report name and the entry defined in models/npu/layers/.
#include "models/npu/npu_layer.h"

namespace socsim {

#define SOCSIM_DECLARE_NPU_LAYER(opcode, op, report, source) extern const NpuLayer kNpuLayer##op;
SOCSIM_NPU_LAYERS(SOCSIM_DECLARE_NPU_LAYER)
#undef SOCSIM_DECLARE_NPU_LAYER

namespace {

#define SOCSIM_NPU_LAYER_TYPE(opcode, op, report, source) \
  {opcode, report, &kNpuLayer##op, &ops::op::has_kernel},
const NpuLayerType kLayerTypes[] = {SOCSIM_NPU_LAYERS(SOCSIM_NPU_LAYER_TYPE)};
#undef SOCSIM_NPU_LAYER_TYPE

}  // namespace

const NpuLayerType* find_npu_layer(uint8_t opcode) {
  for (const NpuLayerType& type : kLayerTypes) {
    if (type.opcode == opcode) return &type;
  }
  return nullptr;
}

}  // namespace socsim
