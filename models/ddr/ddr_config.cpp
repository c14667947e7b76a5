#include "models/ddr/ddr_config.h"

#include <filesystem>
#include <set>
#include <sstream>

namespace socsim {

namespace {

// ---- key tables ------------------------------------------------------------------------
// One row per YAML key, so the preset reader, the override reader and the documentation
// agree on spelling.

// Upper bounds keep every product of the geometry (capacity, banks per channel) and every
// sum of timings far from overflow; docs/ddr.md lists them.
struct GeometryKey {
  const char* key;
  uint32_t DdrGeometry::*field;
  uint32_t max;
};
constexpr GeometryKey kGeometryKeys[] = {
    {"channels", &DdrGeometry::channels, 64},
    {"channel_width_bits", &DdrGeometry::channel_width_bits, 1024},
    {"burst_length", &DdrGeometry::burst_length, 64},
    {"bank_groups", &DdrGeometry::bank_groups, 16},
    {"banks_per_group", &DdrGeometry::banks_per_group, 64},
    {"rows", &DdrGeometry::rows, 1u << 24},
    {"row_bytes", &DdrGeometry::row_bytes, 1u << 20},
};
constexpr uint32_t kMaxTimingTck = 1000000;
constexpr double kMinTckPs = 50, kMaxTckPs = 100000;
constexpr double kMaxIdealLatencyNs = 1e6;

struct TimingKey {
  const char* key;
  uint32_t DdrTimingParams::*field;
  bool required;  // in a preset; optional ones default as documented
};
constexpr TimingKey kTimingKeys[] = {
    {"CL", &DdrTimingParams::cl, true},           {"CWL", &DdrTimingParams::cwl, true},
    {"tRCD", &DdrTimingParams::t_rcd, true},      {"tRP", &DdrTimingParams::t_rp, true},
    {"tRPab", &DdrTimingParams::t_rp_all, false}, {"tRAS", &DdrTimingParams::t_ras, true},
    {"tRC", &DdrTimingParams::t_rc, true},        {"tCCD_S", &DdrTimingParams::t_ccd_s, true},
    {"tCCD_L", &DdrTimingParams::t_ccd_l, true},  {"tRRD_S", &DdrTimingParams::t_rrd_s, true},
    {"tRRD_L", &DdrTimingParams::t_rrd_l, true},  {"tFAW", &DdrTimingParams::t_faw, true},
    {"tWR", &DdrTimingParams::t_wr, true},        {"tRTP", &DdrTimingParams::t_rtp, true},
    {"tWTR_S", &DdrTimingParams::t_wtr_s, true},  {"tWTR_L", &DdrTimingParams::t_wtr_l, true},
    {"tRFC", &DdrTimingParams::t_rfc, true},      {"tREFI", &DdrTimingParams::t_refi, true},
};

struct MappingKey {
  const char* key;
  std::vector<uint32_t> DdrAddressMapping::*field;
};
constexpr MappingKey kMappingKeys[] = {
    {"channel", &DdrAddressMapping::channel}, {"bank_group", &DdrAddressMapping::bank_group},
    {"bank", &DdrAddressMapping::bank},       {"row", &DdrAddressMapping::row},
    {"column", &DdrAddressMapping::column},
};

uint32_t as_u32(const ConfigNode& node) {
  const uint64_t value = node.as_u64();
  if (value > UINT32_MAX) node.fail("value " + std::to_string(value) + " is too large");
  return static_cast<uint32_t>(value);
}

// A mapping entry: a list whose items are bit numbers or inclusive ranges "lo-hi".
std::vector<uint32_t> read_bits(const ConfigNode& node) {
  std::vector<uint32_t> bits;
  for (const ConfigNode& item : node.items()) {
    const std::string text = item.as_string();
    const size_t dash = text.find('-');
    if (dash == std::string::npos) {
      bits.push_back(as_u32(item));
      continue;
    }
    std::optional<uint64_t> lo = parse_u64(text.substr(0, dash));
    std::optional<uint64_t> hi = parse_u64(text.substr(dash + 1));
    if (!lo || !hi || *lo > *hi || *hi > 63) {
      item.fail("expected a bit number or a range 'lo-hi' of bits 0..63, got '" + text + "'");
    }
    for (uint64_t bit = *lo; bit <= *hi; ++bit) bits.push_back(static_cast<uint32_t>(bit));
  }
  return bits;
}

// Reads the DdrConfig fields from `root`: a preset file, or a SoC region with its preset
// merged in (ConfigNode::merge_presets), so every field is present except documented defaults.
void read_fields(const ConfigNode& root, DdrConfig& config) {
  auto note = [&](const std::string& key, const ConfigNode& node) {
    config.origin[key] = node.where();
  };
  config.name = root.at("name").as_string();
  const ConfigNode model = root.at("model");
  const std::string kind = model.as_string();
  if (kind == "jedec") {
    config.model = DdrModelKind::kJedec;
  } else if (kind == "ideal") {
    config.model = DdrModelKind::kIdeal;
  } else {
    model.fail("expected 'jedec' or 'ideal', got '" + kind + "'");
  }
  note("model", model);

  if (config.model == DdrModelKind::kIdeal) {
    const ConfigNode latency = root.at("latency_ns");
    config.ideal_latency_ns = latency.as_double();
    note("latency_ns", latency);
    const ConfigNode capacity = root.at("capacity");
    config.ideal_capacity = capacity.as_size();
    note("capacity", capacity);
    return;  // geometry, timing and mapping keys stay unread: unknown for this model
  }

  const ConfigNode tck = root.at("tck_ps");
  config.tck_ps = tck.as_double();
  note("tck_ps", tck);

  const ConfigNode geometry = root.at("geometry");
  for (const GeometryKey& k : kGeometryKeys) {
    const ConfigNode node = geometry.at(k.key);
    config.geometry.*k.field = as_u32(node);
    note(std::string("geometry.") + k.key, node);
  }
  geometry.reject_unknown_keys();

  const ConfigNode timing = root.at("timing");
  for (const TimingKey& k : kTimingKeys) {
    auto node = k.required ? std::optional(timing.at(k.key)) : timing.find(k.key);
    if (!node) continue;
    config.timing.*k.field = as_u32(*node);
    note(std::string("timing.") + k.key, *node);
  }
  timing.reject_unknown_keys();
  if (!timing.has("tRPab")) {
    config.timing.t_rp_all = config.timing.t_rp;
    timing.note_default("tRPab", std::to_string(config.timing.t_rp_all));
  }

  const ConfigNode mapping = root.at("mapping");
  for (const MappingKey& k : kMappingKeys) {
    auto node = mapping.find(k.key);
    if (!node) continue;
    config.mapping.*k.field = read_bits(*node);
    note(std::string("mapping.") + k.key, *node);
  }
  mapping.reject_unknown_keys();
}

[[noreturn]] void fail_at(const DdrConfig& config, const std::string& key,
                          const std::string& message) {
  auto it = config.origin.find(key);
  const std::string where = it != config.origin.end()
                                ? it->second
                                : "DDR config '" + config.name + "': key '" + key + "'";
  throw ConfigError(where + ": " + message);
}

bool from_preset(const DdrConfig& config, const std::string& key) {
  auto it = config.origin.find(key);
  return it == config.origin.end() || config.preset_file.empty() ||
         it->second.compare(0, config.preset_file.size(), config.preset_file) == 0;
}

bool is_power_of_two(uint64_t value) {
  return value != 0 && (value & (value - 1)) == 0;
}

uint32_t log2_exact(uint64_t value) {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < value) ++bits;
  return bits;
}

void validate_geometry(const DdrConfig& c) {
  for (const GeometryKey& k : kGeometryKeys) {
    const uint32_t value = c.geometry.*k.field;
    const std::string key = std::string("geometry.") + k.key;
    if (value == 0) fail_at(c, key, "must not be zero");
    if (value > k.max) {
      fail_at(c, key,
              "must be at most " + std::to_string(k.max) + ", got " + std::to_string(value));
    }
    const bool width = k.field == &DdrGeometry::channel_width_bits;
    const bool burst = k.field == &DdrGeometry::burst_length;
    if (!width && !burst && !is_power_of_two(value)) {
      fail_at(c, key, "must be a power of two, got " + std::to_string(value));
    }
  }
  const DdrGeometry& g = c.geometry;
  if (g.channel_width_bits % 8 != 0) {
    fail_at(c, "geometry.channel_width_bits", "must be a multiple of 8");
  }
  if (g.burst_length % 2 != 0) {
    fail_at(c, "geometry.burst_length", "must be even (two transfers per tCK)");
  }
  if (!is_power_of_two(g.burst_bytes())) {
    fail_at(c, "geometry.burst_length",
            "a burst (channel_width_bits / 8 * burst_length) must be a power of two bytes");
  }
  if (g.row_bytes < g.burst_bytes()) {
    fail_at(c, "geometry.row_bytes",
            "must hold at least one burst (" + std::to_string(g.burst_bytes()) + " bytes)");
  }
  if (g.capacity_bytes() > (uint64_t{1} << 48)) {
    fail_at(c, "geometry.rows", "the device would exceed 256 TiB");
  }
}

void validate_timing(const DdrConfig& c) {
  if (!(c.tck_ps >= kMinTckPs && c.tck_ps <= kMaxTckPs)) {
    fail_at(c, "tck_ps", "must be in [50, 100000] ps");
  }
  for (const TimingKey& k : kTimingKeys) {
    const uint32_t value = c.timing.*k.field;
    if (value == 0) fail_at(c, std::string("timing.") + k.key, "must not be zero");
    if (value > kMaxTimingTck) {
      fail_at(c, std::string("timing.") + k.key, "must be at most 1000000 tCK");
    }
  }
  const DdrTimingParams& t = c.timing;
  auto need = [&](bool ok, const char* key, const std::string& message) {
    if (!ok) fail_at(c, std::string("timing.") + key, message);
  };
  auto s = [](uint32_t v) { return std::to_string(v); };
  need(t.t_rc >= t.t_ras + t.t_rp, "tRC",
       "tRC (" + s(t.t_rc) + ") must be >= tRAS + tRP (" + s(t.t_ras) + " + " + s(t.t_rp) + ")");
  need(t.t_ras >= t.t_rcd, "tRAS",
       "tRAS (" + s(t.t_ras) + ") must be >= tRCD (" + s(t.t_rcd) + ")");
  need(t.t_ccd_l >= t.t_ccd_s, "tCCD_L", "tCCD_L must be >= tCCD_S");
  need(t.t_rrd_l >= t.t_rrd_s, "tRRD_L", "tRRD_L must be >= tRRD_S");
  need(t.t_wtr_l >= t.t_wtr_s, "tWTR_L", "tWTR_L must be >= tWTR_S");
  need(t.t_faw >= t.t_rrd_s, "tFAW", "tFAW must be >= tRRD_S");
  need(t.t_refi > t.t_rfc + t.t_rp_all, "tREFI",
       "tREFI (" + s(t.t_refi) + ") must exceed tRFC + tRPab (" + s(t.t_rfc) + " + " +
           s(t.t_rp_all) + ")");
  need(t.cl > t.cwl, "CL", "CL must be greater than CWL");
}

void validate_mapping(const DdrConfig& c) {
  const DdrGeometry& g = c.geometry;
  const uint32_t offset_bits = log2_exact(g.burst_bytes());
  const uint32_t capacity_bits = log2_exact(g.capacity_bytes());
  const struct {
    const char* key;
    const std::vector<uint32_t>& bits;
    uint64_t count;
  } fields[] = {
      {"channel", c.mapping.channel, g.channels},
      {"bank_group", c.mapping.bank_group, g.bank_groups},
      {"bank", c.mapping.bank, g.banks_per_group},
      {"row", c.mapping.row, g.rows},
      {"column", c.mapping.column, g.row_bytes / g.burst_bytes()},
  };
  std::map<uint32_t, std::string> owner;
  for (const auto& f : fields) {
    const std::string key = std::string("mapping.") + f.key;
    const uint32_t need = log2_exact(f.count);
    if (f.bits.size() != need) {
      fail_at(c, key,
              "needs " + std::to_string(need) + " bits for " + std::to_string(f.count) +
                  " values, got " + std::to_string(f.bits.size()));
    }
    for (uint32_t bit : f.bits) {
      if (bit < offset_bits) {
        fail_at(c, key,
                "bit " + std::to_string(bit) + " lies inside a burst (bits 0.." +
                    std::to_string(offset_bits - 1) + " are the byte in a " +
                    std::to_string(g.burst_bytes()) + "-byte burst)");
      }
      if (bit >= capacity_bits) {
        fail_at(c, key,
                "bit " + std::to_string(bit) + " is beyond the device's " +
                    std::to_string(capacity_bits) + "-bit address space");
      }
      auto [it, fresh] = owner.emplace(bit, f.key);
      if (!fresh) {
        // Blame an overriding field rather than the preset it collides with.
        std::string blamed = key;
        std::string other = "mapping." + it->second;
        if (from_preset(c, key) && !from_preset(c, other)) std::swap(blamed, other);
        fail_at(c, blamed, "bit " + std::to_string(bit) + " is also used by " + other);
      }
    }
  }
}

}  // namespace

uint64_t DdrConfig::capacity_bytes() const {
  return model == DdrModelKind::kIdeal ? ideal_capacity : geometry.capacity_bytes();
}

double DdrConfig::peak_bytes_per_s() const {
  if (model == DdrModelKind::kIdeal) return 0;
  // Two transfers per tCK on each channel's data bus.
  return 2.0 * geometry.channels * (geometry.channel_width_bits / 8) / (tck_ps * 1e-12);
}

void validate_ddr_config(const DdrConfig& config) {
  if (config.model == DdrModelKind::kIdeal) {
    if (!(config.ideal_latency_ns >= 0 && config.ideal_latency_ns <= kMaxIdealLatencyNs)) {
      fail_at(config, "latency_ns", "must be in [0, 1000000] ns");
    }
    if (config.ideal_capacity == 0) fail_at(config, "capacity", "must not be zero");
    if (config.ideal_capacity > (uint64_t{1} << 48)) {
      fail_at(config, "capacity", "must be at most 256 TiB");
    }
    return;
  }
  validate_geometry(config);
  validate_timing(config);
  validate_mapping(config);
}

void check_ddr_region_size(const DdrConfig& config, uint64_t size_bytes, const std::string& where) {
  if (size_bytes == 0) throw ConfigError(where + ": the DDR region size must not be zero");
  if (size_bytes > config.capacity_bytes()) {
    std::ostringstream msg;
    msg << where << ": the DDR region (" << size_bytes << " bytes) is larger than the '"
        << config.name << "' device (" << config.capacity_bytes() << " bytes)";
    throw ConfigError(msg.str());
  }
}

DdrConfig load_ddr_preset(const std::string& file, const std::vector<std::string>& overrides) {
  ConfigNode root = ConfigNode::load_file(file);
  resolve_config(root, overrides, std::filesystem::path(file).parent_path().string());
  DdrConfig config;
  config.preset_file = file;
  read_fields(root, config);
  root.reject_unknown_keys();
  validate_ddr_config(config);
  return config;
}

DdrConfig load_ddr_config(const ConfigNode& node, const std::string& base_dir) {
  node.at("preset");  // required; merged below (the SoC loader merges every preset first)
  node.merge_presets(base_dir);
  DdrConfig config;
  config.preset_file = node.preset_file();
  read_fields(node, config);
  validate_ddr_config(config);
  if (auto size = node.find("size")) check_ddr_region_size(config, size->as_size(), size->where());
  return config;
}

}  // namespace socsim
