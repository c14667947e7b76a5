#include "models/cpu/cpu_registry.h"

#include <stdexcept>

namespace socsim {

namespace {

std::map<std::string, CpuModelType>& registry() {
  static std::map<std::string, CpuModelType> types;
  return types;
}

// Two declarations of one option key must agree: the `cpu` section reads it once.
bool same_key(const ConfigKey& a, const ConfigKey& b) {
  const bool same_default = (a.fallback == nullptr) == (b.fallback == nullptr) &&
                            (a.fallback == nullptr || std::string(a.fallback) == b.fallback);
  return a.type == b.type && same_default && a.min_u == b.min_u && a.max_u == b.max_u &&
         a.min_d == b.min_d && a.max_d == b.max_d && a.choices == b.choices;
}

}  // namespace

const ConfigValue& CpuConfig::option(const std::string& key) const {
  auto it = options.find(key);
  if (it == options.end()) {
    throw std::logic_error("no registered CPU model declares the option cpu." + key);
  }
  return it->second;
}

bool register_cpu_model(CpuModelType type) {
  if (!type.build) throw std::logic_error("CPU model '" + type.name + "' has no factory");
  for (const ConfigKey& key : type.keys) {
    for (const auto& [name, other] : registry()) {
      for (const ConfigKey& k : other.keys) {
        if (k.name == key.name && !same_key(k, key)) {
          throw std::logic_error("CPU models '" + name + "' and '" + type.name +
                                 "' declare the option cpu." + key.name + " differently");
        }
      }
    }
  }
  const std::string name = type.name;
  if (!registry().emplace(name, std::move(type)).second) {
    throw std::logic_error("CPU model '" + name + "' registered twice");
  }
  return true;
}

const CpuModelType* find_cpu_model(const std::string& name) {
  auto it = registry().find(name);
  return it == registry().end() ? nullptr : &it->second;
}

const CpuModelType& cpu_model(const std::string& name) {
  if (const CpuModelType* type = find_cpu_model(name)) return *type;
  std::string message = "unknown CPU model '" + name + "' (";
  const std::vector<std::string> names = cpu_model_names();
  for (size_t i = 0; i < names.size(); ++i) message += (i ? ", " : "") + names[i];
  message += ")";
  if (auto near = nearest_word(name, names)) message += "; did you mean '" + *near + "'?";
  throw ConfigError(message);
}

std::vector<const CpuModelType*> cpu_models() {
  std::vector<const CpuModelType*> out;
  for (const auto& [name, type] : registry()) out.push_back(&type);
  return out;
}

std::vector<std::string> cpu_model_names() {
  std::vector<std::string> names;
  for (const auto& [name, type] : registry()) names.push_back(name);
  return names;
}

std::string cpu_model_list(bool quoted, const std::function<bool(const CpuModelType&)>& has) {
  std::vector<std::string> names;
  for (const auto& [name, type] : registry()) {
    if (!has || has(type)) names.push_back(quoted ? "'" + name + "'" : name);
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::vector<ConfigKey> cpu_fpu_keys() {
  return {ConfigKey::choice("fpu", {"off", "on", "zfinx"}, "off",
                            "the core's FPU: on is the CV32E40P with FPU=1 (RV32F, f0..f31, "
                            "fcsr), zfinx the same with ZFINX=1 (float operands in the x "
                            "registers, no F registers; docs/fpu.md)"),
          ConfigKey::unsigned_in("fpu_addmul_lat", 0, 2, "0",
                                 "with cpu.fpu on or zfinx: the CV32E40P's FPU_ADDMUL_LAT, "
                                 "pipeline registers of fadd/fsub/fmul/fmadd... (timing only)"),
          ConfigKey::unsigned_in("fpu_others_lat", 0, 2, "0",
                                 "with cpu.fpu on or zfinx: the CV32E40P's FPU_OTHERS_LAT, "
                                 "pipeline registers of comparisons, conversions, moves, sign "
                                 "injection (timing only)")};
}

std::vector<ConfigKey> cpu_option_keys() {
  std::map<std::string, ConfigKey> keys;
  for (const auto& [name, type] : registry()) {
    for (const ConfigKey& key : type.keys) keys.emplace(key.name, key);
  }
  std::vector<ConfigKey> out;
  for (const auto& [name, key] : keys) out.push_back(key);
  return out;
}

}  // namespace socsim
