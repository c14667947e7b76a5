#include "platform/soc_config.h"

#include <algorithm>
#include <sstream>

#include "models/common/hex.h"

namespace socsim {

namespace {

const char* const kRegionTypes[] = {"sram",  "rom",        "ddr",   "console", "exit",
                                    "clint", "corev_ctrl", "dummy", "alias",   "npu",
                                    "probe"};

bool known_type(const std::string& type) {
  return std::find(std::begin(kRegionTypes), std::end(kRegionTypes), type) !=
         std::end(kRegionTypes);
}

CpuConfig read_cpu(const ConfigNode& node) {
  CpuConfig cpu;
  cpu.model = node.string_or("model", cpu.model);
  if (cpu.model != "iss" && cpu.model != "rtl") {
    node.at("model").fail("expected 'iss' or 'rtl', got '" + cpu.model + "'");
  }
  cpu.clock_mhz = node.double_or("clock_mhz", cpu.clock_mhz);
  if (cpu.clock_mhz <= 0 || cpu.clock_mhz > 10000) {
    node.at("clock_mhz").fail("clock must be in (0, 10000] MHz");
  }
  auto u32 = [&](const char* key, uint32_t fallback) {
    const uint64_t v = node.u64_or(key, fallback);
    if (v > 0xFFFFFFFFull) node.at(key).fail("does not fit in 32 bits");
    return static_cast<uint32_t>(v);
  };
  cpu.boot_addr = u32("boot_addr", cpu.boot_addr);
  if (cpu.boot_addr & 1) node.at("boot_addr").fail("must be 2-byte aligned");
  cpu.mtvec_addr = u32("mtvec_addr", cpu.mtvec_addr);
  cpu.hart_id = u32("hart_id", cpu.hart_id);
  cpu.quantum_cycles = node.u64_or("quantum_cycles", cpu.quantum_cycles);
  if (cpu.quantum_cycles == 0) node.at("quantum_cycles").fail("must be at least 1");
  cpu.num_mhpmcounters = static_cast<unsigned>(node.u64_or("num_mhpmcounters", 1));
  if (cpu.num_mhpmcounters > 29) node.at("num_mhpmcounters").fail("must be 0..29");
  if (node.has("fetch_wrap")) {
    cpu.fetch_wrap = node.at("fetch_wrap").as_size();
    if (cpu.fetch_wrap < 4 || cpu.fetch_wrap > 0x80000000ull ||
        (cpu.fetch_wrap & (cpu.fetch_wrap - 1)) != 0) {
      node.at("fetch_wrap").fail("must be a power of two from 4 bytes to 2 GiB");
    }
  }
  node.reject_unknown_keys();
  return cpu;
}

RegionConfig read_region(const std::string& name, const ConfigNode& node,
                         const std::string& dir) {
  RegionConfig r;
  r.name = name;
  r.where = node.where();
  if (!node.is_map()) node.fail("expected a map with type, base and size");
  r.type = node.at("type").as_string();
  if (!known_type(r.type)) {
    node.at("type").fail("unknown region type '" + r.type +
                         "' (sram, rom, ddr, console, exit, clint, corev_ctrl, dummy, alias, npu, "
                         "probe)");
  }
  r.base = node.at("base").as_u64();
  r.size = node.at("size").as_size();
  if (r.size == 0) node.at("size").fail("size must be greater than 0");
  if (r.base > 0xFFFFFFFFull || r.size > 0x100000000ull - r.base) {
    node.fail("region " + hex(r.base) + " + " + hex(r.size) +
              " does not fit in the 32-bit address space");
  }
  if (r.type == "sram" || r.type == "rom") {
    r.latency_cycles = static_cast<uint32_t>(node.u64_or("latency_cycles", 0));
  } else if (r.type == "clint") {
    r.timer_mhz = node.double_or("timer_mhz", 10.0);
    if (r.timer_mhz <= 0) node.at("timer_mhz").fail("must be greater than 0");
    if (r.size < 0xC000) node.at("size").fail("a clint region needs at least 0xC000 bytes");
  } else if (r.type == "ddr") {
    r.ddr = std::make_shared<DdrConfig>(load_ddr_config(node, dir));
  } else if (r.type == "npu") {
    r.irq = static_cast<unsigned>(node.u64_or("irq", 16));
    if (r.irq > 31) node.at("irq").fail("interrupt line must be 0..31");
    if (r.size < 0x1000) node.at("size").fail("an npu region needs at least 0x1000 bytes");
  } else if (r.type == "probe") {
    if (r.size < 16) node.at("size").fail("a probe region needs at least 16 bytes");
  } else if (r.type == "alias") {
    r.alias_of = node.at("of").as_string();
    r.alias_offset = node.u64_or("offset", 0);
  }
  node.reject_unknown_keys();
  return r;
}

}  // namespace

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

bool is_memory_type(const std::string& type) {
  return type == "sram" || type == "rom" || type == "ddr";
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

SocConfig load_soc_config(const std::string& file, const std::vector<std::string>& overrides) {
  ConfigNode root = ConfigNode::load_file(file);
  if (!root.is_map()) root.fail("a SoC description must be a map (name, cpu, memory_map, ...)");
  YAML::Node yaml = root.yaml();
  prepare_npu_overrides(yaml);  // so that --set npu.mac_array.rows=16 finds its map
  for (const std::string& o : overrides) apply_override(yaml, o);

  SocConfig soc;
  soc.file = file;
  const size_t slash = file.find_last_of('/');
  soc.dir = slash == std::string::npos ? "." : file.substr(0, slash);
  soc.overrides = overrides;
  soc.name = root.string_or("name", "soc");
  if (auto desc = root.find("description")) desc->as_string();
  if (auto line = root.find("end_of_run_line")) {
    const std::string style = line->as_string();
    if (style != "socsim" && style != "corev") line->fail("expected 'socsim' or 'corev'");
    soc.corev_end_line = style == "corev";
  }
  soc.cpu = read_cpu(root.at("cpu"));
  if (auto probes = root.find("probes")) soc.probes = read_probes_config(*probes);

  ConfigNode map = root.at("memory_map");
  if (!map.is_map()) map.fail("expected a map of named regions");
  for (const auto& [name, node] : map.entries()) soc.regions.push_back(read_region(name, node, soc.dir));
  if (soc.regions.empty()) map.fail("the memory map is empty");
  // The NPU's description is the top-level `npu:` section (a preset plus overrides).
  if (auto section = root.find("npu")) {
    auto npu = std::make_shared<NpuConfig>(load_npu_config(*section, soc.dir));
    bool used = false;
    for (RegionConfig& r : soc.regions) {
      if (r.type == "npu") r.npu = npu, used = true;
    }
    if (!used) section->fail("an npu section needs a memory_map region of type npu");
  } else if (const RegionConfig* r = soc.first_of_type("npu")) {
    throw ConfigError(r->where + ": region '" + r->name +
                      "' of type npu needs a top-level npu section (preset: ...)");
  }

  // No two regions may overlap.
  std::vector<const RegionConfig*> sorted;
  for (const RegionConfig& r : soc.regions) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const RegionConfig* a, const RegionConfig* b) { return a->base < b->base; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    const RegionConfig& a = *sorted[i - 1];
    const RegionConfig& b = *sorted[i];
    if (b.base < a.base + a.size) {
      throw ConfigError(b.where + ": region '" + b.name + "' [" + hex(b.base) + ", " +
                        hex(b.base + b.size) + ") overlaps region '" + a.name + "' [" +
                        hex(a.base) + ", " + hex(a.base + a.size) + ")");
    }
  }
  for (const RegionConfig& r : soc.regions) {
    if (r.type != "alias") continue;
    const RegionConfig* target = soc.find_region(r.alias_of);
    if (target == nullptr || target->type == "alias") {
      throw ConfigError(r.where + ": alias of '" + r.alias_of +
                        "', which is not a region of this map");
    }
    if (r.alias_offset + r.size > target->size) {
      throw ConfigError(r.where + ": alias window [offset " + hex(r.alias_offset) + ", size " +
                        hex(r.size) + ") does not fit in region '" + target->name + "'");
    }
  }

  if (auto loader = root.find("loader")) {
    soc.loader.ram_region = loader->string_or("ram_region", soc.loader.ram_region);
    soc.loader.bootinfo_region = loader->string_or("bootinfo_region", soc.loader.bootinfo_region);
    soc.loader.model_region = loader->string_or("model_region", soc.loader.model_region);
    const std::string unmapped = loader->string_or("unmapped", "error");
    if (unmapped != "error" && unmapped != "ignore") {
      loader->at("unmapped").fail("expected 'error' or 'ignore'");
    }
    soc.loader.lenient_unmapped = unmapped == "ignore";
    loader->reject_unknown_keys();
    auto check_region = [&](const char* key, const std::string& value, bool memory) {
      if (value.empty() && std::string(key) == "bootinfo_region") return;
      const RegionConfig* r = soc.find_region(value);
      if (r == nullptr) loader->at(key).fail("no region named '" + value + "'");
      if (memory && !is_memory_type(r->type)) {
        loader->at(key).fail("region '" + value + "' is not a memory");
      }
    };
    if (loader->has("ram_region")) check_region("ram_region", soc.loader.ram_region, true);
    if (loader->has("bootinfo_region") && !soc.loader.bootinfo_region.empty()) {
      check_region("bootinfo_region", soc.loader.bootinfo_region, true);
    }
    if (loader->has("model_region")) check_region("model_region", soc.loader.model_region, true);
  }
  if (soc.find_region(soc.loader.ram_region) == nullptr) {
    root.fail("no RAM region named '" + soc.loader.ram_region + "' (set loader.ram_region)");
  }
  if (!soc.loader.bootinfo_region.empty() && soc.find_region(soc.loader.bootinfo_region) == nullptr) {
    soc.loader.bootinfo_region.clear();  // the map has no boot-info block
  }
  if (soc.find_region(soc.loader.model_region) == nullptr) {
    soc.loader.model_region = soc.loader.ram_region;
  }
  const RegionConfig* boot = soc.region_at(soc.cpu.boot_addr);
  if (boot == nullptr || !is_memory_type(boot->type)) {
    root.at("cpu").at("boot_addr").fail("boot address " + hex(soc.cpu.boot_addr) +
                                        " is not inside a memory region");
  }
  root.reject_unknown_keys();

  YAML::Emitter emitter;
  emitter << yaml;
  soc.yaml_text = emitter.c_str();
  return soc;
}

}  // namespace socsim
