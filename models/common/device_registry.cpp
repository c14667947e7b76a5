#include "models/common/device_registry.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

#include "models/common/hex.h"

namespace socsim {

namespace {

std::map<std::string, DeviceType>& registry() {
  static std::map<std::string, DeviceType> types;
  return types;
}

std::vector<std::string> type_names() {
  std::vector<std::string> names;
  for (const auto& [name, type] : registry()) names.push_back(name);
  return names;
}

const ConfigValue& param(const RegionConfig& region, const std::string& key) {
  auto it = region.params.find(key);
  if (it == region.params.end()) {
    throw std::logic_error("region type '" + region.type + "' declares no key '" + key + "'");
  }
  return it->second;
}

// Markdown table cells hold no '|' and no line breaks.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

uint64_t RegionConfig::u64(const std::string& key) const {
  return param(*this, key).u;
}
double RegionConfig::number(const std::string& key) const {
  return param(*this, key).d;
}
const std::string& RegionConfig::text(const std::string& key) const {
  return param(*this, key).text;
}
const std::string& RegionConfig::where_of(const std::string& key) const {
  return param(*this, key).where;
}

const RegionConfig* DeviceCheckContext::find(const std::string& name) const {
  for (const RegionConfig& r : regions) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

bool register_device_type(DeviceType type) {
  if (!type.build) throw std::logic_error("device type '" + type.name + "' has no build hook");
  const std::string name = type.name;
  if (!registry().emplace(name, std::move(type)).second) {
    throw std::logic_error("device type '" + name + "' registered twice");
  }
  return true;
}

const DeviceType* find_device_type(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

std::vector<const DeviceType*> device_types() {
  std::vector<const DeviceType*> out;
  for (const auto& [name, type] : registry()) out.push_back(&type);
  return out;
}

bool is_memory_type(const std::string& type) {
  const DeviceType* t = find_device_type(type);
  return t != nullptr && t->kind == RegionKind::kMemory;
}

std::string macro_name(const std::string& name) {
  std::string out;
  for (char c : name) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(std::isalnum(u) ? static_cast<char>(std::toupper(u)) : '_');
  }
  return out;
}

RegionConfig read_region(const std::string& name, const ConfigNode& node,
                         const DeviceReadContext& context) {
  RegionConfig r;
  r.name = name;
  r.where = node.where();
  if (!node.is_map()) node.fail("expected a map with type, base and size");
  const ConfigNode type_node = node.at("type");
  r.type = type_node.as_string();
  const DeviceType* type = find_device_type(r.type);
  if (type == nullptr) {
    std::string message = "unknown region type '" + r.type + "' (";
    const std::vector<std::string> names = type_names();
    for (size_t i = 0; i < names.size(); ++i) message += (i ? ", " : "") + names[i];
    message += ")";
    if (auto near = nearest_word(r.type, names)) message += "; did you mean '" + *near + "'?";
    type_node.fail(message);
  }
  r.base = node.at("base").as_u64();
  const ConfigNode size = node.at("size");
  r.size = size.as_size();
  if (r.size == 0) size.fail("size must be greater than 0");
  if (r.base > 0xFFFFFFFFull || r.size > 0x100000000ull - r.base) {
    node.fail("region " + hex(r.base) + " + " + hex(r.size) +
              " does not fit in the 32-bit address space");
  }
  if (r.size < type->min_size) {
    size.fail("a " + r.type + " region needs at least " + hex(type->min_size) + " bytes");
  }
  for (const ConfigKey& key : type->keys) r.params[key.name] = node.read(key);
  if (type->read) type->read(r, node, context);
  node.reject_unknown_keys();
  return r;
}

void check_regions(const std::vector<RegionConfig>& regions) {
  // Region names become C macros (SOCSIM_REGION_<NAME>_BASE): they must stay distinct.
  std::map<std::string, const RegionConfig*> macros;
  for (const RegionConfig& r : regions) {
    auto [it, fresh] = macros.emplace(macro_name(r.name), &r);
    if (!fresh) {
      throw ConfigError(r.where + ": region name '" + r.name + "' and region '" + it->second->name +
                        "' both become SOCSIM_REGION_" + it->first +
                        "_* in the firmware header; rename one");
    }
  }

  // No two regions may overlap (sizes are checked to end inside 32 bits: no wrap).
  std::vector<const RegionConfig*> sorted;
  for (const RegionConfig& r : regions) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const RegionConfig* a, const RegionConfig* b) { return a->base < b->base; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    const RegionConfig& a = *sorted[i - 1];
    const RegionConfig& b = *sorted[i];
    if (b.base - a.base < a.size) {
      throw ConfigError(b.where + ": region '" + b.name + "' [" + hex(b.base) + ", " +
                        hex(b.base + b.size) + ") overlaps region '" + a.name + "' [" +
                        hex(a.base) + ", " + hex(a.base + a.size) + ")");
    }
  }

  const DeviceCheckContext context{regions};
  std::map<unsigned, const RegionConfig*> lines;
  for (const RegionConfig& r : regions) {
    const DeviceType* type = find_device_type(r.type);
    if (type->check) type->check(r, context);
    if (!type->irq_lines) continue;
    for (unsigned line : type->irq_lines(r)) {
      auto [it, fresh] = lines.emplace(line, &r);
      if (!fresh) {
        throw ConfigError(r.where + ": region '" + r.name + "' drives interrupt line " +
                          std::to_string(line) + ", which region '" + it->second->name + "' (" +
                          it->second->type + ") drives too");
      }
    }
  }
}

void write_device_docs(std::ostream& out) {
  out << "| type | device | keys (besides `type`, `base`, `size`) | registers / behaviour |\n";
  out << "|---|---|---|---|\n";
  for (const DeviceType* t : device_types()) {
    std::string keys;
    for (const ConfigKey& k : t->keys) {
      keys += (keys.empty() ? "" : "<br>") + ("`" + k.name + "`: " + k.describe());
      if (!k.doc.empty()) keys += "; " + k.doc;
    }
    if (t->min_size > 1) {
      char size[32];
      std::snprintf(size, sizeof size, "0x%llX", static_cast<unsigned long long>(t->min_size));
      keys += (keys.empty() ? "" : "<br>") + ("size at least " + std::string(size));
    }
    if (!t->section.empty()) {
      keys += (keys.empty() ? "" : "<br>") + ("reads the top-level `" + t->section + "` section");
    }
    if (keys.empty()) keys = "-";
    out << "| `" << t->name << "` | " << cell(t->title) << " | " << cell(keys) << " | "
        << cell(t->behaviour) << " |\n";
  }
}

}  // namespace socsim
