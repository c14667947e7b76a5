#include "models/npu/npu_config.h"

#include <filesystem>
#include <utility>

#include "firmware/abi/generated/npu_descriptor.h"

namespace socsim {

const char* const* const kNpuOperatorNames = npu::kPresetOperatorClasses;
const char* const kNpuFusionNames[] = {"relu", "clip", nullptr};

namespace {

const char* const kTypeKeys[kNpuDataTypes] = {"int8", "int16", "fp16"};

std::vector<std::string> names_of(const char* const* names) {
  std::vector<std::string> out;
  for (const char* const* n = names; *n != nullptr; ++n) out.emplace_back(*n);
  return out;
}

const ConfigEnum<NpuDataflow> kDataflows = {
    {"weight_stationary", NpuDataflow::kWeightStationary},
    {"output_stationary", NpuDataflow::kOutputStationary},
    {"input_stationary", NpuDataflow::kInputStationary},
};
const ConfigEnum<NpuDepthwiseMapping> kDepthwiseMappings = {
    {"channel_lanes", NpuDepthwiseMapping::kChannelLanes},
    {"channel_per_layer", NpuDepthwiseMapping::kChannelPerLayer},
};
const ConfigEnum<bool> kCoreSplits = {{"output_channels", true}, {"none", false}};

constexpr uint64_t kMaxLayerCycles = 1000000;
constexpr double kMaxEnergyPj = 1e6;

// The keys of a preset but `energy`, in the order of docs/npu.md's example.
ConfigTable<NpuConfig> make_npu_keys() {
  using C = NpuConfig;
  ConfigTable<C> t = {
      config_field(ConfigKey::text("name", nullptr, "shown in reports"), &C::name),
      config_field(ConfigKey::text("description", nullptr, "what the preset models, in words")
                       .may_be_absent(),
                   &C::description),
      config_field(ConfigKey::number_in("clock_mhz", 1, 10000, nullptr, "NPU clock"),
                   &C::clock_mhz),
      config_field(ConfigKey::unsigned_in("cores", 1, 64, nullptr,
                                          "cores; a layer is split across them (`core_split`)"),
                   &C::cores),
      config_field(ConfigKey::unsigned_in("mac_array.rows", 1, 1024, nullptr,
                                          "R: processing-element rows per core"),
                   &C::rows),
      config_field(ConfigKey::unsigned_in("mac_array.columns", 1, 1024, nullptr,
                                          "C: processing-element columns per core (R x C int8 "
                                          "MACs per core per cycle)"),
                   &C::columns),
  };
  for (size_t type = 0; type < kNpuDataTypes; ++type) {
    t.push_back(config_field_at<C>(
        ConfigKey::number_in(std::string("mac_array.throughput.") + kTypeKeys[type], 0, 16,
                             nullptr,
                             std::string("MACs per processing element per cycle on ") +
                                 kTypeKeys[type] + " data")
            .above_min(),
        [type](C& c) -> double& { return c.throughput[type]; }));
  }
  const ConfigTable<C> array = {
      config_enum("mac_array.dataflow", kDataflows, nullptr,
                  "which operand stays in the processing elements (SCALE-Sim's dataflows)",
                  &C::dataflow),
      config_field(ConfigKey::boolean("mac_array.fold_overlap", nullptr,
                                      "true: the next fold's stationary operand loads while "
                                      "the current one streams (fill and drain once per "
                                      "layer); false: every fold pays them (SCALE-Sim)"),
                   &C::fold_overlap),
      config_field(ConfigKey::boolean("mac_array.small_cin_packing", nullptr,
                                      "true: a convolution with fewer input channels than "
                                      "`conv_input` packs Kh x Kw x Cin into the reduction"),
                   &C::small_cin_packing),
      config_field(ConfigKey::unsigned_in("mac_array.pointwise_channels_per_cycle", 0, 4096,
                                          nullptr,
                                          "N > 0: a 1x1 convolution takes at least "
                                          "ceil(Cout / N) cycles per output pixel; 0: no floor"),
                   &C::pointwise_channels_per_cycle),
      config_enum("mac_array.depthwise_mapping", kDepthwiseMappings, nullptr,
                  "how a depthwise convolution uses the array (\"Depthwise\"; channel_per_layer "
                  "is SCALE-Sim's)",
                  &C::depthwise_mapping),
  };
  t.insert(t.end(), array.begin(), array.end());
  using Align = uint32_t NpuAlignment::*;
  const std::pair<const char*, Align> aligned[] = {
      {"conv_input", &NpuAlignment::conv_input},
      {"conv_output", &NpuAlignment::conv_output},
      {"depthwise", &NpuAlignment::depthwise},
      {"other", &NpuAlignment::other},
  };
  const char* const aligned_doc[] = {
      "input channels of a convolution or fully connected layer",
      "output channels of a convolution or fully connected layer",
      "channels of a depthwise convolution", "channels of elementwise and pooling operators"};
  for (size_t type = 0; type < kNpuDataTypes; ++type) {
    for (size_t i = 0; i < 4; ++i) {
      const Align field = aligned[i].second;
      t.push_back(config_field_at<C>(
          ConfigKey::unsigned_in(std::string("alignment.") + kTypeKeys[type] + "." +
                                     aligned[i].first,
                                 1, 4096, nullptr,
                                 std::string(kTypeKeys[type]) + ": " + aligned_doc[i] +
                                     " are padded up to a multiple of this")
              .powers_of_two(),
          [type, field](C& c) -> uint32_t& { return c.alignment[type].*field; }));
    }
  }
  const ConfigTable<C> rest = {
      config_field(ConfigKey::size_in("buffer_per_core", 4096, 1ull << 30, nullptr,
                                      "on-chip buffer of each core"),
                   &C::buffer_bytes),
      config_field(ConfigKey::unsigned_in("buffer_banks", 0, 4096, "0",
                                          "N > 0: the buffer is N equal banks; a convolution "
                                          "tile holds its input and weights in whole banks, "
                                          "the output not at all; 0: one byte budget"),
                   &C::buffer_banks),
      config_field(ConfigKey::boolean("double_buffer", "true",
                                      "false: one copy of a tile's operands, the next tile "
                                      "loads after this one computes"),
                   &C::double_buffer),
      config_field_at<C>(ConfigKey::unsigned_in("dma.bytes_per_cycle", 1, 4096, nullptr,
                                                "issue rate of the DMA engine, bytes per NPU "
                                                "cycle"),
                         [](C& c) -> uint32_t& { return c.dma.bytes_per_cycle; }),
      config_field_at<C>(ConfigKey::unsigned_in("dma.outstanding", 1, 1024, nullptr,
                                                "DMA requests in flight at most"),
                         [](C& c) -> uint32_t& { return c.dma.outstanding; }),
      config_field_at<C>(ConfigKey::unsigned_in("dma.burst_bytes", 1, 4096, nullptr,
                                                "size of one DMA bus request")
                             .powers_of_two(),
                         [](C& c) -> uint32_t& { return c.dma.burst_bytes; }),
      config_field(ConfigKey::boolean("tiling", nullptr,
                                      "false: every layer in one tile, whatever the buffer "
                                      "(SCALE-Sim)"),
                   &C::tiling),
      config_field(ConfigKey::unsigned_in("setup_cycles", 0, kMaxLayerCycles, nullptr,
                                          "per layer: descriptor decode, configuration"),
                   &C::setup_cycles),
      config_field(ConfigKey::unsigned_in("writeback_cycles", 0, kMaxLayerCycles, nullptr,
                                          "per output tile: post-processing latency before its "
                                          "write"),
                   &C::writeback_cycles),
      config_field(ConfigKey::unsigned_in("lut_cycles", 0, kMaxLayerCycles, nullptr,
                                          "per layer with a lookup table: loading the table"),
                   &C::lut_cycles),
      config_enum("core_split", kCoreSplits, nullptr,
                  "how a layer is split across cores: by output channels, or not at all",
                  &C::split_output_channels),
      config_field(ConfigKey::choice_list("operators", names_of(kNpuOperatorNames),
                                          "operator classes the NPU runs (a layer of another "
                                          "is an error)"),
                   &C::operators),
      config_field(ConfigKey::choice_list("fusions", names_of(kNpuFusionNames),
                                          "activations it applies on the output path"),
                   &C::fusions),
  };
  t.insert(t.end(), rest.begin(), rest.end());
  return t;
}

// The optional `energy` map: without it, no MAC and buffer energy figures.
ConfigTable<NpuEnergy> make_npu_energy_keys() {
  ConfigTable<NpuEnergy> t;
  for (size_t type = 0; type < kNpuDataTypes; ++type) {
    t.push_back(config_field_at<NpuEnergy>(
        ConfigKey::number_in(std::string("mac_pj.") + kTypeKeys[type], 0, kMaxEnergyPj, nullptr,
                             std::string("pJ per ") + kTypeKeys[type] + " multiply-accumulate"),
        [type](NpuEnergy& e) -> double& { return e.mac_pj[type]; }));
  }
  t.push_back(config_field(
      ConfigKey::number_in("buffer_pj_per_byte", 0, kMaxEnergyPj, nullptr,
                           "pJ per byte written into or read out of the buffer"),
      &NpuEnergy::buffer_pj_per_byte));
  return t;
}

// Reads `node`: a preset, or a SoC `npu:` section with its preset merged in, so every key
// but `description` and `energy` is required; the caller rejects unknown keys of `node`.
NpuConfig read_npu(const ConfigNode& node) {
  NpuConfig c;
  read_config_table(node, npu_config_keys(), c);
  if (auto energy = node.find("energy")) {
    if (!energy->is_map()) energy->fail("expected a map (mac_pj, buffer_pj_per_byte)");
    read_config_table(*energy, npu_energy_keys(), c.energy);
    energy->reject_unknown_keys();
    c.energy.known = true;
  }
  return c;
}

}  // namespace

const ConfigTable<NpuConfig>& npu_config_keys() {
  static const ConfigTable<NpuConfig> keys = make_npu_keys();
  return keys;
}

const ConfigTable<NpuEnergy>& npu_energy_keys() {
  static const ConfigTable<NpuEnergy> keys = make_npu_energy_keys();
  return keys;
}

void write_npu_key_docs(std::ostream& out) {
  write_config_key_docs(out, "NPU preset key", keys_of(npu_config_keys()));
  write_config_key_docs(out, "`energy` key (optional map)", keys_of(npu_energy_keys()));
}

std::set<std::string> all_npu_operators() {
  std::set<std::string> names;
  for (const char* const* n = kNpuOperatorNames; *n != nullptr; ++n) names.insert(*n);
  return names;
}

const char* to_string(NpuDataType type) {
  return kTypeKeys[static_cast<size_t>(type)];
}

const char* to_string(NpuDataflow dataflow) { return kDataflows.name_of(dataflow); }

const char* to_string(NpuDepthwiseMapping mapping) { return kDepthwiseMappings.name_of(mapping); }

NpuConfig load_npu_preset(const std::string& file) {
  ConfigNode root = ConfigNode::load_file(file);
  if (!root.is_map()) root.fail("an NPU preset must be a map (name, clock_mhz, cores, ...)");
  root.merge_presets(std::filesystem::path(file).parent_path().string());
  NpuConfig config = read_npu(root);
  config.preset_file = file;
  root.reject_unknown_keys();
  return config;
}

NpuConfig load_npu_config(const ConfigNode& section, const std::string& base_dir) {
  if (!section.is_map()) section.fail("expected a map with 'preset' and optional overrides");
  section.at("preset");  // required; merged below (the SoC loader merges every preset first)
  section.merge_presets(base_dir);
  NpuConfig config = read_npu(section);
  config.preset_file = section.preset_file();
  section.reject_unknown_keys();
  return config;
}

}  // namespace socsim
