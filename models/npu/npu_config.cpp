#include "models/npu/npu_config.h"

#include <cmath>
#include <filesystem>

#include "firmware/abi/generated/npu_descriptor.h"

namespace socsim {

const char* const* const kNpuOperatorNames = npu::kPresetOperatorClasses;
const char* const kNpuFusionNames[] = {"relu", "clip", nullptr};

namespace {

const char* const kTypeKeys[kNpuDataTypes] = {"int8", "int16", "fp16"};

bool listed(const char* const* names, const std::string& value) {
  for (const char* const* n = names; *n != nullptr; ++n) {
    if (value == *n) return true;
  }
  return false;
}

std::string joined(const char* const* names) {
  std::string out;
  for (const char* const* n = names; *n != nullptr; ++n) out += (out.empty() ? "" : ", ") + std::string(*n);
  return out;
}

// Reads the keys of `node` into `config`: a preset, or a SoC `npu:` section with its preset
// merged in, so every key is required. Each value is range-checked where it is read.
class FieldReader {
 public:
  ConfigNode get(const ConfigNode& node, const std::string& key) const { return node.at(key); }
  ConfigNode get_map(const ConfigNode& node, const std::string& key) const {
    ConfigNode child = node.at(key);
    if (!child.is_map()) child.fail("expected a map");
    return child;
  }
  void u32(const ConfigNode& node, const std::string& key, uint32_t* out, uint64_t lo,
           uint64_t hi) const {
    const ConfigNode v = node.at(key);
    const uint64_t x = v.as_u64();
    if (x < lo || x > hi) {
      v.fail("must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
             std::to_string(x));
    }
    *out = static_cast<uint32_t>(x);
  }
  void pow2(const ConfigNode& node, const std::string& key, uint32_t* out) const {
    const ConfigNode v = node.at(key);
    const uint64_t x = v.as_u64();
    if (x == 0 || x > 4096 || (x & (x - 1)) != 0) {
      v.fail("must be a power of two in [1, 4096], got " + std::to_string(x));
    }
    *out = static_cast<uint32_t>(x);
  }
};

void read_fields(const ConfigNode& node, NpuConfig& c) {
  const FieldReader r;
  c.name = node.at("name").as_string();
  if (auto d = node.find("description")) d->as_string();
  {
    const ConfigNode v = r.get(node, "clock_mhz");
    c.clock_mhz = v.as_double();
    if (!(c.clock_mhz >= 1 && c.clock_mhz <= 10000)) v.fail("clock must be in [1, 10000] MHz");
  }
  r.u32(node, "cores", &c.cores, 1, 64);
  {
    const ConfigNode array = r.get_map(node, "mac_array");
    r.u32(array, "rows", &c.rows, 1, 1024);
    r.u32(array, "columns", &c.columns, 1, 1024);
    const ConfigNode tp = r.get_map(array, "throughput");
    for (size_t t = 0; t < kNpuDataTypes; ++t) {
      const ConfigNode v = r.get(tp, kTypeKeys[t]);
      const double x = v.as_double();
      if (!(x > 0 && x <= 16)) v.fail("MACs per processing element per cycle must be in (0, 16]");
      c.throughput[t] = x;
    }
    tp.reject_unknown_keys();
    const ConfigNode v = r.get(array, "dataflow");
    const std::string d = v.as_string();
    if (d == "weight_stationary") {
      c.dataflow = NpuDataflow::kWeightStationary;
    } else if (d == "output_stationary") {
      c.dataflow = NpuDataflow::kOutputStationary;
    } else if (d == "input_stationary") {
      c.dataflow = NpuDataflow::kInputStationary;
    } else {
      v.fail("expected 'weight_stationary', 'output_stationary' or 'input_stationary', got '" +
             d + "'");
    }
    c.fold_overlap = r.get(array, "fold_overlap").as_bool();
    c.small_cin_packing = r.get(array, "small_cin_packing").as_bool();
    r.u32(array, "pointwise_channels_per_cycle", &c.pointwise_channels_per_cycle, 0, 4096);
    {
      const ConfigNode m = r.get(array, "depthwise_mapping");
      const std::string s = m.as_string();
      if (s == "channel_lanes") {
        c.depthwise_mapping = NpuDepthwiseMapping::kChannelLanes;
      } else if (s == "channel_per_layer") {
        c.depthwise_mapping = NpuDepthwiseMapping::kChannelPerLayer;
      } else {
        m.fail("expected 'channel_lanes' or 'channel_per_layer', got '" + s + "'");
      }
    }
    array.reject_unknown_keys();
  }
  {
    const ConfigNode align = r.get_map(node, "alignment");
    for (size_t t = 0; t < kNpuDataTypes; ++t) {
      const ConfigNode a = r.get_map(align, kTypeKeys[t]);
      r.pow2(a, "conv_input", &c.alignment[t].conv_input);
      r.pow2(a, "conv_output", &c.alignment[t].conv_output);
      r.pow2(a, "depthwise", &c.alignment[t].depthwise);
      r.pow2(a, "other", &c.alignment[t].other);
      a.reject_unknown_keys();
    }
    align.reject_unknown_keys();
  }
  {
    const ConfigNode v = r.get(node, "buffer_per_core");
    c.buffer_bytes = v.as_size();
    if (c.buffer_bytes < 4096 || c.buffer_bytes > (1ull << 30)) {
      v.fail("on-chip buffer must be between 4 KiB and 1 GiB");
    }
  }
  {
    const ConfigNode dma = r.get_map(node, "dma");
    r.u32(dma, "bytes_per_cycle", &c.dma.bytes_per_cycle, 1, 4096);
    r.u32(dma, "outstanding", &c.dma.outstanding, 1, 1024);
    r.pow2(dma, "burst_bytes", &c.dma.burst_bytes);
    dma.reject_unknown_keys();
  }
  c.tiling = r.get(node, "tiling").as_bool();
  r.u32(node, "setup_cycles", &c.setup_cycles, 0, 1000000);
  r.u32(node, "writeback_cycles", &c.writeback_cycles, 0, 1000000);
  r.u32(node, "lut_cycles", &c.lut_cycles, 0, 1000000);
  if (auto energy = node.find("energy")) {  // optional: no MAC and buffer energy without it
    if (!energy->is_map()) energy->fail("expected a map (mac_pj, buffer_pj_per_byte)");
    auto positive = [](const ConfigNode& v) {
      const double x = v.as_double();
      if (!(x >= 0 && x <= 1e6)) v.fail("energy must be in [0, 1e6] pJ");
      return x;
    };
    const ConfigNode mac = r.get_map(*energy, "mac_pj");
    for (size_t t = 0; t < kNpuDataTypes; ++t) c.energy.mac_pj[t] = positive(r.get(mac, kTypeKeys[t]));
    mac.reject_unknown_keys();
    c.energy.buffer_pj_per_byte = positive(r.get(*energy, "buffer_pj_per_byte"));
    energy->reject_unknown_keys();
    c.energy.known = true;
  }
  {
    const ConfigNode v = r.get(node, "core_split");
    const std::string s = v.as_string();
    if (s != "output_channels" && s != "none") {
      v.fail("expected 'output_channels' or 'none', got '" + s + "'");
    }
    c.split_output_channels = s == "output_channels";
  }
  auto read_list = [&](const char* key, const char* const* names, std::set<std::string>* out) {
    const ConfigNode v = r.get(node, key);
    if (!v.is_sequence()) v.fail("expected a list");
    out->clear();
    for (const ConfigNode& item : v.items()) {
      const std::string name = item.as_string();
      if (!listed(names, name))
        item.fail("unknown name '" + name + "' (known: " + joined(names) + ")");
      out->insert(name);
    }
  };
  read_list("operators", kNpuOperatorNames, &c.operators);
  read_list("fusions", kNpuFusionNames, &c.fusions);
}

}  // namespace

std::set<std::string> all_npu_operators() {
  std::set<std::string> names;
  for (const char* const* n = kNpuOperatorNames; *n != nullptr; ++n) names.insert(*n);
  return names;
}

const char* to_string(NpuDataType type) {
  return kTypeKeys[static_cast<size_t>(type)];
}

const char* to_string(NpuDataflow dataflow) {
  switch (dataflow) {
    case NpuDataflow::kWeightStationary: return "weight_stationary";
    case NpuDataflow::kOutputStationary: return "output_stationary";
    case NpuDataflow::kInputStationary: return "input_stationary";
  }
  return "?";
}

const char* to_string(NpuDepthwiseMapping mapping) {
  return mapping == NpuDepthwiseMapping::kChannelLanes ? "channel_lanes" : "channel_per_layer";
}

NpuConfig load_npu_preset(const std::string& file) {
  ConfigNode root = ConfigNode::load_file(file);
  if (!root.is_map()) root.fail("an NPU preset must be a map (name, clock_mhz, cores, ...)");
  root.merge_presets(std::filesystem::path(file).parent_path().string());
  NpuConfig config;
  config.preset_file = file;
  read_fields(root, config);
  root.reject_unknown_keys();
  return config;
}

NpuConfig load_npu_config(const ConfigNode& section, const std::string& base_dir) {
  if (!section.is_map()) section.fail("expected a map with 'preset' and optional overrides");
  section.at("preset");  // required; merged below (the SoC loader merges every preset first)
  section.merge_presets(base_dir);
  NpuConfig config;
  config.preset_file = section.preset_file();
  read_fields(section, config);
  section.reject_unknown_keys();
  return config;
}

}  // namespace socsim
