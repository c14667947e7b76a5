#include "models/ddr/ddr_config.h"

#include <filesystem>
#include <set>
#include <sstream>

namespace socsim {

namespace {

// ---- key tables ------------------------------------------------------------------------
// One row per YAML key: the reader, the range checks of validate_ddr_config() and the
// documentation (docs/ddr.md) read the same table.

const ConfigEnum<DdrModelKind> kModels = {{"jedec", DdrModelKind::kJedec},
                                          {"ideal", DdrModelKind::kIdeal}};

// Upper bounds keep every product of the geometry (capacity, banks per channel) and every
// sum of timings far from overflow.
constexpr uint32_t kMaxTimingTck = 1000000;
constexpr double kMinTckPs = 50, kMaxTckPs = 100000;
constexpr double kMaxIdealLatencyNs = 1e6;
constexpr uint64_t kMaxCapacity = uint64_t{1} << 48;
constexpr uint64_t kMaxMappingBit = 63;
constexpr double kMaxVoltage = 100, kMaxCurrentMa = 1e6;

ConfigTable<DdrConfig> make_common_keys() {
  return {
      config_field(ConfigKey::text("name", nullptr, "shown in reports"), &DdrConfig::name),
      config_enum("model", kModels, nullptr,
                  "jedec: channels, banks, rows, JEDEC timings, refresh; ideal: fixed latency, "
                  "unlimited bandwidth (only `latency_ns` and `capacity` follow)",
                  &DdrConfig::model),
  };
}

ConfigTable<DdrConfig> make_ideal_keys() {
  return {
      config_field(ConfigKey::number_in("latency_ns", 0, kMaxIdealLatencyNs, nullptr,
                                        "ideal: the latency of every request"),
                   &DdrConfig::ideal_latency_ns),
      config_field(ConfigKey::size_in("capacity", 1, kMaxCapacity, nullptr,
                                      "ideal: addressable bytes"),
                   &DdrConfig::ideal_capacity),
  };
}

ConfigTable<DdrConfig> make_jedec_keys() {
  using C = DdrConfig;
  ConfigTable<C> t = {config_field(
      ConfigKey::number_in("tck_ps", kMinTckPs, kMaxTckPs, nullptr, "memory clock period"),
      &C::tck_ps)};
  // geometry: powers of two but for the bus width, the burst length and the data rate.
  auto geometry = [&](const char* key, uint64_t max, const char* fallback, bool power,
                      uint32_t DdrGeometry::*field, const char* doc) {
    ConfigKey k = ConfigKey::unsigned_in(std::string("geometry.") + key, 1, max, fallback, doc);
    k.power_of_two = power;
    t.push_back(config_field_at<C>(k, [field](C& c) -> uint32_t& { return c.geometry.*field; }));
  };
  using G = DdrGeometry;
  geometry("channels", kMaxDdrChannels, nullptr, true, &G::channels,
           "independent channels, each with its own data bus (the controller's limit: 16)");
  geometry("ranks", 8, "1", true, &G::ranks, "ranks per channel (they share its buses)");
  geometry("channel_width_bits", 1024, nullptr, false, &G::channel_width_bits,
           "data bus width of one channel, a multiple of 8");
  geometry("burst_length", 64, nullptr, false, &G::burst_length,
           "BL: transfers per burst; a burst is channel_width_bits / 8 x BL bytes, a power of "
           "two");
  geometry("data_rate", 16, "2", false, &G::data_rate,
           "transfers per tCK (2: DDR; LPDDR5 counted in CK: 8); divides burst_length");
  geometry("bank_groups", 16, nullptr, true, &G::bank_groups,
           "bank groups per rank (1 for devices without)");
  geometry("banks_per_group", 64, nullptr, true, &G::banks_per_group,
           "banks in each bank group (ranks x bank_groups x banks_per_group <= 64)");
  geometry("rows", 1u << 24, nullptr, true, &G::rows, "rows per bank");
  geometry("row_bytes", 1u << 20, nullptr, true, &G::row_bytes,
           "row buffer (page) across the channel, at least one burst");
  geometry("banks_per_refpb", 8, "1", true, &G::banks_per_refpb,
           "banks one REFpb refreshes: b, b + banks/n, ... (LPDDR5 in bank-group mode: 2)");

  // timing, in tCK. `required`: else a default (another key's value, or a constant).
  using T = DdrTimingParams;
  auto timing = [&](const char* key, uint32_t T::*field, const char* doc,
                    const char* fallback = nullptr, const char* from = nullptr) {
    const bool zero = fallback != nullptr && std::string(fallback) == "0";
    ConfigKey k = ConfigKey::unsigned_in(std::string("timing.") + key,
                                         zero || fallback != nullptr ? 0 : 1, kMaxTimingTck,
                                         fallback, doc);
    if (from != nullptr) k.min_u = 1, k.defaults_to(from);
    t.push_back(config_field_at<C>(k, [field](C& c) -> uint32_t& { return c.timing.*field; }));
  };
  timing("CL", &T::cl, "read command to first data");
  timing("CWL", &T::cwl, "write command to first data; below CL");
  timing("tRCD", &T::t_rcd, "activate to read/write");
  timing("tRP", &T::t_rp, "precharge of one bank");
  timing("tRPab", &T::t_rp_all, "precharge of all banks (before an all-bank refresh)", nullptr,
         "tRP");
  timing("tRAS", &T::t_ras, "activate to precharge, same bank; at least tRCD");
  timing("tRC", &T::t_rc, "activate to activate, same bank; at least tRAS + tRP");
  timing("tCCD_S", &T::t_ccd_s, "column command to column command, other bank group");
  timing("tCCD_L", &T::t_ccd_l, "column command to column command, same bank group");
  timing("tRRD_S", &T::t_rrd_s, "activate to activate, other bank group");
  timing("tRRD_L", &T::t_rrd_l, "activate to activate, same bank group");
  timing("tFAW", &T::t_faw, "window holding at most four activates");
  timing("tWR", &T::t_wr, "end of write data to precharge");
  timing("tRTP", &T::t_rtp, "read to precharge");
  timing("tWTR_S", &T::t_wtr_s, "end of write data to read, other bank group");
  timing("tWTR_L", &T::t_wtr_l, "end of write data to read, same bank group");
  timing("tRFC", &T::t_rfc, "all-bank refresh cycle time (the rank is blocked)");
  timing("tREFI", &T::t_refi, "all-bank refresh interval; above tRFC + tRPab");
  timing("tRCDWR", &T::t_rcd_wr, "activate to write (HBM2)", nullptr, "tRCD");
  timing("tCCD_S_WR", &T::t_ccd_s_wr, "write to write, other bank group (DDR5)", nullptr,
         "tCCD_S");
  timing("tCCD_L_WR", &T::t_ccd_l_wr, "write to write, same bank group (DDR5)", nullptr,
         "tCCD_L");
  timing("tPPD", &T::t_ppd, "precharge to precharge in a rank (LPDDR)", "0");
  timing("tRTRS", &T::t_rtrs, "data-bus gap when bursts switch ranks", "2");
  timing("tRFCpb", &T::t_rfc_pb, "per-bank refresh: the bank is blocked (0: none; the four "
         "per-bank figures come all or none)", "0");
  timing("tREFIpb", &T::t_refi_pb, "interval between two REFpb commands of a rank", "0");
  timing("tPBR2PBR", &T::t_pbr2pbr, "REFpb to REFpb, other bank", "0");
  timing("tPBR2ACT", &T::t_pbr2act, "REFpb to ACT, other bank", "0");

  using M = DdrAddressMapping;
  auto mapping = [&](const char* key, std::vector<uint32_t> M::*field, const char* doc) {
    t.push_back(config_field_at<C>(
        ConfigKey::bit_list(std::string("mapping.") + key, kMaxMappingBit, doc).may_be_absent(),
        [field](C& c) -> std::vector<uint32_t>& { return c.mapping.*field; }));
  };
  mapping("channel", &M::channel, "address bits of the channel (none for one channel)");
  mapping("rank", &M::rank, "address bits of the rank (none for one rank)");
  mapping("bank_group", &M::bank_group, "address bits of the bank group");
  mapping("bank", &M::bank, "address bits of the bank in its group");
  mapping("row", &M::row, "address bits of the row");
  mapping("column", &M::column, "address bits selecting a burst inside the row");
  return t;
}

ConfigTable<DdrEnergyParams> make_energy_keys() {
  return {config_field(ConfigKey::unsigned_in("devices", 1, 65536, nullptr,
                                              "devices per rank (the rails' currents are per "
                                              "device)"),
                       &DdrEnergyParams::devices)};
}

ConfigTable<DdrPowerRail> make_rail_keys() {
  using R = DdrPowerRail;
  auto current = [](const char* key, double R::*field, const char* doc) {
    return config_field(ConfigKey::number_in(key, 0, kMaxCurrentMa, nullptr, doc), field);
  };
  ConfigTable<R> t = {
      config_field(ConfigKey::number_in("voltage", 0, kMaxVoltage, nullptr, "supply voltage, V")
                       .above_min(),
                   &R::voltage),
      current("idd0", &R::idd0, "mA, one bank activate-precharge cycling at tRC"),
      current("idd2n", &R::idd2n, "mA, precharge standby (all banks closed)"),
      current("idd3n", &R::idd3n, "mA, active standby (a bank open)"),
      current("idd4r", &R::idd4r, "mA, burst read; at least idd3n"),
      current("idd4w", &R::idd4w, "mA, burst write; at least idd3n"),
      current("idd5b", &R::idd5b, "mA, all-bank refresh burst (during tRFC); at least idd3n"),
  };
  ConfigField<R> pb = current("idd5pb", &R::idd5pb,
                              "mA, per-bank refresh burst (during tRFCpb); at least idd3n; "
                              "absent: the all-bank refresh energy / banks");
  pb.key.may_be_absent();
  pb.number = nullptr;  // absent is stored as -1
  t.push_back(pb);
  return t;
}

const ConfigTable<DdrConfig>& common_keys() {
  static const ConfigTable<DdrConfig> keys = make_common_keys();
  return keys;
}
const ConfigTable<DdrConfig>& ideal_keys() {
  static const ConfigTable<DdrConfig> keys = make_ideal_keys();
  return keys;
}
const ConfigTable<DdrConfig>& jedec_keys() {
  static const ConfigTable<DdrConfig> keys = make_jedec_keys();
  return keys;
}
const ConfigTable<DdrEnergyParams>& energy_keys() {
  static const ConfigTable<DdrEnergyParams> keys = make_energy_keys();
  return keys;
}
const ConfigTable<DdrPowerRail>& rail_keys() {
  static const ConfigTable<DdrPowerRail> keys = make_rail_keys();
  return keys;
}

// The `energy` map of a preset: devices per rank and one entry per supply rail.
void read_energy(const ConfigNode& node, DdrConfig& config) {
  if (!node.is_map()) node.fail("expected a map (devices, rails)");
  read_config_table(node, energy_keys(), config.energy, &config.origin, "energy.");
  const ConfigNode rails = node.at("rails");
  if (!rails.is_map()) rails.fail("expected a map of supply name: currents");
  for (const auto& [name, rail_node] : rails.entries()) {
    if (!rail_node.is_map()) rail_node.fail("expected a map (voltage, idd0, ...)");
    DdrPowerRail rail;
    rail.name = name;
    read_config_table(rail_node, rail_keys(), rail, &config.origin, "energy.rails." + name + ".");
    rail_node.reject_unknown_keys();
    config.energy.rails.push_back(rail);
  }
  node.reject_unknown_keys();
}

// Reads the DdrConfig fields from `root`: a preset file, or a SoC region with its preset
// merged in (ConfigNode::merge_presets). The caller rejects unknown keys of `root` itself.
void read_ddr(const ConfigNode& root, DdrConfig& config) {
  read_config_table(root, common_keys(), config, &config.origin);
  if (config.model == DdrModelKind::kIdeal) {
    // Geometry, timing and mapping keys stay unread: unknown for this model.
    read_config_table(root, ideal_keys(), config, &config.origin);
    return;
  }
  read_config_table(root, jedec_keys(), config, &config.origin);
  read_ddr_controller_config(root.section("controller"), config.controller, config.origin);
  if (auto energy = root.find("energy")) read_energy(*energy, config);
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

// The ranges of a table's keys, for configurations built in code (read ones passed them).
template <typename T>
void check_ranges(const DdrConfig& c, const ConfigTable<T>& table, const T& config,
                  const std::string& prefix = "") {
  check_config_table(table, config, [&](const std::string& key, const std::string& message) {
    fail_at(c, prefix + key, message);
  });
}

void validate_geometry(const DdrConfig& c) {
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
  check_ranges(c, energy_keys(), c.energy, "energy.");
  const DdrTimingParams& t = c.timing;
  for (const DdrPowerRail& r : c.energy.rails) {
    const std::string key = "energy.rails." + r.name;
    check_ranges(c, rail_keys(), r, key + ".");
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
    check_ranges(config, ideal_keys(), config);
    return;
  }
  check_ranges(config, jedec_keys(), config);
  validate_geometry(config);
  validate_timing(config);
  validate_mapping(config);
  validate_controller(config);
  validate_energy(config);
}

void write_ddr_key_docs(std::ostream& out) {
  std::vector<ConfigKey> jedec = keys_of(common_keys());
  for (const ConfigKey& key : keys_of(jedec_keys())) jedec.push_back(key);
  write_config_key_docs(out, "DDR preset key (`model: jedec`)", jedec);
  write_config_key_docs(out, "`model: ideal` key (besides `name`, `model`)",
                        keys_of(ideal_keys()));
  write_config_key_docs(out, "`controller` key (optional map)",
                        keys_of(ddr_controller_config_keys()));
  write_config_key_docs(out, "`energy` key (optional map)", keys_of(energy_keys()));
  write_config_key_docs(out, "`energy.rails.<supply>` key (one map per supply, per device)",
                        keys_of(rail_keys()));
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
  if (!root.is_map()) root.fail("a DDR preset must be a map (name, model, tck_ps, ...)");
  DdrConfig config;
  config.preset_file = file;
  read_ddr(root, config);
  root.reject_unknown_keys();
  validate_ddr_config(config);
  return config;
}

DdrConfig load_ddr_config(const ConfigNode& node, const std::string& base_dir) {
  node.at("preset");  // required; merged below (the SoC loader merges every preset first)
  node.merge_presets(base_dir);
  DdrConfig config;
  config.preset_file = node.preset_file();
  read_ddr(node, config);
  validate_ddr_config(config);
  if (auto size = node.find("size")) check_ddr_region_size(config, size->as_size(), size->where());
  return config;
}

}  // namespace socsim
