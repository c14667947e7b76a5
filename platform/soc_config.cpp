#include "platform/soc_config.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "models/common/config_table.h"
#include "models/common/hex.h"
#include "models/ddr/ddr_config.h"
#include "models/npu/npu_config.h"

namespace socsim {

namespace {

// `protocol_check`: the SoC's top-level default for the core's links.
CpuConfig read_cpu(const ConfigNode& node, const std::string& protocol_check) {
  std::map<std::string, ConfigValue> v;
  for (ConfigKey key : cpu_config_keys()) {
    if (key.name == "protocol_check") key.fallback = protocol_check.c_str();
    v[key.name] = node.read(key);
  }
  CpuConfig cpu;
  cpu.model = v["model"].text;
  cpu.clock_mhz = v["clock_mhz"].d;
  cpu.boot_addr = static_cast<uint32_t>(v["boot_addr"].u);
  if (cpu.boot_addr & 1) node.at("boot_addr").fail("must be 2-byte aligned");
  cpu.mtvec_addr = static_cast<uint32_t>(v["mtvec_addr"].u);
  cpu.hart_id = static_cast<uint32_t>(v["hart_id"].u);
  cpu.quantum_cycles = v["quantum_cycles"].u;
  cpu.num_mhpmcounters = static_cast<unsigned>(v["num_mhpmcounters"].u);
  cpu.fetch_wrap = v["fetch_wrap"].u;
  cpu.protocol_check = v["protocol_check"].text == "true";
  for (const ConfigKey& key : cpu_option_keys()) cpu.options[key.name] = v[key.name];
  cpu.file = node.file();
  if (cpu.fetch_wrap != 0 && (cpu.fetch_wrap < 4 || (cpu.fetch_wrap & (cpu.fetch_wrap - 1)) != 0)) {
    node.at("fetch_wrap").fail("must be a power of two from 4 bytes to 2 GiB (or 0: no wrap)");
  }
  node.reject_unknown_keys();
  return cpu;
}

// The map as the device types read it, then the checks across regions.
std::vector<RegionConfig> read_memory_map(const ConfigNode& root, const std::string& dir,
                                          const std::string& protocol_check) {
  const ConfigNode map = root.at("memory_map");
  if (!map.is_map()) map.fail("expected a map of named regions");
  const DeviceReadContext context{root, dir, protocol_check};
  std::vector<RegionConfig> regions;
  for (const auto& [name, node] : map.entries()) {
    regions.push_back(read_region(name, node, context));
  }
  if (regions.empty()) map.fail("the memory map is empty");
  // A section a device type reads (e.g. `npu:`) is an error without a region of that type.
  for (const DeviceType* type : device_types()) {
    if (type->section.empty() || !root.has(type->section)) continue;
    const bool used = std::any_of(regions.begin(), regions.end(),
                                  [&](const RegionConfig& r) { return r.type == type->name; });
    if (!used) {
      root.at(type->section)
          .fail("an " + type->section + " section needs a memory_map region of type " + type->name);
    }
  }
  check_regions(regions);
  return regions;
}

void read_loader(const ConfigNode& root, SocConfig& soc) {
  const ConfigNode loader = root.section("loader");
  std::map<std::string, ConfigValue> v;
  for (const ConfigKey& key : loader_config_keys()) v[key.name] = loader.read(key);
  soc.loader.ram_region = v["ram_region"].text;
  soc.loader.bootinfo_region = v["bootinfo_region"].text;
  soc.loader.model_region = v["model_region"].text;
  soc.loader.pool_region = v["pool_region"].text;
  soc.loader.pool_size = v["pool_size"].u;
  soc.loader.lenient_unmapped = v["unmapped"].text == "ignore";
  loader.reject_unknown_keys();

  // Regions named explicitly must exist; the defaults fall back quietly.
  auto check_region = [&](const char* key) {
    if (!loader.has(key)) return;
    const std::string& value = v[key].text;
    if (value.empty() && (std::string(key) == "bootinfo_region" ||
                          std::string(key) == "pool_region")) {
      return;
    }
    const RegionConfig* r = soc.find_region(value);
    if (r == nullptr) loader.at(key).fail("no region named '" + value + "'");
    if (!is_memory_type(r->type)) loader.at(key).fail("region '" + value + "' is not a memory");
  };
  for (const char* key : {"ram_region", "bootinfo_region", "model_region", "pool_region"}) {
    check_region(key);
  }
  if (soc.loader.pool_region.empty() && soc.loader.pool_size != 0) {
    loader.at("pool_size").fail("a pool size needs loader.pool_region");
  }
  if (!soc.loader.pool_region.empty() && soc.loader.pool_region == soc.loader.ram_region) {
    loader.at("pool_region")
        .fail("the pool cannot be in loader.ram_region '" + soc.loader.ram_region +
              "': the firmware's BSS, heap and stack live there");
  }
  if (soc.find_region(soc.loader.ram_region) == nullptr) {
    root.fail("no RAM region named '" + soc.loader.ram_region + "' (set loader.ram_region)");
  }
  if (!soc.loader.bootinfo_region.empty() &&
      soc.find_region(soc.loader.bootinfo_region) == nullptr) {
    soc.loader.bootinfo_region.clear();  // the map has no boot-info block
    loader.note_default("bootinfo_region", "");
  }
  if (soc.find_region(soc.loader.model_region) == nullptr) {
    soc.loader.model_region = soc.loader.ram_region;
    loader.note_default("model_region", soc.loader.model_region);
  }
}

// The boot-info block is written over the start of its region before the core starts: it
// must not take the place of the firmware's code or vectors.
void check_boot_info_placement(const ConfigNode& root, const SocConfig& soc) {
  if (soc.loader.bootinfo_region.empty()) return;
  const RegionConfig* block = soc.find_region(soc.loader.bootinfo_region);
  auto blame = [&](const std::string& message) {
    const std::optional<ConfigNode> loader = root.find("loader");
    if (loader && loader->has("bootinfo_region")) loader->at("bootinfo_region").fail(message);
    throw ConfigError(block->where + ": " + message);
  };
  const auto inside = [&](uint64_t addr) { return addr - block->base < block->size; };
  if (block->name == soc.loader.ram_region) {
    blame("the boot-info block would overwrite the firmware: '" + block->name +
          "' is also loader.ram_region");
  }
  if (inside(soc.cpu.boot_addr) || inside(soc.cpu.mtvec_addr)) {
    blame("the boot-info block at " + hex(block->base) + " would overwrite the firmware's " +
          (inside(soc.cpu.boot_addr) ? "boot code at cpu.boot_addr " + hex(soc.cpu.boot_addr)
                                     : "vectors at cpu.mtvec_addr " + hex(soc.cpu.mtvec_addr)));
  }
}

// `model`: one of the CPU-model registry's names (models/cpu/cpu_registry.h).
ConfigKey model_key() {
  std::string doc;
  for (const CpuModelType* type : cpu_models()) {
    doc += (doc.empty() ? "" : "; ") + type->name + ": " + type->summary;
  }
  return ConfigKey::choice("model", cpu_model_names(), "iss", doc);
}

// The section's keys, then the registered models' options, each saying which models read it.
std::vector<ConfigKey> with_cpu_options(std::vector<ConfigKey> keys) {
  for (ConfigKey key : cpu_option_keys()) {
    std::string models;
    for (const CpuModelType* type : cpu_models()) {
      for (const ConfigKey& k : type->keys) {
        if (k.name == key.name) models += (models.empty() ? "`" : ", `") + type->name + "`";
      }
    }
    key.doc = "CPU model " + models + " only: " + key.doc;
    keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace

const std::vector<ConfigKey>& cpu_config_keys() {
  static const std::vector<ConfigKey> keys = {
      model_key(),
      ConfigKey::number_in("clock_mhz", 1, 10000, "400", "core clock, for cycles -> time"),
      ConfigKey::unsigned_in("boot_addr", 0, 0xFFFFFFFE, "0x80",
                             "where the core starts; 2-byte aligned, inside a memory region"),
      ConfigKey::unsigned_in("mtvec_addr", 0, 0xFFFFFFFF, "0x0",
                             "mtvec resets to `{mtvec_addr[31:8], 0, 01}` (vectored)"),
      ConfigKey::unsigned_in("hart_id", 0, 0xFFFFFFFF, "0", "mhartid"),
      ConfigKey::unsigned_in("quantum_cycles", 1, 1000000000, "10000",
                             "how far the CPU may run ahead of SystemC time"),
      ConfigKey::unsigned_in("num_mhpmcounters", 0, 29, "1",
                             "implemented mhpmcounter3.. CSRs (the rtl core: the number it "
                             "was built with, 1; it refuses another)"),
      ConfigKey::size_in("fetch_wrap", 0, 1ull << 31, "0",
                         "0, or a power of two: instruction fetches address the bus modulo it, "
                         "as the core-v-verif test bench's memory does every 4 MiB; data "
                         "accesses are not affected"),
      ConfigKey::choice("protocol_check", {"false", "true"}, "false",
                        "true: check the TLM-2.0 base protocol on the core's instruction and "
                        "data links to the bus; a violation stops the run with status 3. The "
                        "default is the SoC's top-level `protocol_check`"),
  };
  static const std::vector<ConfigKey> all = with_cpu_options(keys);
  return all;
}

const std::vector<ConfigKey>& loader_config_keys() {
  static const std::vector<ConfigKey> keys = {
      ConfigKey::text("ram_region", "ram", "memory region for code, data and stack"),
      ConfigKey::text("bootinfo_region", "bootinfo",
                      "memory region of the boot-info block (\"\" for none; a missing "
                      "default region means none); not the RAM region, nor over the boot "
                      "address or the vectors"),
      ConfigKey::text("model_region", "ram",
                      "memory region where `--model`/`--input` go (top of the region; a "
                      "missing default region means `ram_region`)"),
      ConfigKey::text("pool_region", "",
                      "memory region whose free part (below `--model`/`--input` when they go "
                      "there, above the firmware's segments) the boot-info block offers the "
                      "firmware as a pool (\"\" for none; docs/boot-info.md)"),
      ConfigKey::size_in("pool_size", 0, 0xFFFFFFC0, "0",
                         "bytes of the pool, taken from the top of the free part; 0: all of it"),
      ConfigKey::choice("unmapped", {"error", "ignore"}, "error",
                        "error: an access to no region stops the run with status 3; ignore: "
                        "reads 0, writes dropped"),
  };
  return keys;
}

ProbesConfig read_probes_config(const ConfigNode& node) {
  ProbesConfig probes;
  if (!node.is_map()) node.fail("expected a map with 'regions' and/or 'marks'");
  if (auto regions = node.find("regions")) {
    if (!regions->is_map()) regions->fail("expected a map of name: spec");
    for (const auto& [name, spec] : regions->entries()) {
      probes.regions.push_back({name, spec.as_string(), spec.where()});
    }
  }
  if (auto marks = node.find("marks")) {
    if (!marks->is_map()) marks->fail("expected a map of probe register id: name");
    for (const auto& [id, name] : marks->entries()) {
      const auto value = parse_u64(id);
      if (!value || *value > 0xFFFFFFFFull) name.fail("'" + id + "' is not a 32-bit id");
      probes.marks.emplace_back(static_cast<uint32_t>(*value), name.as_string());
    }
  }
  node.reject_unknown_keys();
  return probes;
}

const RegionConfig* SocConfig::find_region(const std::string& wanted) const {
  for (const RegionConfig& r : regions) {
    if (r.name == wanted) return &r;
  }
  return nullptr;
}

const RegionConfig* SocConfig::first_of_type(const std::string& type) const {
  for (const RegionConfig& r : regions) {
    if (r.type == type) return &r;
  }
  return nullptr;
}

const RegionConfig* SocConfig::region_at(uint64_t addr) const {
  for (const RegionConfig& r : regions) {
    if (addr >= r.base && addr - r.base < r.size) return &r;
  }
  return nullptr;
}

std::string default_soc_config() { return SOCSIM_SOURCE_DIR "/configs/soc/default.yaml"; }

SocConfig load_soc_config(const std::string& file, const std::vector<std::string>& overrides) {
  ConfigNode root = ConfigNode::load_file(file);
  if (!root.is_map()) root.fail("a SoC description must be a map (name, cpu, memory_map, ...)");
  SocConfig soc;
  soc.file = file;
  soc.dir = std::filesystem::path(file).parent_path().string();
  if (soc.dir.empty()) soc.dir = ".";
  soc.overrides = overrides;
  resolve_config(root, overrides, soc.dir);

  soc.name = root.string_or("name", "soc");
  if (auto desc = root.find("description")) desc->as_string();
  const ConfigValue line =
      root.read(ConfigKey::choice("end_of_run_line", {"socsim", "corev"}, "socsim", ""));
  soc.corev_end_line = line.text == "corev";
  const ConfigValue protocol_check = root.read(ConfigKey::choice(
      "protocol_check", {"false", "true"}, "false", "the default of every link's check"));
  soc.cpu = read_cpu(root.at("cpu"), protocol_check.text);
  if (auto probes = root.find("probes")) soc.probes = read_probes_config(*probes);
  soc.regions = read_memory_map(root, soc.dir, protocol_check.text);
  read_loader(root, soc);
  const RegionConfig* boot = soc.region_at(soc.cpu.boot_addr);
  if (boot == nullptr || !is_memory_type(boot->type)) {
    root.at("cpu")
        .at("boot_addr")
        .fail("boot address " + hex(soc.cpu.boot_addr) + " is not inside a memory region");
  }
  check_boot_info_placement(root, soc);
  root.reject_unknown_keys();

  soc.yaml_text = root.dump(false);
  soc.annotated_yaml = root.dump(true);
  return soc;
}

void write_platform_key_docs(std::ostream& out) {
  write_config_key_docs(out, "`cpu` key", cpu_config_keys());
  write_config_key_docs(out, "`loader` key", loader_config_keys());
  write_device_docs(out);
}

bool write_key_docs(const std::string& kind, std::ostream& out) {
  if (kind == "soc") {
    write_platform_key_docs(out);
  } else if (kind == "npu") {
    write_npu_key_docs(out);
  } else if (kind == "ddr") {
    write_ddr_key_docs(out);
  } else {
    return false;
  }
  return true;
}

}  // namespace socsim
