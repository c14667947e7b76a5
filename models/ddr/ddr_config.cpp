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
  bool required;  // optional ones keep the DdrGeometry default
  uint32_t max;
};
constexpr GeometryKey kGeometryKeys[] = {
    {"channels", &DdrGeometry::channels, true, 64},
    {"ranks", &DdrGeometry::ranks, false, 8},
    {"channel_width_bits", &DdrGeometry::channel_width_bits, true, 1024},
    {"burst_length", &DdrGeometry::burst_length, true, 64},
    {"data_rate", &DdrGeometry::data_rate, false, 16},
    {"bank_groups", &DdrGeometry::bank_groups, true, 16},
    {"banks_per_group", &DdrGeometry::banks_per_group, true, 64},
    {"rows", &DdrGeometry::rows, true, 1u << 24},
    {"row_bytes", &DdrGeometry::row_bytes, true, 1u << 20},
    {"banks_per_refpb", &DdrGeometry::banks_per_refpb, false, 8},
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
    {"CL", &DdrTimingParams::cl, true},
    {"CWL", &DdrTimingParams::cwl, true},
    {"tRCD", &DdrTimingParams::t_rcd, true},
    {"tRP", &DdrTimingParams::t_rp, true},
    {"tRPab", &DdrTimingParams::t_rp_all, false},
    {"tRAS", &DdrTimingParams::t_ras, true},
    {"tRC", &DdrTimingParams::t_rc, true},
    {"tCCD_S", &DdrTimingParams::t_ccd_s, true},
    {"tCCD_L", &DdrTimingParams::t_ccd_l, true},
    {"tRRD_S", &DdrTimingParams::t_rrd_s, true},
    {"tRRD_L", &DdrTimingParams::t_rrd_l, true},
    {"tFAW", &DdrTimingParams::t_faw, true},
    {"tWR", &DdrTimingParams::t_wr, true},
    {"tRTP", &DdrTimingParams::t_rtp, true},
    {"tWTR_S", &DdrTimingParams::t_wtr_s, true},
    {"tWTR_L", &DdrTimingParams::t_wtr_l, true},
    {"tRFC", &DdrTimingParams::t_rfc, true},
    {"tREFI", &DdrTimingParams::t_refi, true},
    {"tRCDWR", &DdrTimingParams::t_rcd_wr, false},
    {"tCCD_S_WR", &DdrTimingParams::t_ccd_s_wr, false},
    {"tCCD_L_WR", &DdrTimingParams::t_ccd_l_wr, false},
    {"tPPD", &DdrTimingParams::t_ppd, false},
    {"tRTRS", &DdrTimingParams::t_rtrs, false},
    {"tRFCpb", &DdrTimingParams::t_rfc_pb, false},
    {"tREFIpb", &DdrTimingParams::t_refi_pb, false},
    {"tPBR2PBR", &DdrTimingParams::t_pbr2pbr, false},
    {"tPBR2ACT", &DdrTimingParams::t_pbr2act, false},
};

// Optional timings that default to another one (or a constant) when the configuration leaves
// them out (read after the presets are merged, so overriding tRCD moves a defaulted tRCDWR).
struct TimingDefault {
  uint32_t DdrTimingParams::*field;
  uint32_t DdrTimingParams::*from;  // nullptr: `constant`
  uint32_t constant;
};
constexpr TimingDefault kTimingDefaults[] = {
    {&DdrTimingParams::t_rp_all, &DdrTimingParams::t_rp, 0},
    {&DdrTimingParams::t_rcd_wr, &DdrTimingParams::t_rcd, 0},
    {&DdrTimingParams::t_ccd_s_wr, &DdrTimingParams::t_ccd_s, 0},
    {&DdrTimingParams::t_ccd_l_wr, &DdrTimingParams::t_ccd_l, 0},
    {&DdrTimingParams::t_rtrs, nullptr, 2},
};

struct RailKey {
  const char* key;
  double DdrPowerRail::*field;
  bool required;
};
constexpr RailKey kRailKeys[] = {
    {"voltage", &DdrPowerRail::voltage, true}, {"idd0", &DdrPowerRail::idd0, true},
    {"idd2n", &DdrPowerRail::idd2n, true},     {"idd3n", &DdrPowerRail::idd3n, true},
    {"idd4r", &DdrPowerRail::idd4r, true},     {"idd4w", &DdrPowerRail::idd4w, true},
    {"idd5b", &DdrPowerRail::idd5b, true},     {"idd5pb", &DdrPowerRail::idd5pb, false},
};

struct MappingKey {
  const char* key;
  std::vector<uint32_t> DdrAddressMapping::*field;
};
constexpr MappingKey kMappingKeys[] = {
    {"channel", &DdrAddressMapping::channel},
    {"rank", &DdrAddressMapping::rank},
    {"bank_group", &DdrAddressMapping::bank_group},
    {"bank", &DdrAddressMapping::bank},
    {"row", &DdrAddressMapping::row},
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

void read_energy(const ConfigNode& node, DdrConfig& config);

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
    auto node = k.required ? std::optional(geometry.at(k.key)) : geometry.find(k.key);
    if (!node) continue;
    config.geometry.*k.field = as_u32(*node);
    note(std::string("geometry.") + k.key, *node);
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
  for (const TimingDefault& d : kTimingDefaults) {
    const TimingKey* key = nullptr;
    for (const TimingKey& k : kTimingKeys) key = k.field == d.field ? &k : key;
    if (timing.has(key->key)) continue;
    uint32_t& value = config.timing.*d.field;
    value = d.from != nullptr ? config.timing.*d.from : d.constant;
    timing.note_default(key->key, std::to_string(value));
  }

  const ConfigNode mapping = root.at("mapping");
  for (const MappingKey& k : kMappingKeys) {
    auto node = mapping.find(k.key);
    if (!node) continue;
    config.mapping.*k.field = read_bits(*node);
    note(std::string("mapping.") + k.key, *node);
  }
  mapping.reject_unknown_keys();

  if (auto controller = root.find("controller")) {
    read_ddr_controller_config(*controller, config.controller, config.origin);
  }
  if (auto energy = root.find("energy")) read_energy(*energy, config);
}

// The `energy` map of a preset: devices per rank and one entry per supply rail.
void read_energy(const ConfigNode& node, DdrConfig& config) {
  const ConfigNode devices = node.at("devices");
  config.energy.devices = as_u32(devices);
  config.origin["energy.devices"] = devices.where();
  for (const auto& [name, rail_node] : node.at("rails").entries()) {
    DdrPowerRail rail;
    rail.name = name;
    for (const RailKey& k : kRailKeys) {
      auto value = k.required ? std::optional(rail_node.at(k.key)) : rail_node.find(k.key);
      if (!value) continue;
      rail.*k.field = value->as_double();
      config.origin["energy.rails." + name + "." + k.key] = value->where();
    }
    rail_node.reject_unknown_keys();
    config.energy.rails.push_back(rail);
  }
  node.reject_unknown_keys();
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
    const bool rate = k.field == &DdrGeometry::data_rate;
    if (!width && !burst && !rate && !is_power_of_two(value)) {
      fail_at(c, key, "must be a power of two, got " + std::to_string(value));
    }
  }
  const DdrGeometry& g = c.geometry;
  if (g.channel_width_bits % 8 != 0) {
    fail_at(c, "geometry.channel_width_bits", "must be a multiple of 8");
  }
  if (g.burst_length % g.data_rate != 0) {
    fail_at(
        c, "geometry.burst_length",
        "must be a multiple of data_rate (" + std::to_string(g.data_rate) + " transfers per tCK)");
  }
  if (g.banks_per_refpb > g.banks_per_rank()) {
    fail_at(c, "geometry.banks_per_refpb", "must not exceed the banks of a rank");
  }
  if (g.channels > kMaxDdrChannels) {
    fail_at(c, "geometry.channels", "at most " + std::to_string(kMaxDdrChannels) + " channels");
  }
  if (g.banks_per_channel() > kMaxDdrBanksPerChannel) {
    fail_at(c, "geometry.banks_per_group",
            "ranks x bank_groups x banks_per_group must be at most " +
                std::to_string(kMaxDdrBanksPerChannel) + " per channel, got " +
                std::to_string(g.banks_per_channel()));
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
    const bool defaulted =
        k.field == &DdrTimingParams::t_rp_all || k.field == &DdrTimingParams::t_rcd_wr ||
        k.field == &DdrTimingParams::t_ccd_s_wr || k.field == &DdrTimingParams::t_ccd_l_wr;
    const uint32_t value = c.timing.*k.field;
    if ((k.required || defaulted) && value == 0) {
      fail_at(c, std::string("timing.") + k.key, "must not be zero");
    }
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
  need(t.t_ras >= t.t_rcd_wr, "tRCDWR", "tRAS must be >= tRCDWR");
  need(t.t_ccd_l_wr >= t.t_ccd_s_wr, "tCCD_L_WR", "tCCD_L_WR must be >= tCCD_S_WR");
  const bool any_pb = t.t_rfc_pb || t.t_refi_pb || t.t_pbr2pbr || t.t_pbr2act;
  const bool all_pb = t.t_rfc_pb && t.t_refi_pb && t.t_pbr2pbr && t.t_pbr2act;
  if (any_pb && !all_pb) {
    fail_at(c, "timing.tRFCpb",
            "per-bank refresh needs all of tRFCpb, tREFIpb, tPBR2PBR, tPBR2ACT");
  }
  if (all_pb) {
    need(t.t_refi_pb > t.t_pbr2pbr && t.t_refi_pb > t.t_rp, "tREFIpb",
         "tREFIpb must exceed tPBR2PBR and tRP");
    const uint32_t sets = c.geometry.banks_per_rank() / c.geometry.banks_per_refpb;
    need(uint64_t{t.t_refi_pb} * sets <= t.t_refi, "tREFIpb",
         "tREFIpb x REFpb commands per round (" + s(t.t_refi_pb) + " x " + s(sets) +
             ") must not exceed tREFI (" + s(t.t_refi) + "): every bank once per tREFI");
  }
}

void validate_controller(const DdrConfig& c) {
  check_ddr_controller_config(c.controller, [&](const std::string& key, const std::string& msg) {
    fail_at(c, "controller." + key, msg);
  });
  if (c.controller.refresh == DdrRefreshMode::kPerBank && c.timing.t_rfc_pb == 0) {
    fail_at(c, "controller.refresh",
            "per_bank refresh needs the device's tRFCpb, tREFIpb, tPBR2PBR and tPBR2ACT");
  }
}

void validate_energy(const DdrConfig& c) {
  if (c.energy.rails.empty()) return;
  if (c.energy.devices == 0) fail_at(c, "energy.devices", "must not be zero");
  const DdrTimingParams& t = c.timing;
  for (const DdrPowerRail& r : c.energy.rails) {
    const std::string key = "energy.rails." + r.name;
    if (!(r.voltage > 0)) fail_at(c, key + ".voltage", "must be greater than zero");
    for (const RailKey& k : kRailKeys) {
      if (k.required && r.*k.field < 0) fail_at(c, key + "." + k.key, "must not be negative");
    }
    // Activate-precharge charge above standby (DRAMPower): must not be negative.
    const double act = r.idd0 * t.t_rc - r.idd3n * t.t_ras - r.idd2n * (t.t_rc - t.t_ras);
    if (act < 0) {
      fail_at(c, key + ".idd0", "IDD0 x tRC must be at least IDD3N x tRAS + IDD2N x (tRC - tRAS)");
    }
    for (const auto& [name, value] : {std::pair<const char*, double>{"idd4r", r.idd4r},
                                      {"idd4w", r.idd4w},
                                      {"idd5b", r.idd5b}}) {
      if (value < r.idd3n) fail_at(c, key + "." + name, std::string(name) + " must be >= idd3n");
    }
    if (r.idd5pb >= 0 && r.idd5pb < r.idd3n) fail_at(c, key + ".idd5pb", "idd5pb must be >= idd3n");
  }
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
      {"rank", c.mapping.rank, g.ranks},
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
  // data_rate transfers per tCK on each channel's data bus.
  return static_cast<double>(geometry.data_rate) * geometry.channels *
         (geometry.channel_width_bits / 8) / (tck_ps * 1e-12);
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
  validate_controller(config);
  validate_energy(config);
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
