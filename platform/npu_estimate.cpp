#include "platform/npu_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>

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

/// The layer descriptors of one npu blob: version 1 (descriptors after the header) or the
/// self-contained version 2 of .pte programs (where its placement record says).
std::vector<npu::LayerDescriptor> blob_layers(const uint8_t* b, uint64_t size,
                                              const std::string& what) {
  namespace blob = npu::npu_blob_header;
  namespace place = npu::npu_blob_placement;
  auto u32 = [&](uint64_t at) {
    uint32_t v = 0;
    std::memcpy(&v, b + at, 4);
    return v;
  };
  if (size < blob::kSize || std::memcmp(b, "NPU1", 4) != 0) {
    throw ConfigError(what + ": not an NPU1 blob");
  }
  const uint32_t version = u32(blob::kVersion);
  uint64_t at = blob::kSize;
  if (version == npu::kBlobVersionSelfContained) {
    if (size < blob::kSize + place::kSize) throw ConfigError(what + ": placement record truncated");
    at = u32(blob::kSize + place::kDescriptorsOffset);
  } else if (version != npu::kBlobVersion) {
    throw ConfigError(what + ": NPU1 blob version " + std::to_string(version));
  }
  const uint32_t layers = u32(blob::kLayerCount);
  const uint32_t descriptor_size = u32(blob::kDescriptorSize);
  if (descriptor_size != npu::kDescriptorSize || at > size ||
      uint64_t{layers} * descriptor_size > size - at) {
    throw ConfigError(what + ": descriptor size or layer count does not fit the blob");
  }
  std::vector<npu::LayerDescriptor> list(layers);
  std::memcpy(list.data(), b + at, uint64_t{layers} * descriptor_size);
  return list;
}

/// A checked walk through the FlatBuffer of a .pte file: every offset inside `size`.
class PteWalker {
 public:
  PteWalker(const std::vector<uint8_t>& f, uint64_t size, std::string path)
      : f_(f), size_(size), path_(std::move(path)) {}
  template <typename T = uint32_t>
  T read(uint64_t at, const char* what) const {
    if (at > size_ || size_ - at < sizeof(T)) fail(what);
    T v = 0;
    std::memcpy(&v, f_.data() + at, sizeof(T));
    return v;
  }
  uint32_t u32(uint64_t at, const char* what) const { return read<uint32_t>(at, what); }
  uint64_t u64(uint64_t at, const char* what) const {
    return u32(at, what) | (uint64_t{u32(at + 4, what)} << 32);
  }
  /// The field offset of `slot` in the table at `t` (0 when absent).
  uint64_t field(uint64_t t, uint32_t slot, uint32_t bytes, const char* what) const {
    const int64_t vt = static_cast<int64_t>(t) - static_cast<int32_t>(u32(t, what));
    if (vt < 0 || static_cast<uint64_t>(vt) + 4 > size_) fail(what);
    const auto base = static_cast<uint64_t>(vt);
    const uint32_t vt_size = read<uint16_t>(base, what);
    const uint32_t inline_size = read<uint16_t>(base + 2, what);
    if (4 + 2 * uint64_t{slot} + 2 > vt_size) return 0;
    const uint32_t off = read<uint16_t>(base + 4 + 2 * uint64_t{slot}, what);
    if (off != 0 && off + bytes > inline_size) fail(what);
    return off == 0 ? 0 : t + off;
  }
  /// The object a reference field points at (0 when absent).
  uint64_t ref(uint64_t t, uint32_t slot, const char* what) const {
    const uint64_t at = field(t, slot, 4, what);
    if (at == 0) return 0;
    const uint64_t target = at + u32(at, what);
    if (target == at || target >= size_) fail(what);
    return target;
  }
  /// Element `i` of a vector of tables at `v`.
  uint64_t item(uint64_t v, uint32_t i, const char* what) const {
    const uint64_t at = v + 4 + 4 * uint64_t{i};
    const uint64_t target = at + u32(at, what);
    if (target == at || target >= size_) fail(what);
    return target;
  }
  uint32_t count(uint64_t v, const char* what) const { return v == 0 ? 0 : u32(v, what); }
  [[noreturn]] void fail(const char* what) const {
    throw ConfigError(path_ + ": " + what + ": out of bounds");
  }

 private:
  const std::vector<uint8_t>& f_;
  uint64_t size_;
  std::string path_;
};

/// The npu delegate calls of a .pte program (docs/executorch.md), in instruction order.
NpuProgramLayers read_pte_layers(const std::vector<uint8_t>& f, const std::string& path) {
  uint64_t size = f.size(), seg_base = 0, seg_size = 0;
  if (f.size() >= 40 && std::memcmp(f.data() + 8, "eh00", 4) == 0) {
    const PteWalker header(f, f.size(), path);
    size = header.u64(16, "extended header program_size");
    seg_base = header.u64(24, "extended header segment_base_offset");
    seg_size = header.u64(32, "extended header segment_data_size");
    if (size > f.size() || seg_base > f.size() || seg_size > f.size() - seg_base) {
      throw ConfigError(path + ": extended header: out of bounds");
    }
  }
  const PteWalker w(f, size, path);
  const uint64_t root = w.u32(0, "root table");
  const uint64_t plans = w.ref(root, 1, "Program.execution_plan");
  if (w.count(plans, "Program.execution_plan") == 0) {
    throw ConfigError(path + ": Program.execution_plan: none");
  }
  const uint64_t plan = w.item(plans, 0, "Program.execution_plan");
  const uint64_t segments = w.ref(root, 4, "Program.segments");
  const uint64_t inline_data = w.ref(root, 3, "Program.backend_delegate_data");
  const uint64_t delegates = w.ref(plan, 7, "ExecutionPlan.delegates");
  const uint64_t chains = w.ref(plan, 5, "ExecutionPlan.chains");
  NpuProgramLayers out;
  for (uint32_t c = 0; c < w.count(chains, "ExecutionPlan.chains"); ++c) {
    const uint64_t list = w.ref(w.item(chains, c, "Chain"), 2, "Chain.instructions");
    for (uint32_t i = 0; i < w.count(list, "Chain.instructions"); ++i) {
      const uint64_t ins = w.item(list, i, "Instruction");
      const uint64_t type = w.field(ins, 0, 1, "Instruction.instr_args_type");
      if (type == 0 || w.read<uint8_t>(type, "Instruction") != 2) continue;  // DelegateCall
      const uint64_t call = w.ref(ins, 1, "DelegateCall");
      const uint64_t index_at = call == 0 ? 0 : w.field(call, 0, 4, "DelegateCall");
      const uint32_t index = index_at == 0 ? 0 : w.u32(index_at, "DelegateCall");
      if (index >= w.count(delegates, "ExecutionPlan.delegates")) {
        throw ConfigError(path + ": DelegateCall.delegate_index " + std::to_string(index) +
                          " out of range");
      }
      const uint64_t d = w.item(delegates, index, "BackendDelegate");
      const uint64_t id = w.ref(d, 0, "BackendDelegate.id");
      const uint32_t id_length = w.count(id, "BackendDelegate.id");
      if (id == 0 || id_length > size - id - 4) w.fail("BackendDelegate.id");
      const std::string name(f.begin() + id + 4, f.begin() + id + 4 + id_length);
      if (name != "npu" && name != "SocsimNpuBackend") continue;
      const uint64_t processed = w.ref(d, 1, "BackendDelegate.processed");
      if (processed == 0) w.fail("BackendDelegate.processed");
      const uint64_t location_at = w.field(processed, 0, 1, "BackendDelegateDataReference");
      const uint64_t data_index_at = w.field(processed, 1, 4, "BackendDelegateDataReference");
      const uint32_t location = location_at == 0 ? 0 : w.read<uint8_t>(location_at, "location");
      const uint32_t data_index = data_index_at == 0 ? 0 : w.u32(data_index_at, "index");
      uint64_t blob = 0, blob_size = 0;
      if (location == 1 && data_index < w.count(segments, "Program.segments")) {
        const uint64_t seg = w.item(segments, data_index, "DataSegment");
        const uint64_t off_at = w.field(seg, 0, 8, "DataSegment.offset");
        const uint64_t size_at = w.field(seg, 1, 8, "DataSegment.size");
        const uint64_t off = off_at == 0 ? 0 : w.u64(off_at, "DataSegment.offset");
        blob_size = size_at == 0 ? 0 : w.u64(size_at, "DataSegment.size");
        if (off > seg_size || blob_size > seg_size - off) w.fail("DataSegment.offset/size");
        blob = seg_base + off;
      } else if (location == 0 && data_index < w.count(inline_data, "backend_delegate_data")) {
        const uint64_t entry = w.item(inline_data, data_index, "BackendDelegateInlineData");
        const uint64_t bytes = w.ref(entry, 0, "BackendDelegateInlineData.data");
        blob_size = w.count(bytes, "BackendDelegateInlineData.data");
        if (bytes == 0 || blob_size > size - bytes - 4) w.fail("BackendDelegateInlineData.data");
        blob = bytes + 4;
      } else {
        throw ConfigError(path + ": delegate " + std::to_string(index) +
                          ": BackendDelegateDataReference out of range");
      }
      out.lists.push_back(blob_layers(f.data() + blob, blob_size,
                                      path + ": delegate " + std::to_string(index)));
    }
  }
  return out;
}

}  // namespace

NpuProgramLayers read_npu_program_layers(const std::string& path) {
  namespace hdr = abi::program_header;
  namespace ins = abi::instruction_record;
  namespace del = abi::delegate_record;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path + ": cannot open file");
  const std::vector<uint8_t> f((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
  if (f.size() >= 8 && std::memcmp(f.data() + 4, "ET12", 4) == 0) return read_pte_layers(f, path);
  if (f.size() < hdr::kSize || std::memcmp(f.data(), abi::kProgramMagic, 4) != 0) {
    throw ConfigError(path + ": not a socsim program file (neither 'SPRG' nor a .pte with 'ET12')");
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
    out.lists.push_back(blob_layers(f.data() + blob_offset, blob_size,
                                    path + ": delegate " + std::to_string(index)));
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
