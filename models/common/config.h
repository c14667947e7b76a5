// Strict YAML configuration reading: one reader for presets, overrides and defaults.
//
// Every model's configuration is read through ConfigNode. A file is parsed into a tree that
// remembers where each value came from (file and line, a preset merged under a section, a
// `--set` option, or a default the reader supplied), so that errors name file, line and
// key and `socsim config` can print the effective configuration with the origin of every
// value. Parsing is strict: duplicate keys, keys that are not plain scalars and text that
// is not UTF-8 are errors. A map with a `preset: FILE` key is merged over that file's map
// (the section's own keys win), so a SoC file, a DDR region and an NPU section read their
// presets the same way, and `--set` reaches every value of the effective configuration.
// Readers reject keys nobody read, suggesting the nearest known key. Setup-time only: it
// throws ConfigError, which the command line turns into exit status 2.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
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

/// Where a value of the effective configuration came from.
struct ConfigOrigin {
  enum class Kind { kFile, kPreset, kOverride, kDefault };
  Kind kind = Kind::kFile;
  std::string file;        ///< kFile, kPreset: the file
  int line = 0;            ///< kFile, kPreset: 1-based line, 0 when unknown
  std::string assignment;  ///< kOverride: the `--set` text

  /// "file:line", "preset file:line", "--set a.b=c" or "default".
  std::string describe() const;
};

/// The declaration of one configuration key: its type, range, default and documentation.
/// Tables of these drive reading, range checks and the generated key documentation
/// (models/common/config_table.h binds them to the fields of a configuration structure).
struct ConfigKey {
  enum class Type {
    kUnsigned,    ///< an integer (decimal, 0x, 0b)
    kSize,        ///< a byte count (4096, 64KiB)
    kNumber,      ///< a finite number
    kText,        ///< any text
    kChoice,      ///< one of `choices`
    kBool,        ///< true or false (also yes/no, on/off, 1/0)
    kChoiceList,  ///< a list of names from `choices`, each at most once counted
    kBitList,     ///< a list of bit numbers 0..max_u or inclusive ranges "lo-hi"
  };
  std::string name;  ///< the key; in a table, a path of map keys ("mac_array.rows")
  Type type = Type::kText;
  std::string doc;
  const char* fallback = nullptr;          ///< the default as YAML text; nullptr: see below
  uint64_t min_u = 0, max_u = UINT64_MAX;  ///< kUnsigned, kSize, kBitList: inclusive range
  double min_d = 0, max_d = 0;             ///< kNumber: range, inclusive but see min_open
  bool min_open = false;                   ///< kNumber: min_d itself is out of range
  bool power_of_two = false;               ///< kUnsigned, kSize: a power of two (or 0 if in range)
  /// Without a fallback: the key may be left out, giving no value (ConfigValue::absent), and
  /// the reader keeps its own default (documented in `doc`); else it is required.
  bool optional = false;
  /// A key of the same map whose value is the default (tRPab defaults to tRP): the reader
  /// of a key table applies it and records it like any default.
  std::string default_from;
  std::vector<std::string> choices;  ///< kChoice, kChoiceList

  static ConfigKey unsigned_in(std::string name, uint64_t lo, uint64_t hi, const char* fallback,
                               std::string doc);
  static ConfigKey size_in(std::string name, uint64_t lo, uint64_t hi, const char* fallback,
                           std::string doc);
  static ConfigKey number_in(std::string name, double lo, double hi, const char* fallback,
                             std::string doc);
  static ConfigKey text(std::string name, const char* fallback, std::string doc);
  static ConfigKey choice(std::string name, std::vector<std::string> choices, const char* fallback,
                          std::string doc);
  static ConfigKey boolean(std::string name, const char* fallback, std::string doc);
  static ConfigKey choice_list(std::string name, std::vector<std::string> choices,
                               std::string doc);
  static ConfigKey bit_list(std::string name, uint64_t max_bit, std::string doc);

  // Refinements for table rows: `ConfigKey::unsigned_in(...).powers_of_two()`.
  ConfigKey& powers_of_two() { power_of_two = true; return *this; }
  ConfigKey& above_min() { min_open = true; return *this; }
  ConfigKey& may_be_absent() { optional = true; return *this; }
  ConfigKey& defaults_to(std::string key) { default_from = std::move(key); return *this; }

  /// Why `value` is out of range ("must be in 1..64, got 100"), or nothing (kUnsigned, kSize).
  std::optional<std::string> range_error(uint64_t value) const;
  /// The same for kNumber; `text` is the value as written (for the message).
  std::optional<std::string> range_error(double value, const std::string& text) const;
  /// The type, range and default in words ("integer 0..29, default 1"), for documentation.
  std::string describe() const;
};

/// A value read through a ConfigKey: `u` for unsigned, size and boolean keys, `d` for numbers
/// (also set for unsigned keys), `text` for text and choices (the YAML text for all),
/// `choice` the index of a choice, `list` and `bits` for the list types.
struct ConfigValue {
  uint64_t u = 0;
  double d = 0;
  std::string text;
  size_t choice = 0;
  std::vector<std::string> list;
  std::vector<uint32_t> bits;
  bool absent = false;        ///< an optional key left out: no value
  bool from_default = false;  ///< the key was left out and its default taken
  std::string where;    ///< the key's ConfigNode::where(), for messages of later checks
};

struct ConfigItem;  // one node of a configuration tree (config.cpp)

/// A node of a configuration tree together with its key path.
///
/// Copies are handles onto the same node. Map nodes track which keys were read;
/// reject_unknown_keys() reports the rest. Reading is const, though it records what was
/// read and the defaults that were used (they show in dump()).
class ConfigNode {
 public:
  /// Parses a YAML file (a regular file of at most kMaxFileBytes). Syntax errors, duplicate
  /// keys, complex keys and non-UTF-8 text become ConfigError naming file and line.
  static ConfigNode load_file(const std::string& file);
  /// Parses YAML text (tests, overrides); `name` stands for the file in messages.
  static ConfigNode load_string(const std::string& text, const std::string& name);
  static constexpr uint64_t kMaxFileBytes = 4ull << 20;

  /// The file the node's value came from (the document's file for defaults and overrides).
  const std::string& file() const;
  const std::string& path() const { return path_; }
  const ConfigOrigin& origin() const;
  /// "file:line: key 'a.b'", "command line --set a.b=1: key 'a.b'" or
  /// "file: key 'a.b' (default)".
  std::string where() const;
  [[noreturn]] void fail(const std::string& message) const;

  bool is_map() const;
  bool is_sequence() const;
  bool is_scalar() const;
  bool is_null() const;

  // ---- map access ------------------------------------------------------------------------
  bool has(const std::string& key) const;
  /// Required child; fails naming the missing key.
  ConfigNode at(const std::string& key) const;
  std::optional<ConfigNode> find(const std::string& key) const;
  /// All entries of a map, in order (each key counts as read).
  std::vector<std::pair<std::string, ConfigNode>> entries() const;
  /// Fails on the first key of this map that no accessor read, naming the nearest key the
  /// reader asked for ("did you mean 'clock_mhz'?").
  void reject_unknown_keys() const;
  /// The map `key`; when absent, an empty map recorded as a default, so that the defaults a
  /// reader takes from it show in dump().
  ConfigNode section(const std::string& key) const;
  /// Records `text` as the default the reader used for an absent key (shown by dump()).
  void note_default(const std::string& key, const std::string& text) const;

  // ---- sequence access -------------------------------------------------------------------
  std::vector<ConfigNode> items() const;

  // ---- scalars ---------------------------------------------------------------------------
  std::string as_string() const;
  bool as_bool() const;
  /// Decimal, 0x-hex or 0b-binary, with '_' separators allowed; fails if negative or too
  /// large for 64 bits.
  uint64_t as_u64() const;
  int64_t as_i64() const;
  /// A finite number.
  double as_double() const;
  /// A byte count: a number, or a number with a suffix B, KiB, MiB, GiB (also K, M, G).
  uint64_t as_size() const;
  /// Reads `key` of this map as declared: type, range, and the default when absent.
  ConfigValue read(const ConfigKey& key) const;

  // Convenience: read an optional key with a default (recorded as such).
  uint64_t u64_or(const std::string& key, uint64_t fallback) const;
  double double_or(const std::string& key, double fallback) const;
  std::string string_or(const std::string& key, const std::string& fallback) const;
  bool bool_or(const std::string& key, bool fallback) const;
  uint64_t size_or(const std::string& key, uint64_t fallback) const;

  // ---- presets and overrides ---------------------------------------------------------------
  /// Merges, in this subtree, every map that has a `preset: FILE` key over FILE's map: keys
  /// of the map win, maps are merged key by key, FILE's other keys are added (marked as
  /// coming from the preset). FILE is relative to `base_dir` when the `preset` value comes
  /// from this document or the command line, and to the preset's folder inside a preset.
  /// Maps already merged are left alone.
  void merge_presets(const std::string& base_dir) const;
  /// The preset file merged under this map ("" if none).
  std::string preset_file() const;

  /// The subtree as YAML; with `origins`, each value carries a comment saying where it came
  /// from.
  void dump(std::ostream& out, bool origins) const;
  std::string dump(bool origins) const;

 private:
  ConfigNode(std::shared_ptr<ConfigItem> item, std::shared_ptr<const std::string> document,
             std::string path);
  ConfigNode child(const std::shared_ptr<ConfigItem>& item, const std::string& key) const;
  std::string child_path(const std::string& key) const;
  std::string scalar_text() const;
  void merge_presets_in(const std::string& base_dir, std::vector<std::string>& chain) const;
  void merge_preset(const ConfigNode& preset, const std::string& base_dir,
                    std::vector<std::string>& chain) const;
  friend void apply_override(const ConfigNode& root, const std::string& assignment);

  std::shared_ptr<ConfigItem> item_;
  std::shared_ptr<const std::string> document_;  ///< the file the tree was loaded from
  std::string path_;
};

/// Applies `key.path=value` to a configuration tree (the `--set` option): the value of an
/// existing scalar or sequence is replaced; a missing key is added, creating the maps on
/// its path (a key nobody reads is then an error naming the option). The value text is
/// parsed as YAML, so numbers stay numbers and `[a, b]` is a list. Throws ConfigError
/// naming the option.
void apply_override(const ConfigNode& root, const std::string& assignment);

/// The effective configuration of `root`: `--set` overrides of `preset` keys first, then the
/// presets merged (relative to `base_dir`), then the other overrides. Throws ConfigError.
void resolve_config(const ConfigNode& root, const std::vector<std::string>& overrides,
                    const std::string& base_dir);

/// Where presets are looked for after the folder of the file that names them (docs/platform.md,
/// "Presets"): the folders of the SOCSIM_PRESET_PATH environment variable (separated by ':'),
/// then the project's configs/ddr, configs/npu and configs/soc.
std::vector<std::string> preset_search_path();
/// The file a relative `preset:` value names: `name` (or `name`.yaml when it has no
/// extension) in `base_dir`, else in the first folder of preset_search_path() that has it,
/// else `base_dir`/`name` (whose loading then fails naming that path).
std::filesystem::path find_preset(const std::string& base_dir, const std::filesystem::path& name);

/// Parses a number the way configuration files write them (see ConfigNode::as_u64).
std::optional<uint64_t> parse_u64(const std::string& text);
/// A byte count as configuration files write it, for messages: "4 MiB", "300".
std::string format_size(uint64_t bytes);

/// The candidate nearest to `word` if it is close enough to be a likely misspelling.
std::optional<std::string> nearest_word(const std::string& word,
                                        const std::vector<std::string>& candidates);

}  // namespace socsim
