#include "models/common/config_table.h"

#include <algorithm>
#include <optional>

namespace socsim {

namespace {

// The map at `path` ("a.b") below `node`: walked key by key. A missing map is an error naming
// it when `required`; else an empty map recorded as a default (ConfigNode::section), or
// nothing when `create` is false (a key that may be absent has no map to show).
std::optional<ConfigNode> map_at(const ConfigNode& node, const std::string& path, bool required,
                                 bool create, std::map<std::string, ConfigNode>& maps) {
  if (path.empty()) return node;
  if (auto it = maps.find(path); it != maps.end()) return it->second;
  const size_t dot = path.rfind('.');
  const std::string parent_path = dot == std::string::npos ? "" : path.substr(0, dot);
  const std::string key = dot == std::string::npos ? path : path.substr(dot + 1);
  std::optional<ConfigNode> parent = map_at(node, parent_path, required, create, maps);
  if (!parent) return std::nullopt;
  std::optional<ConfigNode> map;
  if (required) {
    map = parent->at(key);
  } else if (parent->has(key) || create) {
    map = parent->section(key);
  } else {
    return std::nullopt;
  }
  if (!map->is_map()) map->fail("expected a map");
  maps.emplace(path, *map);
  return map;
}

}  // namespace

std::vector<ConfigValue> read_config_keys(const ConfigNode& node,
                                          const std::vector<ConfigKey>& keys) {
  std::map<std::string, ConfigNode> maps;  // by path below `node`, for the unknown-key check
  std::vector<std::string> visited;        // the same paths in the order first reached
  std::vector<ConfigValue> values;
  for (const ConfigKey& key : keys) {
    const size_t dot = key.name.rfind('.');
    const std::string parent = dot == std::string::npos ? "" : key.name.substr(0, dot);
    ConfigKey leaf = key;
    leaf.name = dot == std::string::npos ? key.name : key.name.substr(dot + 1);
    std::string derived;  // keeps a derived default's text alive while it is read
    if (!key.default_from.empty()) {
      const std::string from = parent.empty() ? key.default_from : parent + "." + key.default_from;
      size_t i = 0;
      while (i < values.size() && keys[i].name != from) ++i;
      if (i == values.size() || values[i].absent) {
        throw std::logic_error("config key '" + key.name + "' defaults to '" + from +
                               "', which must be an earlier key with a value");
      }
      derived = values[i].text;
      leaf.fallback = derived.c_str();
    }
    const bool required = leaf.fallback == nullptr && !leaf.optional;
    std::optional<ConfigNode> map = map_at(node, parent, required, leaf.fallback != nullptr, maps);
    for (size_t end = 0; end != std::string::npos && !parent.empty();) {  // outer maps first
      end = parent.find('.', end == 0 ? 0 : end + 1);
      const std::string prefix = parent.substr(0, end);
      const bool seen = std::find(visited.begin(), visited.end(), prefix) != visited.end();
      if (maps.count(prefix) && !seen) visited.push_back(prefix);
    }
    if (!map) {  // an optional key in a map that is not there
      ConfigValue v;
      v.absent = true;
      values.push_back(v);
      continue;
    }
    values.push_back(map->read(leaf));
  }
  for (auto it = visited.rbegin(); it != visited.rend(); ++it) {
    if (auto found = maps.find(*it); found != maps.end()) found->second.reject_unknown_keys();
  }
  return values;
}

void write_config_key_docs(std::ostream& out, const std::string& what,
                           const std::vector<ConfigKey>& keys) {
  out << "| " << what << " | type, range, default | meaning |\n|---|---|---|\n";
  for (const ConfigKey& k : keys) {
    out << "| `" << k.name << "` | " << k.describe() << " | " << k.doc << " |\n";
  }
  out << "\n";
}

}  // namespace socsim
