#include "platform/npu_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "firmware/abi/generated/program_layout.h"
#include "models/common/config.h"
#include "models/npu/mac_array_timing.h"
#include "models/npu/npu_functional.h"

namespace socsim {

namespace {

uint32_t rd_u32(const std::vector<uint8_t>& f, uint64_t at) {
  uint32_t v = 0;
  std::memcpy(&v, f.data() + at, 4);
  return v;
}

bool fits(const std::vector<uint8_t>& f, uint64_t at, uint64_t size) {
  return at <= f.size() && size <= f.size() - at;
}

}  // namespace

NpuProgramLayers read_npu_program_layers(const std::string& path) {
  namespace hdr = abi::program_header;
  namespace ins = abi::instruction_record;
  namespace del = abi::delegate_record;
  namespace blob = npu::npu_blob_header;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open file");
  const std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
  if (f.size() < hdr::kSize || std::memcmp(f.data(), abi::kProgramMagic, 4) != 0) {
    throw ConfigError(path + ": not a socsim program file (no 'SPRG' header)");
  }
  const uint32_t ins_offset = rd_u32(f, hdr::kInstructionsOffset);
  const uint32_t ins_count = rd_u32(f, hdr::kInstructionCount);
  const uint32_t del_offset = rd_u32(f, hdr::kDelegatesOffset);
  const uint32_t del_count = rd_u32(f, hdr::kDelegateCount);
  if (!fits(f, ins_offset, uint64_t{ins_count} * ins::kSize) ||
      !fits(f, del_offset, uint64_t{del_count} * del::kSize)) {
    throw ConfigError(path + ": instruction or delegate table out of bounds");
  }
  NpuProgramLayers out;
  for (uint32_t i = 0; i < ins_count; ++i) {
    const uint64_t rec = ins_offset + uint64_t{i} * ins::kSize;
    if (f[rec + ins::kKind] != abi::kInstructionDelegate) continue;
    const uint32_t index = rd_u32(f, rec + ins::kDelegateIndex);
    if (index >= del_count) throw ConfigError(path + ": instruction " + std::to_string(i) +
                                              ": delegate " + std::to_string(index) +
                                              " out of range");
    const uint64_t d = del_offset + uint64_t{index} * del::kSize;
    const uint32_t id_offset = rd_u32(f, d + del::kBackendIdOffset);
    const uint32_t id_length = rd_u32(f, d + del::kBackendIdLength);
    const uint32_t blob_offset = rd_u32(f, d + del::kBlobOffset);
    const uint32_t blob_size = rd_u32(f, d + del::kBlobSize);
    if (!fits(f, id_offset, id_length) || !fits(f, blob_offset, blob_size)) {
      throw ConfigError(path + ": delegate " + std::to_string(index) + " out of bounds");
    }
    if (std::string(f.begin() + id_offset, f.begin() + id_offset + id_length) != "npu") continue;
    if (blob_size < blob::kSize || std::memcmp(f.data() + blob_offset, "NPU1", 4) != 0) {
      throw ConfigError(path + ": delegate " + std::to_string(index) + ": not an NPU1 blob");
    }
    const uint32_t layers = rd_u32(f, blob_offset + blob::kLayerCount);
    const uint32_t size = rd_u32(f, blob_offset + blob::kDescriptorSize);
    if (size != npu::kDescriptorSize ||
        uint64_t{layers} * size > blob_size - blob::kSize) {
      throw ConfigError(path + ": delegate " + std::to_string(index) +
                        ": descriptor size or layer count does not fit the blob");
    }
    std::vector<npu::LayerDescriptor> list(layers);
    std::memcpy(list.data(), f.data() + blob_offset + blob::kSize, uint64_t{layers} * size);
    out.lists.push_back(std::move(list));
  }
  return out;
}

NpuEstimateDdr npu_estimate_ddr(const DdrConfig& ddr) {
  NpuEstimateDdr e;
  if (ddr.model == DdrModelKind::kIdeal) {
    e.latency_ns = ddr.ideal_latency_ns;
    return e;
  }
  e.peak_bytes_per_ns = ddr.peak_bytes_per_s() / 1e9;
  const double cycles = ddr.timing.t_rcd + ddr.timing.cl + ddr.geometry.burst_cycles();
  e.latency_ns = cycles * ddr.tck_ps / 1000.0;
  return e;
}

std::vector<NpuLayerRecord> estimate_npu_layers(const NpuConfig& config,
                                                const NpuEstimateDdr& ddr,
                                                const NpuProgramLayers& program) {
  // The DMA as one queue at the lower of its issue rate and the DDR's peak, each transfer
  // ending one DDR latency after its last byte left.
  const double ns_per_cycle = 1000.0 / config.clock_mhz;
  double rate = config.dma.bytes_per_cycle;
  if (ddr.peak_bytes_per_ns > 0) rate = std::min(rate, ddr.peak_bytes_per_ns * ns_per_cycle);
  const auto latency = static_cast<uint64_t>(std::ceil(ddr.latency_ns / ns_per_cycle));
  uint64_t engine_free = 0;
  auto dma = [&](uint64_t start, NpuStream, uint64_t bytes) {
    const uint64_t begin = std::max(start, engine_free);
    const auto busy = static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / rate));
    engine_free = begin + busy;
    return NpuDmaSpan{begin, engine_free + latency};
  };
  std::vector<NpuLayerRecord> out;
  uint64_t now = 0;
  for (size_t run = 0; run < program.lists.size(); ++run) {
    const auto& list = program.lists[run];
    for (size_t i = 0; i < list.size(); ++i) {
      const npu::LayerDescriptor& d = list[i];
      const npu::NpuError e = validate_layer(d);
      if (e != npu::kNpuOk) {
        throw ConfigError("npu list " + std::to_string(run) + ", layer " + std::to_string(i) +
                          ": the NPU model rejects it (error " + std::to_string(int(e)) + ")");
      }
      const NpuDmaSpan descriptor = dma(now, NpuStream::kWeights, npu::kDescriptorSize);
      const LayerPlan plan = plan_layer(config, d);
      const ScheduleTimes t = schedule_layer(config, plan, descriptor.end, dma);
      const NpuOperandSizes sizes = operand_sizes(d);
      NpuLayerRecord r;
      r.run = static_cast<uint32_t>(run);
      r.index = static_cast<uint32_t>(i);
      r.name.assign(d.name, strnlen(d.name, npu::kNameSize));
      r.op_type = npu_layer_op_type(d, plan);
      std::memcpy(r.in_shape, d.in_shape, sizeof r.in_shape);
      std::memcpy(r.out_shape, d.out_shape, sizeof r.out_shape);
      r.macs = plan.macs;
      std::memcpy(r.operand_bytes, sizes.bytes, sizeof r.operand_bytes);
      r.cores_used = plan.cores_used;
      r.core_work = plan.core_work;
      r.tasks = static_cast<uint32_t>(plan.tiles.size());
      r.start_cycle = now;
      r.ddr_cycles = t.dma_cycles + (descriptor.end - descriptor.begin);
      r.npu_cycles = t.compute_cycles;
      r.pointwise_floor_cycles = plan.pointwise_floor_cycles;
      r.elapsed_cycles = t.end - now;
      r.read_bytes = plan.read_bytes + npu::kDescriptorSize;
      r.write_bytes = plan.write_bytes;
      for (const NpuTile& tile : plan.tiles) {
        r.stream_bytes[0] += tile.input_bytes;
        r.stream_bytes[1] += tile.weight_bytes;
        r.stream_bytes[2] += tile.output_bytes;
      }
      r.mac_usage = rknn_mac_usage(config, r.macs, plan.cores_used, r.elapsed_cycles);
      now = t.end;
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace socsim
