// Strict YAML configuration reading.
//
// Every model's configuration is read through ConfigNode: it remembers the file and the
// dotted key path of each value so that errors name file, line and key, it understands
// the number formats architects write (hex, `4MiB`, `1.5GHz` is not accepted: units are
// in the key name), and it rejects keys nobody read, so a misspelt key never passes
// silently. Setup-time only: it throws ConfigError, which the command line turns into
// exit status 2.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace socsim {

/// A configuration or input error found before simulation starts.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A YAML node together with the file it came from and its key path.
///
/// Map nodes track which keys were read; reject_unknown_keys() reports the rest. The record
/// belongs to the loaded document and is kept per key path, so copies of a node, and nodes
/// reached again by the same path, all share it.
class ConfigNode {
 public:
  ConfigNode(YAML::Node node, std::string file, std::string path);

  /// Parses a YAML file. Syntax errors become ConfigError naming file and line.
  static ConfigNode load_file(const std::string& file);
  /// Parses YAML text (tests, overrides); `name` stands for the file in messages.
  static ConfigNode load_string(const std::string& text, const std::string& name);

  const std::string& file() const { return *file_; }
  const std::string& path() const { return path_; }
  const YAML::Node& yaml() const { return node_; }
  /// "file:line: key 'a.b'" (or "file: key 'a.b'" when the line is unknown).
  std::string where() const;
  [[noreturn]] void fail(const std::string& message) const;

  bool is_map() const { return node_.IsMap(); }
  bool is_sequence() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }

  // ---- map access ------------------------------------------------------------------------
  bool has(const std::string& key) const;
  /// Required child; fails naming the missing key.
  ConfigNode at(const std::string& key) const;
  std::optional<ConfigNode> find(const std::string& key) const;
  /// All entries of a map, in file order (each key counts as read).
  std::vector<std::pair<std::string, ConfigNode>> entries() const;
  /// Fails on the first key of this map that no accessor read.
  void reject_unknown_keys() const;

  // ---- sequence access -------------------------------------------------------------------
  std::vector<ConfigNode> items() const;

  // ---- scalars ---------------------------------------------------------------------------
  std::string as_string() const;
  bool as_bool() const;
  /// Decimal or 0x-hex, with '_' separators allowed; fails if negative or too large.
  uint64_t as_u64() const;
  int64_t as_i64() const;
  double as_double() const;
  /// A byte count: a number, or a number with a suffix B, KiB, MiB, GiB (also K, M, G).
  uint64_t as_size() const;

  // Convenience: read an optional key with a default.
  uint64_t u64_or(const std::string& key, uint64_t fallback) const;
  double double_or(const std::string& key, double fallback) const;
  std::string string_or(const std::string& key, const std::string& fallback) const;
  bool bool_or(const std::string& key, bool fallback) const;
  uint64_t size_or(const std::string& key, uint64_t fallback) const;

 private:
  using KeysRead = std::map<std::string, std::set<std::string>>;
  ConfigNode(YAML::Node node, const ConfigNode& parent, std::string path);
  std::string child_path(const std::string& key) const;
  std::string scalar_text() const;
  std::set<std::string>& keys_read() const { return (*keys_read_)[path_]; }

  YAML::Node node_;
  std::shared_ptr<const std::string> file_;
  std::string path_;
  std::shared_ptr<KeysRead> keys_read_;  ///< per key path, shared by the whole document
};

/// Applies `key.path=value` to a loaded YAML tree (the `--set` option). The parent of the
/// last key must be an existing map; an existing value must be a scalar. The value text is
/// parsed as YAML, so numbers stay numbers. Throws ConfigError naming the option.
void apply_override(YAML::Node root, const std::string& assignment);

/// Parses a number the way configuration files write them (see ConfigNode::as_u64).
std::optional<uint64_t> parse_u64(const std::string& text);

}  // namespace socsim
