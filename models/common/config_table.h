// Key tables bound to a configuration structure: the one way presets are read.
//
// A ConfigTable<T> lists the keys of a YAML map (paths below it, "mac_array.rows") with
// their type, range, default and documentation (ConfigKey), each bound to the field of T
// its value goes to. read_config_table() reads a map through a table: the maps on the paths
// are walked (a missing one is an error naming it when a key below it is required), values
// are checked as declared, defaults are applied and recorded (they show in `socsim config`),
// and unknown keys in the maps the table reaches are errors naming the nearest known key.
// check_config_table() applies the same ranges to a structure built in code, and
// write_config_table_docs() prints the table as the documentation's Markdown table. The SoC
// file's sections, the device types, the NPU preset, the DDR preset and its controller are
// all read this way. Setup-time only: errors are ConfigError naming file, line and key.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/common/config.h"

namespace socsim {

/// The YAML names of an enum's values, in one table for the reader and for printing.
template <typename E>
class ConfigEnum {
 public:
  ConfigEnum(std::initializer_list<std::pair<const char*, E>> values) : values_(values) {}
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, value] : values_) out.emplace_back(name);
    return out;
  }
  /// The YAML name of `value` ("?" if the table lacks it).
  const char* name_of(E value) const {
    for (const auto& [name, v] : values_) {
      if (v == value) return name;
    }
    return "?";
  }
  E at(size_t index) const { return values_.at(index).second; }

 private:
  std::vector<std::pair<const char*, E>> values_;
};

/// One row of a key table: the key and where its value goes in a T.
template <typename T>
struct ConfigField {
  ConfigKey key;
  std::function<void(T& out, const ConfigValue& value)> store;
  /// The field as a number, for check_config_table() (unset for text, choices and lists).
  std::function<double(const T& config)> number;
};

template <typename T>
using ConfigTable = std::vector<ConfigField<T>>;

namespace config_detail {

template <typename M>
void store(M& out, const ConfigValue& v) {
  if constexpr (std::is_same_v<M, bool>) {
    out = v.u != 0;
  } else if constexpr (std::is_integral_v<M>) {
    out = static_cast<M>(v.u);
  } else if constexpr (std::is_floating_point_v<M>) {
    out = v.d;
  } else if constexpr (std::is_same_v<M, std::string>) {
    out = v.text;
  } else if constexpr (std::is_same_v<M, std::set<std::string>>) {
    out = std::set<std::string>(v.list.begin(), v.list.end());
  } else {
    static_assert(std::is_same_v<M, std::vector<uint32_t>>, "no ConfigValue for this type");
    out = v.bits;
  }
}

/// A table whose range does not fit its field is a programming error.
template <typename M>
void check_fits(const ConfigKey& key) {
  if constexpr (std::is_integral_v<M> && !std::is_same_v<M, bool>) {
    const bool whole = key.type == ConfigKey::Type::kUnsigned || key.type == ConfigKey::Type::kSize;
    if (!whole || key.max_u > static_cast<uint64_t>(std::numeric_limits<M>::max())) {
      throw std::logic_error("config key '" + key.name + "' does not fit its field");
    }
  }
}

}  // namespace config_detail

/// A row storing into the field `access(out)` returns (a reference into T).
template <typename T, typename Access>
ConfigField<T> config_field_at(ConfigKey key, Access access) {
  using M = std::remove_reference_t<decltype(access(std::declval<T&>()))>;
  config_detail::check_fits<M>(key);
  ConfigField<T> field{std::move(key),
                       [access](T& out, const ConfigValue& v) {
                         config_detail::store(access(out), v);
                       },
                       nullptr};
  if constexpr (std::is_arithmetic_v<M> && !std::is_same_v<M, bool>) {
    field.number = [access](const T& config) {
      return static_cast<double>(access(const_cast<T&>(config)));
    };
  }
  return field;
}

/// A row storing into the member `member` of T.
template <typename T, typename M>
ConfigField<T> config_field(ConfigKey key, M T::*member) {
  return config_field_at<T>(std::move(key), [member](T& out) -> M& { return out.*member; });
}

/// A choice among the names of `names`, stored as the enum value into `access(out)`.
template <typename T, typename E, typename Access>
ConfigField<T> config_enum_at(std::string name, const ConfigEnum<E>& names, const char* fallback,
                              std::string doc, Access access) {
  return ConfigField<T>{ConfigKey::choice(std::move(name), names.names(), fallback, std::move(doc)),
                        [names, access](T& out, const ConfigValue& v) {
                          access(out) = names.at(v.choice);
                        },
                        nullptr};
}
template <typename T, typename E>
ConfigField<T> config_enum(std::string name, const ConfigEnum<E>& names, const char* fallback,
                           std::string doc, E T::*member) {
  return config_enum_at<T>(std::move(name), names, fallback, std::move(doc),
                           [member](T& out) -> E& { return out.*member; });
}

/// Reads the keys of `table` below the map `node` (defaults, derived defaults, ranges);
/// rejects unknown keys in every map below `node` a key path reaches (`node`'s own keys are
/// left to the caller: a region or a SoC section has keys of its own). The values read are
/// returned in table order; a key's where() is one of them (ConfigValue::where).
std::vector<ConfigValue> read_config_keys(const ConfigNode& node,
                                          const std::vector<ConfigKey>& keys);

/// The keys of a table.
template <typename T>
std::vector<ConfigKey> keys_of(const ConfigTable<T>& table) {
  std::vector<ConfigKey> keys;
  for (const ConfigField<T>& field : table) keys.push_back(field.key);
  return keys;
}

/// Reads `node` through `table` into `out` (read_config_keys); keys left out that are
/// optional keep `out`'s value. `origin`, if given, receives the where() of every key
/// present, under `prefix` + its path.
template <typename T>
void read_config_table(const ConfigNode& node, const ConfigTable<T>& table, T& out,
                       std::map<std::string, std::string>* origin = nullptr,
                       const std::string& prefix = "") {
  const std::vector<ConfigValue> values = read_config_keys(node, keys_of(table));
  for (size_t i = 0; i < table.size(); ++i) {
    if (values[i].absent) continue;
    table[i].store(out, values[i]);
    if (origin != nullptr && !values[i].from_default) {
      (*origin)[prefix + table[i].key.name] = values[i].where;
    }
  }
}

/// Checks the numeric fields of `config` (built in code, or read) against the table's
/// ranges; `fail(key path, message)` must not return.
template <typename T>
void check_config_table(const ConfigTable<T>& table, const T& config,
                        const std::function<void(const std::string&, const std::string&)>& fail) {
  for (const ConfigField<T>& field : table) {
    if (!field.number) continue;
    const double value = field.number(config);
    const ConfigKey& key = field.key;
    std::optional<std::string> error;
    if (key.type == ConfigKey::Type::kNumber) {
      std::ostringstream text;
      text << value;
      error = key.range_error(value, text.str());
    } else {
      error = key.range_error(static_cast<uint64_t>(value));
    }
    if (error) fail(key.name, *error);
  }
}

/// The Markdown table of `keys` under the heading `what` ("`cpu` key"): key, type, range and
/// default, meaning (docs/platform.md, docs/npu.md, docs/ddr.md).
void write_config_key_docs(std::ostream& out, const std::string& what,
                           const std::vector<ConfigKey>& keys);

}  // namespace socsim
