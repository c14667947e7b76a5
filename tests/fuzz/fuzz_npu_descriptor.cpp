// Fuzz target: the NPU's descriptor validator (validate_layer) and what the device does with
// a descriptor it accepts: operand sizes, MAC count, the MAC-array timing plan of the
// default preset and, when the operands are small, the functional execution on buffers of
// exactly those sizes (so ASan sees any access outside an operand). The input is one
// 176-byte layer descriptor (shorter inputs are padded with zeros) followed by bytes that
// fill the operand buffers.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_config.h"
#include "models/npu/npu_functional.h"

namespace {

constexpr uint64_t kMaxOperandBytes = 1u << 16;  ///< larger layers are planned, not run
constexpr uint64_t kMaxMacs = 1u << 24;

const socsim::NpuConfig& config() {
  static const socsim::NpuConfig c =
      socsim::load_npu_preset(std::string(SOCSIM_SOURCE_DIR) + "/configs/npu/npu-16x16.yaml");
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)config();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  socsim::npu::LayerDescriptor d;
  std::memset(&d, 0, sizeof d);
  std::memcpy(&d, data, size < sizeof d ? size : sizeof d);
  const uint8_t* fill = size > sizeof d ? data + sizeof d : nullptr;
  const size_t fill_size = size > sizeof d ? size - sizeof d : 0;

  if (socsim::validate_layer(d) != socsim::npu::kNpuOk) return 0;
  const socsim::NpuOperandSizes sizes = socsim::operand_sizes(d);
  const uint64_t macs = socsim::layer_macs(d);
  (void)socsim::plan_layer(config(), d);

  uint64_t total = 0;
  for (uint64_t b : sizes.bytes) total += b;
  if (total > kMaxOperandBytes || macs > kMaxMacs) return 0;
  std::vector<std::unique_ptr<uint8_t[]>> buffers;
  for (uint32_t slot = 0; slot < socsim::npu::kAddrCount; ++slot) {
    const uint64_t n = sizes.bytes[slot];
    if (n == 0) {
      buffers.emplace_back(nullptr);
      continue;
    }
    // int32 operands (bias, requant) need 4-byte alignment: operator new[] gives 16
    buffers.emplace_back(new uint8_t[n]);
    for (uint64_t i = 0; i < n; ++i) buffers.back()[i] = fill_size ? fill[i % fill_size] : 0;
  }
  socsim::NpuOperands ops;
  ops.input = reinterpret_cast<const int8_t*>(buffers[socsim::npu::kAddrInput].get());
  ops.weights = reinterpret_cast<const int8_t*>(buffers[socsim::npu::kAddrWeights].get());
  ops.bias = reinterpret_cast<const int32_t*>(buffers[socsim::npu::kAddrBias].get());
  ops.requant = reinterpret_cast<const int32_t*>(buffers[socsim::npu::kAddrRequant].get());
  ops.output = reinterpret_cast<int8_t*>(buffers[socsim::npu::kAddrOutput].get());
  ops.table = reinterpret_cast<const int8_t*>(buffers[socsim::npu::kAddrTable].get());
  (void)socsim::execute_layer(d, ops);
  return 0;
}
